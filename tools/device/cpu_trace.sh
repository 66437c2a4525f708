#!/usr/bin/env bash
# Where 16 threads idle, in one device call: VMAF runs of 1080p 8 and 10-bit and 4K 8-bit at
# 16 and 8 threads on the host CPU, each once plain and once with EXACTVQ_TRACE (the pair shows
# the trace's cost), then bench/run_trace_summary.py over each trace (docs/figures.md, "CPU:
# VMAF and float SSIM"). That machine has no Debian -dev packages: pack here first, then run
# there (repo root, device tool, carry the pack):
#   tools/device/cpu_trace.sh --pack PACK BUILD   (PACK: a folder git ignores)
#   bash tools/device/cpu_trace.sh PACK "$OUT"
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${1:-}" = "--pack" ]; then
  pack=$2 build=$3
  rm -rf "$pack" && mkdir -p "$pack"
  "$root/tools/device/pack_cpu.sh" "$build" "$pack/cpu" exactvq > /dev/null
  rm -f "$pack/cpu/ssim_throughput" "$pack/cpu/twin_tests"
  chmod u+w "$pack"/cpu/* && strip "$pack/cpu/exactvq"
  du -sh "$pack"
  exit 0
fi
P=$(realpath "$1")/cpu OUT=$2
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$P
py=python3
"$py" -c "import numpy" 2>/dev/null || py=/usr/bin/python3  # make_vmaf_clip.py needs numpy
lscpu | grep -E 'Model name|^CPU\(s\)'
clip() { mkdir -p "/dev/shm/$1" && "$py" "$root/bench/make_vmaf_clip.py" "/dev/shm/$1" "$2" "$3" "$4" 24 "$5"; }
clip c8 1920 1080 1200 8 & clip c10 1920 1080 1200 10 & clip k8 3840 2160 300 8 & wait
for c in c8 c10 k8; do
  for t in 16 8; do
    for traced in no yes; do
      trace=; [ $traced = yes ] && trace=$OUT/trace_${c}_$t.json
      EXACTVQ_TRACE=$trace /usr/bin/time -o "$OUT/time.txt" -f "%e s wall, %U s user, %S s system" \
        "$P/exactvq" --threads $t -r /dev/shm/$c/ref.y4m -d /dev/shm/$c/dist.y4m -q --json \
        -o "$OUT/scores_${c}_${t}_$traced.json"
      echo "$c, $t threads, traced $traced: $(cat "$OUT/time.txt")"
    done
    "$py" "$root/bench/run_trace_summary.py" "$OUT/trace_${c}_$t.json" --cores "$(nproc)" \
      > "$OUT/summary_${c}_$t.txt" 2>&1
  done
done
for s in "$OUT"/summary_*_16.txt; do echo "== $s"; head -32 "$s"; done
