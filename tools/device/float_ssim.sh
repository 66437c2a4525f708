#!/usr/bin/env bash
# One device call for float_ssim and float_ms_ssim on every GPU path: opencl_tests' float_ssim
# cases (EXACTVQ_OPENCL_FLOAT_SSIM_ALL=1: every public frame, 1080p) on the device's OpenCL,
# cuda_tests' (fp64 native and emulated), the engine twin rows, and the CLI on 120 1080p frames
# from /dev/shm with CUDA fp64=native, fp64=emulate and OpenCL (rough rates, start-up included;
# the three reports compared). Logs to OUT/logs.tgz.
# Pack: tools/device/pack.sh BUILD PACK with opencl_tests and its libraries added to PACK/bin and
# PACK/lib, and the public vectors as PACK/shared/vectors.tgz (tar czf, from ../shared) when the
# pack would pass 64 MiB with them unpacked.
# Usage (device tool, repo root): bash tools/device/float_ssim.sh PACK "$OUT"
P=$(realpath "$1") OUT=$2
L=$OUT/logs; mkdir -p "$L"
export LD_LIBRARY_PATH=$P/lib
source "$P/paths.env"
mkdir -p "$BUILD_DIR" "$SRC_DIR" /tmp/cudashared
cp "$P/bin/exactvq" "$BUILD_DIR/exactvq"
cp -r "$P/samples" "$SRC_DIR/samples"
tar xzf "$P/shared/vectors.tgz" -C /tmp/cudashared
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T0=$(date +%s); el() { echo "[t=$(( $(date +%s) - T0 ))s]"; }
echo "== opencl_tests FloatSsim (every public frame, 1080p) $(el)"
(cd "$BUILD_DIR" && EXACTVQ_OPENCL_FLOAT_SSIM_ALL=1 timeout 70 "$P/bin/opencl_tests" --gtest_filter='*FloatSsim*' >"$L/opencl.log" 2>&1; echo "exit $?")
grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |opencl   \]" "$L/opencl.log" | head -20; grep -B2 -A6 Failure "$L/opencl.log" | head -30
echo "== cuda_tests FloatSsim $(el)"
(cd "$BUILD_DIR" && timeout 80 "$P/bin/cuda_tests" --gtest_filter='*FloatSsim*' >"$L/cuda.log" 2>&1; echo "exit $?")
grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |cuda     \]" "$L/cuda.log" | head -20; grep -B2 -A6 Failure "$L/cuda.log" | head -30
echo "== twin rows $(el)"
timeout 40 "$P/bin/twin_tests" --gtest_filter='*float_ssim_means*:*float_ms_ssim_means*:*softfp*' >"$L/twin.log" 2>&1; echo "exit $?"
grep -E "^\[ twin \]|skipped:|^\[ +(FAILED|PASSED|SKIPPED) " "$L/twin.log" | grep -E "cuda|opencl|FAILED|PASSED|SKIPPED" | head -20
echo "== CLI, 1080p 8-bit, 120 frames in /dev/shm $(el)"
python3 - <<'PY'
import os
w, h, n = 1920, 1080, 120
base = os.urandom(w * h * 3 // 2)
noise = os.urandom(w * h * 3 // 2)
with open("/dev/shm/m_ref.y4m", "wb") as r, open("/dev/shm/m_dist.y4m", "wb") as d:
    for f in (r, d):
        f.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n".encode())
    dist = bytes((a + (b & 7)) & 255 for a, b in zip(base[:w*h], noise[:w*h])) + base[w*h:]
    for i in range(n):
        r.write(b"FRAME\n"); r.write(base)
        d.write(b"FRAME\n"); d.write(dist)
PY
for spec in float_ssim float_ms_ssim; do
  for b in "cuda fp64=native" "cuda fp64=emulate" "opencl fp64=auto"; do
    set -- $b
    s=$(date +%s.%N)
    timeout 40 "$P/bin/exactvq" -r /dev/shm/m_ref.y4m -d /dev/shm/m_dist.y4m --feature "$spec=$2" --backend $1 --json -o "$L/$spec-$1-$2.json" --precision max >/dev/null 2>&1
    rc=$?; e=$(date +%s.%N)
    echo "$spec $1 $2: rc $rc, $(python3 -c "print(f'{120/($e-$s):.1f} frames/s ({$e-$s:.2f} s)')")"
  done
  python3 -c "
import json,sys
r=[json.load(open(f'$L/$spec-{b}.json'))['frames'] for b in ('cuda-fp64=native','cuda-fp64=emulate','opencl-fp64=auto')]
print('$spec', 'same values on all three' if r[0]==r[1]==r[2] else 'VALUES DIFFER')" 2>&1
done
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C "$OUT" logs
