#!/usr/bin/env bash
# The `ssim` feature on the CPU beside libvmaf 3.2.0's integer ssim, side by side in one run:
# exactvq on one and two threads, libvmaf's vmaf (one thread: no --threads), on the same Y4M
# files in /dev/shm; whole runs (reading included), REPS rounds alternating the programs, each
# figure the median, of wall-clock time and of CPU time (user + system of the process's threads:
# on a machine others load, frames per CPU-second is the steadier figure). Cases: 1080p 8-bit, 4K 8-bit, 1080p 10-bit (FRAMES, FRAMES / 4 and
# FRAMES * 2 / 3 frames, repeating their first 8). Also checks that exactvq's `raster` values
# equal libvmaf's on each clip, bit for bit, and prints the load average before and after.
# With BASELINE=path/to/another/exactvq in the environment, that build runs too (one thread), so
# two versions are compared side by side in the same rounds.
#   bench/ssim_cpu.sh EXACTVQ [FRAMES REPS [VMAF]]
# Defaults 60 5, VMAF ../shared/libvmaf/vmaf.
set -euo pipefail
exactvq=$1 frames=${2:-60} reps=${3:-5}
here=$(cd "$(dirname "$0")" && pwd)
vmaf=${4:-$here/../../shared/libvmaf/vmaf}
work=$(mktemp -d /dev/shm/ssim_cpu.XXXXXX)
trap 'rm -rf "$work"' EXIT
py=python3; "$py" -c "import numpy" 2>/dev/null || py=/usr/bin/python3  # one with numpy

seconds() {  # seconds COMMAND...: "wall,cpu" seconds of one run (cpu: user + system, all threads)
  "$py" -c '
import os, subprocess, sys, time
start = time.monotonic()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
wall = time.monotonic() - start
if os.waitstatus_to_exitcode(status):
    sys.exit(f"ssim_cpu.sh: {sys.argv[1]} failed")
print(f"{wall},{usage.ru_utime + usage.ru_stime}")' "$@"
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for case in "1920 1080 8 $frames" "3840 2160 8 $((frames / 4))" "1920 1080 10 $((frames * 2 / 3))"; do
  read -r w h bits n <<< "$case"
  rm -f "$work"/*.y4m
  "$py" "$here/make_vmaf_clip.py" "$work" "$w" "$h" "$n" 8 "$bits"
  declare -A runs=()
  for ((r = 0; r < reps; ++r)); do
    runs[one]+="$(seconds "$exactvq" -r "$work/ref.y4m" -d "$work/dist.y4m" --feature ssim --threads 1 -q -o "$work/e.json" --json) "
    runs[two]+="$(seconds "$exactvq" -r "$work/ref.y4m" -d "$work/dist.y4m" --feature ssim --threads 2 -q -o "$work/e.json" --json) "
    if [ -n "${BASELINE:-}" ]; then
      runs[base]+="$(seconds "$BASELINE" -r "$work/ref.y4m" -d "$work/dist.y4m" --feature ssim --threads 1 -q -o "$work/b.json" --json) "
    fi
    runs[libvmaf]+="$(seconds "$vmaf" -r "$work/ref.y4m" -d "$work/dist.y4m" --feature ssim --no_prediction -q -o "$work/l.json" --json) "
  done
  "$exactvq" -r "$work/ref.y4m" -d "$work/dist.y4m" --feature ssim=sum=raster --threads 1 -q --precision max -o "$work/e.json" --json
  VMAF_JSON_FULL_PRECISION=1 "$vmaf" -r "$work/ref.y4m" -d "$work/dist.y4m" --feature ssim --no_prediction -q -o "$work/l.json" --json > /dev/null
  "$py" - "$work" "$w x $h $bits-bit, $n frames" "$n" "${runs[one]}" "${runs[two]}" "${runs[libvmaf]}" "${runs[base]:-}" <<'PY'
import json, statistics, struct, sys
work, title, frames = sys.argv[1], sys.argv[2], int(sys.argv[3])
print(title)
fps, cpu = {}, {}
for name, times in zip(("exactvq 1 thread", "exactvq 2 threads", "libvmaf (1 thread)", "baseline 1 thread"), sys.argv[4:8]):
    if not times.strip():
        continue
    runs = [tuple(float(x) for x in v.split(",")) for v in times.split()]
    fps[name] = frames / statistics.median(w for w, _ in runs)
    cpu[name] = frames / statistics.median(c for _, c in runs)
    print(f"  {name:20s} {fps[name]:8.2f} frames/s, {cpu[name]:8.2f} frames per CPU-second"
          f"   (runs, wall: {' '.join(f'{frames / w:.1f}' for w, _ in runs)})")
print(f"  exactvq 1 thread / libvmaf: {fps['exactvq 1 thread'] / fps['libvmaf (1 thread)']:.2f}x wall,"
      f" {cpu['exactvq 1 thread'] / cpu['libvmaf (1 thread)']:.2f}x CPU;"
      f" 2 threads / 1: {fps['exactvq 2 threads'] / fps['exactvq 1 thread']:.2f}x wall")
if "baseline 1 thread" in fps:
    print(f"  exactvq / baseline, 1 thread: {fps['exactvq 1 thread'] / fps['baseline 1 thread']:.2f}x wall,"
          f" {cpu['exactvq 1 thread'] / cpu['baseline 1 thread']:.2f}x CPU;"
          f" baseline / libvmaf: {cpu['baseline 1 thread'] / cpu['libvmaf (1 thread)']:.2f}x CPU")
e = json.load(open(f"{work}/e.json"), parse_int=float)
c = json.load(open(f"{work}/l.json"), parse_int=float)
diff = sum(struct.pack("d", a["metrics"][k]) != struct.pack("d", v)
           for a, b in zip(e["frames"], c["frames"]) for k, v in b["metrics"].items())
n = sum(len(b["metrics"]) for b in c["frames"])
print(f"  raster values compared with libvmaf's: {n}, differing: {diff}")
sys.exit(1 if diff else 0)
PY
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
