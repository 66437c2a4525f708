#!/usr/bin/env bash
# Where 16 threads idle, in one device call: VMAF of 1080p 8 and 10-bit and 4K 8-bit on the
# host CPU at 16 threads with 2 (the default), 3 and 4 batches in flight (EXACTVQ_PIPELINE_DEPTH),
# three rounds of plain runs (frames/s, medians), then one run of each with EXACTVQ_TRACE, and one
# at 8 threads, each trace summarised by bench/run_trace_summary.py (docs/figures.md, "CPU: VMAF
# and float SSIM"). That machine has no Debian -dev packages: pack exactvq and its libraries
# here (PACK: a folder git ignores), then run there (repo root, device tool, carry PACK):
#   tools/device/pack_cpu.sh BUILD PACK/cpu exactvq
#   bash tools/device/cpu_trace.sh PACK "$OUT"
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
P=$(realpath "$1")/cpu OUT=$2
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$P
py=python3
"$py" -c "import numpy" 2>/dev/null || py=/usr/bin/python3  # make_vmaf_clip.py needs numpy
lscpu | grep -E 'Model name|^CPU\(s\)'
clip() { mkdir -p "/dev/shm/$1" && "$py" "$root/bench/make_vmaf_clip.py" "/dev/shm/$1" "$2" "$3" "$4" 24 "$5"; }
clip c8 1920 1080 1200 8 & clip c10 1920 1080 1200 10 & clip k8 3840 2160 300 8 & wait
run() {  # CLIP THREADS DEPTH TRACE|"": one run, its line in $OUT/runs.txt
  EXACTVQ_PIPELINE_DEPTH=$3 EXACTVQ_TRACE=$4 /usr/bin/time -o "$OUT/time.txt" -f "%e %U %S" \
    "$P/exactvq" --threads "$2" -r "/dev/shm/$1/ref.y4m" -d "/dev/shm/$1/dist.y4m" -q --json \
    -o "$OUT/scores_$1_$2_$3.json"
  echo "$1 $2 $3 ${4:+traced} $(cat "$OUT/time.txt")" | tee -a "$OUT/runs.txt"
}
for c in c8 c10 k8; do
  for round in 1 2 3; do for d in 2 3 4; do run $c 16 $d ""; done; done
  for d in 2 3 4; do run $c 16 $d "$OUT/trace_${c}_16_$d.json"; done
  run $c 8 2 "$OUT/trace_${c}_8_2.json"
  for t in "$OUT"/trace_${c}_*.json; do
    "$py" "$root/bench/run_trace_summary.py" "$t" --cores "$(nproc)" > "${t%.json}.txt" 2>&1
  done
  for d in 3 4; do cmp -s "$OUT/scores_${c}_16_2.json" "$OUT/scores_${c}_16_$d.json" ||
    "$py" -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); sys.exit(a["frames"] != b["frames"])' \
      "$OUT/scores_${c}_16_2.json" "$OUT/scores_${c}_16_$d.json" || echo "$c: depth $d scores DIFFER"; done
done
"$py" - "$OUT/runs.txt" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 6:
        runs[tuple(f[:3])].append((float(f[3]), float(f[4]) + float(f[5])))
frames = {"c8": 1200, "c10": 1200, "k8": 300}
for (c, t, d), v in sorted(runs.items()):
    w = statistics.median(x[0] for x in v)
    cpu = statistics.median(x[1] for x in v)
    print(f"{c} {t} threads, depth {d}: {frames[c] / w:.1f} frames/s, busy {cpu / w:.2f}, runs {' '.join(f'{x[0]:.2f}' for x in v)}")
PY
for t in "$OUT"/trace_*_16_*.txt; do echo "== $t"; head -24 "$t"; done
