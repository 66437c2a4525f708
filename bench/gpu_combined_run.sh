#!/usr/bin/env bash
# The lead's combined device call: GPU tests, two-GPU tests and scaling, kernel and
# pipeline benchmarks, CPU twins and throughput on the host's Xeon.
# Usage (device tool, repo root): bash bench/gpu_combined_run.sh PACK "$OUT", where PACK
# holds bin/ lib/ cpu/ shared/ samples/ build_dir paths.env built in /work/final-src/build-final
# (cuda_tests, cuda_bench, pipeline_bench, multi_tests, multi_gpu_bench, exactvq; cpu/ from
# bench/throughput.sh --pack), as in bench/cuda/run_on_gpu.sh and bench/multi_gpu/pack.sh.
set -uo pipefail
P=$(realpath "$1") OUT=$2
L=$OUT/logs; mkdir -p "$L"
export LD_LIBRARY_PATH=$P/lib
mkdir -p /work/final-src/build-final /tmp/cudashared
cp "$P/bin/exactvq" /work/final-src/build-final/exactvq
cp -r "$P/samples" /work/final-src/samples
ln -sfn "$P/shared/vectors" /tmp/cudashared/vectors
lscpu | grep -E "Model name|^CPU\(s\)|Thread|Flags" | cut -c1-200 | head -4
T0=$(date +%s); el() { echo "[t=$(( $(date +%s) - T0 ))s]"; }
echo "== cuda tests $(el)"
(cd /work/final-src/build-final && timeout 150 "$P/bin/cuda_tests" > "$L/cuda_tests.log" 2>&1; echo "cuda_tests exit $?")
grep -E "^\[ +(FAILED|PASSED|SKIPPED) |tests ran" "$L/cuda_tests.log" | head -20
grep -B2 -A8 "Failure" "$L/cuda_tests.log" | head -30
echo "== two GPUs $(el)"
FRAMES=600 CLI_FRAMES=160 timeout 230 bash bench/multi_gpu/run_x2.sh "$P" "$L/x2" 2>&1 | grep -v "^\[ *OK" | tail -45
echo "== kernels $(el)"
timeout 80 "$P/bin/cuda_bench" 0.25 kernels 2>&1 | tee "$L/kernels.txt" | tail -40
echo "== cpu $(el)"
(cd "$P/cpu" && timeout 40 ./cpu_twin_tests > "$L/cpu_twins.log" 2>&1; echo "cpu_twin_tests exit $?"; grep -E "^\[ +(FAILED|PASSED) |target" "$L/cpu_twins.log" | head -8)
(cd "$P/cpu" && timeout 100 ./throughput.sh . 3 1 1 2 4 8 2>&1 | tee "$L/cpu_throughput.txt" | tail -40)
(cd "$P/cpu" && for f in 0 1; do echo "EXACTVQ_CPU_FUSED=$f"; EXACTVQ_CPU_FUSED=$f timeout 40 ./ssim_simd_bench --benchmark_filter='Stage|Simd' --benchmark_min_time=0.2 2>&1 | grep -E "Stage|Simd" | head -30; done) | tee "$L/cpu_stages.txt"
echo "== pipeline $(el)"
timeout 70 "$P/bin/pipeline_bench" 0.25 /tmp/pipelinebench e2e,shared 2>&1 | tee "$L/pipeline.txt" | tail -30
echo "== cli $(el)"
CLI_BENCH_SCALE=0.3 timeout 80 bash bench/cuda/cli_bench.sh /work/final-src/build-final/exactvq /tmp/clibench 2>&1 | tee "$L/cli.txt" | tail -14
echo "== memcheck $(el)"
(cd /work/final-src/build-final && EXACTVQ_CUDA_SMALL=1 timeout 60 compute-sanitizer --tool memcheck --leak-check full "$P/bin/cuda_tests" --gtest_filter='*SharedUpload*:*FailedLaunch*:*DeviceLost*:*EachFailedAllocation*' > "$L/memcheck.log" 2>&1; echo "memcheck exit $?"; tail -3 "$L/memcheck.log")
echo "== done $(el)"
cd "$OUT" && tar czf logs.tgz logs && rm -rf logs
