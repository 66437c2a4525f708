#!/usr/bin/env bash
# One device call: GPU tests, compute-sanitizer memcheck and racecheck, the
# benchmarks and the CLI benchmark, from a folder of prebuilt binaries
# ($1: bin/ lib/ shared/ samples/, built with EXACTVQ_SHARED_DIR=/tmp/cudashared
# in /tmp/cudabuild from sources in /tmp/cudasrc), logs to $2.
set -uo pipefail
pack=$(realpath "$1") out=$2
export LD_LIBRARY_PATH=$pack/lib
mkdir -p /tmp/cudabuild /tmp/cudasrc /tmp/cudashared "$out"
cp "$pack/bin/exactvq" /tmp/cudabuild/exactvq
cp -r "$pack/samples" /tmp/cudasrc/samples
ln -sfn "$pack/shared/vectors" /tmp/cudashared/vectors
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
cd /tmp/cudabuild
echo "== tests"
timeout 240 "$pack/bin/cuda_tests" >"$out/tests.log" 2>&1; echo "tests exit $?"
grep -E "^\[ +(cuda|OK|FAILED|PASSED|SKIPPED) " "$out/tests.log" | head -40
grep -B2 -A6 "Failure" "$out/tests.log" | head -60
echo "== memcheck"
EXACTVQ_CUDA_SMALL=1 timeout 150 compute-sanitizer --tool memcheck --leak-check full \
  "$pack/bin/cuda_tests" --gtest_filter='*KernelExact*:*ManyFrames*:*OutOfMemory*' >"$out/memcheck.log" 2>&1
echo "memcheck exit $?"; tail -4 "$out/memcheck.log"
echo "== racecheck"
EXACTVQ_CUDA_SMALL=1 timeout 120 compute-sanitizer --tool racecheck \
  "$pack/bin/cuda_tests" --gtest_filter='*KernelExact*:*ManyFrames*' >"$out/racecheck.log" 2>&1
echo "racecheck exit $?"; tail -4 "$out/racecheck.log"
echo "== bench"
timeout 280 "$pack/bin/cuda_bench" 0.5 2>&1 | tee "$out/bench.txt"
echo "== cli bench"
timeout 300 bash "$pack/cli_bench.sh" /tmp/cudabuild/exactvq /tmp/clibench 2>&1 | tee "$out/cli.txt"
