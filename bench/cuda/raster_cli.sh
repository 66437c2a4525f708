#!/usr/bin/env bash
# ssim's raster mode against its exact mode through the CLI on one CUDA GPU, on the same Y4M
# files in /dev/shm (bench/make_vmaf_clip.py), side by side: REPS rounds alternating the
# modes, whole runs (reading and start-up included), medians; the steady rate subtracts a
# one-frame run's time. Then checks the CUDA raster values against the CPU's on the first
# CHECK frames, bit for bit (--precision max).
#   bench/cuda/raster_cli.sh EXACTVQ [W H FRAMES REPS CYCLE CHECK]   (defaults 3840 2160 250 3 20 12)
set -euo pipefail
exe=$1 w=${2:-3840} h=${3:-2160} frames=${4:-250} reps=${5:-3} cycle=${6:-20} check=${7:-12}
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /dev/shm/raster_cli.XXXXXX)
trap 'rm -rf "$work"' EXIT
py=python3; "$py" -c "import numpy" 2>/dev/null || py=/usr/bin/python3
"$py" "$here/make_vmaf_clip.py" "$work" "$w" "$h" "$frames" "$cycle"
cat "$work/ref.y4m" "$work/dist.y4m" >/dev/null
seconds() {  # seconds ARGS...: wall time of one CLI run
  local t0 t1
  t0=$(date +%s.%N)
  "$exe" -q -r "$work/ref.y4m" -d "$work/dist.y4m" --backend cuda "$@" >/dev/null
  t1=$(date +%s.%N)
  awk "BEGIN { print $t1 - $t0 }"
}
declare -A runs one
for ((r = 0; r < reps; ++r)); do
  for mode in exact raster; do
    runs[$mode]+="$(seconds --feature "ssim=sum=$mode" --json -o "$work/$mode.json") "
    one[$mode]+="$(seconds --feature "ssim=sum=$mode" --frame_cnt 1 --json -o "$work/one.json") "
  done
done
"$exe" -q -r "$work/ref.y4m" -d "$work/dist.y4m" --backend cuda --feature ssim=sum=raster --frame_cnt "$check" \
  --precision max --json -o "$work/g.json"
"$exe" -q -r "$work/ref.y4m" -d "$work/dist.y4m" --backend cpu --feature ssim=sum=raster --frame_cnt "$check" \
  --precision max --json -o "$work/c.json"
"$py" - "$work" "$frames" "${runs[exact]}" "${one[exact]}" "${runs[raster]}" "${one[raster]}" <<'PY'
import json, statistics, sys
work, frames = sys.argv[1], int(sys.argv[2])
fps = {}
for name, whole, one in (("exact", sys.argv[3], sys.argv[4]), ("raster", sys.argv[5], sys.argv[6])):
    t = [float(v) for v in whole.split()]
    o = statistics.median(float(v) for v in one.split())
    fps[name] = frames / statistics.median(t)
    steady = (frames - 1) / (statistics.median(t) - o)
    print(f"ssim sum={name:6s} {fps[name]:8.1f} frames/s whole run (runs: {' '.join(f'{frames / v:.1f}' for v in t)}),"
          f" steady {steady:.1f} (one-frame run {o:.2f} s)")
print(f"raster / exact (whole runs): {fps['raster'] / fps['exact']:.3f}")
g = json.load(open(f"{work}/g.json"))["frames"]
c = json.load(open(f"{work}/c.json"))["frames"]
diff = sum(a["metrics"] != b["metrics"] for a, b in zip(g, c))
print(f"raster values, CUDA against CPU: {len(c)} frames compared, {diff} differing")
sys.exit(1 if diff or len(c) == 0 else 0)
PY
