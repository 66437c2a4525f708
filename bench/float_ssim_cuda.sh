#!/usr/bin/env bash
# float_ssim end to end from RAM: a 1080p 8-bit 4:2:0 Y4M pair in /dev/shm,
# scored by the CLI with --backend cuda (float_ssim at its default scale and at
# the AOM CTC setting, float_ms_ssim, and ssim beside them) and on the CPU
# (every thread); best of REPEATS wall times each, and whether each CUDA report
# equals the CPU's (all but fps).
# Usage: bench/float_ssim_cuda.sh EXACTVQ [FRAMES (300)] [REPEATS (2)] [OUTDIR]
set -uo pipefail
bin=$1 frames=${2:-300} repeats=${3:-2} out=${4:-/tmp/float_ssim_cuda}
dir=/dev/shm/float_ssim_cuda
mkdir -p "$dir" "$out"
python3 - "$dir" "$frames" <<'PY'
import sys, random
d, n = sys.argv[1], int(sys.argv[2])
w, h = 1920, 1080
random.seed(7)
# A smooth picture with grain, moving; the distorted one with noise of +-3.
row = bytes(int(128 + 100 * ((x % 480) / 480.0 - 0.5)) for x in range(w))
base = bytearray()
for y in range(h):
    base += row[(y * 3) % w:] + row[:(y * 3) % w]
grain = bytes(random.randrange(256) for _ in range(w * h))
noise = bytes(random.randrange(7) for _ in range(w * h))
ref_frame = bytes((b + (g & 15)) & 255 for b, g in zip(base, grain))
dist_frame = bytes(min(255, max(0, r + n - 3)) for r, n in zip(ref_frame, noise))
chroma = bytes([128]) * (w * h // 2)
for which, luma in (("ref", ref_frame), ("dist", dist_frame)):
    with open(f"{d}/{which}.y4m", "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n".encode())
        for i in range(n):
            k = (i * 1920 * 4) % len(luma)
            f.write(b"FRAME\n")
            f.write(luma[k:] + luma[:k])
            f.write(chroma)
PY
r=$dir/ref.y4m d=$dir/dist.y4m
cat "$r" "$d" >/dev/null
now() { date +%s.%N; }
echo "| features | backend | seconds (best of $repeats) | frames/s | report equals the CPU's |"
echo "|---|---|---|---|---|"
run() {  # name backend features...
  local name=$1 backend=$2 best=999 t0 t1 rc
  shift 2
  for _ in $(seq "$repeats"); do
    t0=$(now)
    timeout 120 "$bin" -q -r "$r" -d "$d" --backend "$backend" "$@" --json --precision max \
      -o "$out/$name-$backend.json" 2>>"$out/err.txt"
    rc=$?; t1=$(now)
    [ $rc -ne 0 ] && { echo "| $name | $backend | exit $rc | | |"; return; }
    best=$(python3 -c "print(min($best, $t1 - $t0))")
  done
  local same=""
  if [ "$backend" = cuda ] && [ -f "$out/$name-cpu.json" ]; then
    if diff <(grep -v '"fps"' "$out/$name-cpu.json") <(grep -v '"fps"' "$out/$name-cuda.json") >/dev/null; then
      same=yes; else same=NO; fi
  fi
  echo "| $name | $backend | $(printf %.3f "$best") | $(python3 -c "print(round($frames / $best))") | $same |"
}
run float_ssim cpu --feature float_ssim
run float_ssim cuda --feature float_ssim
run ctc cpu --feature float_ssim=scale=1:enable_db=true:clip_db=true
run ctc cuda --feature float_ssim=scale=1:enable_db=true:clip_db=true
run ms_ssim cpu --feature float_ms_ssim
run ms_ssim cuda --feature float_ms_ssim
run ssim cuda --feature ssim
