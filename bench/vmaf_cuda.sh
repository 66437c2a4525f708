#!/usr/bin/env bash
# VMAF v0.6.1 on one CUDA GPU beside libvmaf 3.2.0's CUDA build, side by side in
# one run: exactvq --backend cuda (VMAF, the default), exactvq --backend cuda
# --feature ssim (the issue's 90% mark), and vmaf-cuda (its CUDA features, the
# default --gpumask 0), on the same Y4M files in /dev/shm; whole runs (reading
# included), REPS rounds alternating the programs, each figure the median. Then
# checks that exactvq's CUDA values equal its CPU values on the clip, bit for bit.
#   bench/vmaf_cuda.sh EXACTVQ VMAF_CUDA [W H FRAMES REPS [CYCLE]]
# Defaults 1920 1080 300 3; CYCLE: the clip repeats its first CYCLE frames (make_vmaf_clip.py),
# for long runs made quickly. On the device machine add /usr/local/nvidia/lib64 to
# LD_LIBRARY_PATH for vmaf-cuda.
set -euo pipefail
exactvq=$1 vmaf=$2 w=${3:-1920} h=${4:-1080} frames=${5:-300} reps=${6:-3} cycle=${7:-${5:-300}}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /dev/shm/vmaf_cuda.XXXXXX)
trap 'rm -rf "$work"' EXIT
py=python3; "$py" -c "import numpy" 2>/dev/null || py=/usr/bin/python3  # one with numpy
"$py" "$here/make_vmaf_clip.py" "$work" "$w" "$h" "$frames" "$cycle"
seconds() {  # seconds COMMAND...: wall time of one run
  local t0 t1
  t0=$(date +%s.%N)
  "$@" > /dev/null
  t1=$(date +%s.%N)
  awk "BEGIN { print $t1 - $t0 }"
}
declare -A runs
for ((r = 0; r < reps; ++r)); do
  runs[vmaf]+="$(seconds "$exactvq" -r "$work/ref.y4m" -d "$work/dist.y4m" --backend cuda -q -o "$work/e.json" --json) "
  runs[ssim]+="$(seconds "$exactvq" -r "$work/ref.y4m" -d "$work/dist.y4m" --backend cuda --feature ssim -q -o "$work/s.json" --json) "
  runs[libvmaf]+="$(seconds "$vmaf" -r "$work/ref.y4m" -d "$work/dist.y4m" -q -o "$work/l.json" --json) "
done
"$exactvq" -r "$work/ref.y4m" -d "$work/dist.y4m" --backend cuda -q --precision max -o "$work/g.json" --json
"$exactvq" -r "$work/ref.y4m" -d "$work/dist.y4m" --backend cpu -q --precision max -o "$work/c.json" --json
"$py" - "$work" "$frames" "${runs[vmaf]}" "${runs[ssim]}" "${runs[libvmaf]}" <<'PY'
import json, statistics, struct, sys
work, frames = sys.argv[1], int(sys.argv[2])
fps = {}
for name, times in zip(("exactvq VMAF (cuda)", "exactvq ssim (cuda)", "libvmaf vmaf-cuda"), sys.argv[3:6]):
    t = [float(v) for v in times.split()]
    fps[name] = frames / statistics.median(t)
    print(f"{name:22s} {fps[name]:9.1f} frames/s   (runs: {' '.join(f'{frames / v:.1f}' for v in t)})")
print(f"exactvq VMAF / libvmaf vmaf-cuda: {fps['exactvq VMAF (cuda)'] / fps['libvmaf vmaf-cuda']:.2f}x")
print(f"exactvq VMAF / exactvq ssim:      {fps['exactvq VMAF (cuda)'] / fps['exactvq ssim (cuda)']:.2f}")
g = json.load(open(f"{work}/g.json"), parse_int=float)
c = json.load(open(f"{work}/c.json"), parse_int=float)
diff = sum(struct.pack("d", a["metrics"][k]) != struct.pack("d", v)
           for a, b in zip(g["frames"], c["frames"]) for k, v in b["metrics"].items())
n = sum(len(b["metrics"]) for b in c["frames"])
print(f"values compared, CUDA with CPU: {n}, differing: {diff}")
sys.exit(1 if diff else 0)
PY
