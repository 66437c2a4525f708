#!/usr/bin/env bash
# VMAF v0.6.1 on the CPU beside libvmaf 3.2.0, side by side in one run: exactvq with 1 and 2
# threads, libvmaf's vmaf with its own SIMD (AVX-512 where the CPU has it) and with its C code
# (--cpumask 0xffffffff), on the same Y4M files in /dev/shm; whole runs (reading included),
# REPS rounds alternating the programs, each figure the median. Also checks that exactvq's
# values equal libvmaf's C values on the clip, bit for bit.
#   bench/vmaf_cpu.sh EXACTVQ [W H FRAMES REPS [VMAF]]
# Defaults 1920 1080 20 3, VMAF ../shared/libvmaf/vmaf.
set -euo pipefail
exactvq=$1 w=${2:-1920} h=${3:-1080} frames=${4:-20} reps=${5:-3}
here=$(cd "$(dirname "$0")" && pwd)
vmaf=${6:-$here/../../shared/libvmaf/vmaf}
work=$(mktemp -d /dev/shm/vmaf_cpu.XXXXXX)
trap 'rm -rf "$work"' EXIT
py=python3; "$py" -c "import numpy" 2>/dev/null || py=/usr/bin/python3  # one with numpy
"$py" "$here/make_vmaf_clip.py" "$work" "$w" "$h" "$frames"

seconds() {  # seconds COMMAND...: wall time of one run
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > /dev/null
  t1=$(date +%s.%N)
  awk "BEGIN { print $t1 - $t0 }"
}
declare -A runs
names=(exactvq_1t exactvq_2t libvmaf_simd libvmaf_c)
for ((r = 0; r < reps; ++r)); do
  runs[exactvq_1t]+="$(seconds "$exactvq" -r "$work/ref.y4m" -d "$work/dist.y4m" --threads 1 -q -o "$work/e.json" --json) "
  runs[exactvq_2t]+="$(seconds "$exactvq" -r "$work/ref.y4m" -d "$work/dist.y4m" --threads 2 -q -o "$work/e.json" --json) "
  runs[libvmaf_simd]+="$(seconds "$vmaf" -r "$work/ref.y4m" -d "$work/dist.y4m" -q -o "$work/l.json" --json) "
  runs[libvmaf_c]+="$(seconds "$vmaf" -r "$work/ref.y4m" -d "$work/dist.y4m" --cpumask 0xffffffff -q -o "$work/c.json" --json) "
done
"$exactvq" -r "$work/ref.y4m" -d "$work/dist.y4m" --threads 2 -q --precision max -o "$work/e.json" --json
VMAF_JSON_FULL_PRECISION=1 "$vmaf" -r "$work/ref.y4m" -d "$work/dist.y4m" --cpumask 0xffffffff -q -o "$work/c.json" --json
"$py" - "$work" "$frames" "${runs[exactvq_1t]}" "${runs[exactvq_2t]}" "${runs[libvmaf_simd]}" "${runs[libvmaf_c]}" <<'PY'
import json, statistics, struct, sys
work, frames = sys.argv[1], int(sys.argv[2])
fps = {}
for name, times in zip(("exactvq 1 thread", "exactvq 2 threads", "libvmaf SIMD (1 thread)", "libvmaf C (1 thread)"), sys.argv[3:7]):
    t = [float(v) for v in times.split()]
    fps[name] = frames / statistics.median(t)
    print(f"{name:26s} {fps[name]:8.2f} frames/s   (runs: {' '.join(f'{frames / v:.2f}' for v in t)})")
print(f"exactvq 1 thread / libvmaf SIMD: {fps['exactvq 1 thread'] / fps['libvmaf SIMD (1 thread)']:.2f}x")
print(f"exactvq 1 thread / libvmaf C:    {fps['exactvq 1 thread'] / fps['libvmaf C (1 thread)']:.2f}x")
print(f"exactvq 2 threads / 1 thread:    {fps['exactvq 2 threads'] / fps['exactvq 1 thread']:.2f}x")
e = json.load(open(f"{work}/e.json"), parse_int=float)
c = json.load(open(f"{work}/c.json"), parse_int=float)
diff = sum(struct.pack("d", a["metrics"][k]) != struct.pack("d", v)
           for a, b in zip(e["frames"], c["frames"]) for k, v in b["metrics"].items())
n = sum(len(b["metrics"]) for b in c["frames"])
print(f"values compared with libvmaf's C: {n}, differing: {diff}")
sys.exit(1 if diff else 0)
PY
