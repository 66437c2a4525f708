#!/usr/bin/env bash
# One device call: GPU tests, compute-sanitizer memcheck and racecheck, the
# benchmarks and the CLI benchmark, from a folder of prebuilt binaries
# ($1: bin/ lib/ shared/ samples/ cli_bench.sh, built with
# EXACTVQ_SHARED_DIR=/tmp/cudashared in /tmp/cudabuild from sources in
# /tmp/cudasrc), logs to $2.
# $3: the parts to run, comma-separated (default: all of tests, memcheck,
# racecheck, bench, pipeline, cli); $4: seconds per measurement (default 0.5).
# CLI_BENCH_SCALE (e.g. 0.5) shortens cli_bench.sh's files for a quick run.
# bin/pipeline_bench is optional (older packs lack it).
set -uo pipefail
pack=$(realpath "$1") out=$2 parts=${3:-tests,memcheck,racecheck,bench,pipeline,cli} secs=${4:-0.5}
export LD_LIBRARY_PATH=$pack/lib
# The build and source folders the binaries were built with (their tests find
# the CLI and the samples there): $pack/paths.env may name others.
BUILD_DIR=/tmp/cudabuild SRC_DIR=/tmp/cudasrc
[ -f "$pack/paths.env" ] && source "$pack/paths.env"
mkdir -p "$BUILD_DIR" "$SRC_DIR" /tmp/cudashared "$out"
cp "$pack/bin/exactvq" "$BUILD_DIR/exactvq"
cp -r "$pack/samples" "$SRC_DIR/samples"
ln -sfn "$pack/shared/vectors" /tmp/cudashared/vectors
has() { [[ ",$parts," == *",$1,"* ]]; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
echo "host: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB"
cd "$BUILD_DIR"
if has tests; then
  echo "== tests"
  timeout "${TESTS_TIMEOUT:-240}" "$pack/bin/cuda_tests" >"$out/tests.log" 2>&1; echo "tests exit $?"
  grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) " "$out/tests.log" | head -60
  grep -B2 -A6 "Failure" "$out/tests.log" | head -60
fi
# The kernel cases, then the pipeline's own (shared upload, injected faults).
mem_filter='*KernelExact*:*ManyFrames*:*OutOfMemory*:*SharedUpload*:*EachFailedAllocation*:*FailedLaunch*:*DeviceLost*'
if has memcheck; then
  echo "== memcheck"
  EXACTVQ_CUDA_SMALL=1 timeout "${MEMCHECK_TIMEOUT:-150}" compute-sanitizer --tool memcheck --leak-check full \
    "$pack/bin/cuda_tests" --gtest_filter="$mem_filter" >"$out/memcheck.log" 2>&1
  echo "memcheck exit $?"; grep -E "^\[ +(OK|FAILED) " "$out/memcheck.log" | head -20; tail -4 "$out/memcheck.log"
fi
if has racecheck; then
  echo "== racecheck"
  EXACTVQ_CUDA_SMALL=1 timeout 120 compute-sanitizer --tool racecheck \
    "$pack/bin/cuda_tests" --gtest_filter='*KernelExact*:*ManyFrames*:*SharedUpload*' >"$out/racecheck.log" 2>&1
  echo "racecheck exit $?"; tail -4 "$out/racecheck.log"
fi
if has bench; then
  echo "== bench"
  timeout 280 "$pack/bin/cuda_bench" "$secs" 2>&1 | tee "$out/bench.txt"
fi
if has pipeline && [ -x "$pack/bin/pipeline_bench" ]; then
  echo "== pipeline bench"
  timeout "${PIPELINE_TIMEOUT:-200}" "$pack/bin/pipeline_bench" "$secs" /tmp/pipelinebench 2>&1 | tee "$out/pipeline.txt"
  rm -rf /tmp/pipelinebench
fi
if has cli; then
  echo "== cli bench"
  timeout "${CLI_TIMEOUT:-300}" bash "$pack/cli_bench.sh" "$BUILD_DIR/exactvq" /tmp/clibench 2>&1 | tee "$out/cli.txt"
fi
