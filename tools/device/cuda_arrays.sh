#!/usr/bin/env bash
# One device call for pictures already in CUDA memory: the C API's tests of
# exactvq_score_cuda_frames (and compute-sanitizer memcheck over them), the Python
# package's tests with the machine's torch (CUDA tensors, DLPack, CuPy), and
# bench/python_cuda_arrays.py (in place against a copy to the host), logs in OUT.
# PACK: tools/device/pack.sh of a build whose Python package was configured for the
# device's python3 (3.12 there: -DPython3_EXECUTABLE=... -Dpybind11_DIR=...).
# Usage (device tool, repo root): bash tools/device/cuda_arrays.sh PACK "$OUT"   (PY_BENCH=0: no bench)
set -uo pipefail
P=$(realpath "$1") OUT=$2 ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export LD_LIBRARY_PATH=$P/lib PYTHONPATH=$P/python PYTHONUNBUFFERED=1
export EXACTVQ_CLI=$P/bin/exactvq EXACTVQ_SAMPLES=$P/samples EXACTVQ_TEST_TMP=/tmp/pytest
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__, torch.cuda.is_available())'
echo "== capi_tests (pictures in CUDA memory)"
timeout 120 "$P/bin/capi_tests" --gtest_filter='CApiCuda*:CApiDevice*' >"$OUT/capi.log" 2>&1; echo "exit $?"
grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) " "$OUT/capi.log"; grep -B2 -A10 "Failure" "$OUT/capi.log" | head -40
echo "== cuda_tests (the upload's copies changed: every engine)"
# shellcheck source=/dev/null
source "$P/paths.env"; mkdir -p "$BUILD_DIR" "$SRC_DIR"; cp "$P/bin/exactvq" "$BUILD_DIR/exactvq"
cp -r "$P/samples" "$SRC_DIR/samples" 2>/dev/null
(cd "$BUILD_DIR" && timeout 240 "$P/bin/cuda_tests" >"$OUT/cuda_tests.log" 2>&1; echo "exit $?")
grep -E "^\[  (PASSED|FAILED) |tests ran" "$OUT/cuda_tests.log"; grep -B2 -A10 "Failure" "$OUT/cuda_tests.log" | head -30
echo "== python tests"
(cd /tmp && timeout 240 python3 -B "$ROOT/tests/python/test_exactvq.py" -v >"$OUT/python.log" 2>&1; echo "exit $?")
grep -E "(ok|FAIL|ERROR|skipped.*)$|^Ran|^OK|^FAILED" "$OUT/python.log" | head -40
grep -A25 "^ERROR:\|^FAIL:" "$OUT/python.log" | head -80
[ "${PY_BENCH:-1}" = 1 ] && {
echo "== bench/python_cuda_arrays.py"
for f in ssim ssim,psnr; do
  timeout 200 python3 "$ROOT/bench/python_cuda_arrays.py" --frames 64 --features $f 2>&1 | tee -a "$OUT/bench.txt"
done
timeout 200 python3 "$ROOT/bench/python_cuda_arrays.py" --frames 64 --width 3840 --height 2160 \
  --features ssim --repeats 5 2>&1 | tee -a "$OUT/bench.txt"
}
echo "== compute-sanitizer memcheck over capi_tests' CUDA cases"
timeout 150 compute-sanitizer --tool memcheck --leak-check full "$P/bin/capi_tests" --gtest_filter='CApiCuda*' \
  >"$OUT/memcheck.log" 2>&1; echo "exit $?"
grep -E "ERROR SUMMARY|LEAK SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | head
