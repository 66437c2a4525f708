#!/bin/sh
# Frames/s of the CPU ssim path from RAM: 1080p 8-bit, 4K 8-bit and 1080p
# 10-bit, exact and raster, with 1 and 2 threads; each figure the median of
# REPS runs of SECONDS each. Usage: bench/throughput.sh [BUILD_DIR] [REPS] [SECONDS]
set -eu
build=${1:-build}
reps=${2:-3}
seconds=${3:-2}
prog="$build/bench/ssim_throughput"
[ -x "$prog" ] || { echo "throughput.sh: $prog not built (ninja -C $build ssim_throughput)" >&2; exit 1; }
echo "load: $(uptime)"
for config in "1920 1080 8" "3840 2160 8" "1920 1080 10"; do
  for mode in exact raster; do
    for threads in 1 2; do
      # shellcheck disable=SC2086
      fps=$(for i in $(seq "$reps"); do "$prog" $config "$threads" "$mode" "$seconds"; done |
            sed 's/.*fps=//' | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
      set -- $config
      echo "${1}x${2} ${3}-bit $mode threads=$threads: median $fps frames/s over $reps runs"
    done
  done
done
