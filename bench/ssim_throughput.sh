#!/bin/sh
# Frames/s and MP/s of the CPU ssim path from RAM (synthetic 4:2:0 frames made
# in memory: no reader, no disk in the timing): 1080p 8-bit, 4K 8-bit and 1080p
# 10-bit, exact and raster, at each thread count; each figure the median of
# REPS runs of SECONDS each; then the peak RSS of a 4K 8-bit stream.
#
#   bench/ssim_throughput.sh DIR [REPS] [SECONDS] [THREADS...]
# DIR: a build tree (DIR/bench/ssim_throughput: ninja -C DIR ssim_throughput) or
# a folder of tools/device/pack_cpu.sh holding ssim_throughput and its libraries.
# Default REPS 3, SECONDS 2, THREADS "1 2".
set -eu
dir=${1:-build}
reps=${2:-3}
seconds=${3:-2}
[ $# -ge 3 ] && shift 3 || set --
threads_list=${*:-1 2}
if [ -x "$dir/bench/ssim_throughput" ]; then
  prog="$dir/bench/ssim_throughput"
elif [ -x "$dir/ssim_throughput" ]; then
  prog="$dir/ssim_throughput"
  LD_LIBRARY_PATH="$(cd "$dir" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export LD_LIBRARY_PATH
else
  echo "ssim_throughput.sh: no ssim_throughput in $dir or $dir/bench (ninja -C BUILD ssim_throughput)" >&2
  exit 1
fi
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) ($(nproc) cpus)"
echo "load: $(uptime)"
# SMT siblings share a core's execution ports: two threads on one core scale
# far less than two on two cores.
command -v lscpu >/dev/null && lscpu | grep -E '^(Thread|Core|Socket|NUMA node\(s\)|Model name|L2|L3)' || true
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for config in "1920 1080 8" "3840 2160 8" "1920 1080 10"; do
  for mode in exact raster; do
    for threads in $threads_list; do
      runs=$(for i in $(seq "$reps"); do "$prog" $config "$threads" "$mode" "$seconds"; done)
      fps=$(echo "$runs" | sed 's/.*fps=//' | median)
      mps=$(echo "$runs" | sed 's/.*MP\/s=\([0-9.]*\).*/\1/' | median)
      target=$(echo "$runs" | head -1 | sed 's/.*target=\([^ ]*\).*/\1/')
      set -- $config
      echo "${1}x${2} ${3}-bit $mode threads=$threads target=$target: median $fps frames/s, $mps MP/s over $reps runs"
    done
  done
done
# Plain threads scoring their own frames (no pool, no batches): the hardware's
# scaling, to compare with exact above.
for threads in $threads_list; do
  runs=$(for i in $(seq "$reps"); do "$prog" 1920 1080 8 "$threads" bare "$seconds"; done)
  echo "1920x1080 8-bit bare threads=$threads: median $(echo "$runs" | sed 's/.*fps=//' | median) frames/s (plain threads, luma exact, no pool)"
done
# Peak RSS of a 4K 8-bit stream (frames in flight, thread buffers): the
# largest thread count asked, then 2 threads.
for threads in $( (echo "$threads_list" | tr ' ' '\n' | sort -n | tail -1; echo 2) | sort -un); do
  line=$("$prog" 3840 2160 8 "$threads" exact "$seconds")
  rss=$(echo "$line" | sed 's/.*peak_rss_MB=\([0-9.]*\).*/\1/')
  above=$(echo "$line" | sed 's/.*above_frames_MB=\([0-9.]*\).*/\1/')
  echo "3840x2160 8-bit exact threads=$threads: peak RSS $rss MB, $above MB above the peak of making the 8 synthetic frame pairs held in RAM"
done
