#!/usr/bin/env bash
# One device call over a pack of bench/device_pack.sh: the GPU tests, the
# kernel tables, the end-to-end pipeline, the CPU twins and throughput on the
# device host's Xeon, and compute-sanitizer memcheck; logs to OUT/logs.tgz.
# Usage (device tool, repo root): bash bench/device_run.sh PACK "$OUT" [PARTS]
# PARTS: comma-separated among tests,kernels,pipeline,cpu,cpustages,memcheck (default
# all), and bench (cuda_bench's whole run: kernels, stages, emulated, end to end
# with raster), cli (bench/cuda/cli_bench.sh at CLI_BENCH_SCALE, default 0.3), x2 (bench/multi_gpu/run_x2.sh: multi-GPU tests and scaling; on
# nvidia-h200-x2, with multi_tests and multi_gpu_bench in the pack).
set -uo pipefail
P=$(realpath "$1") OUT=$2 parts=${3:-tests,kernels,pipeline,cpu,cpustages,memcheck}
has() { [[ ",$parts," == *",$1,"* ]]; }
L=$OUT/logs; mkdir -p "$L"
export LD_LIBRARY_PATH=$P/lib
source "$P/paths.env"  # BUILD_DIR, SRC_DIR: where the tests look for the CLI and the samples
mkdir -p "$BUILD_DIR" "$SRC_DIR" /tmp/cudashared
cp "$P/bin/exactvq" "$BUILD_DIR/exactvq"
cp -r "$P/samples" "$SRC_DIR/samples"
ln -sfn "$P/shared/vectors" /tmp/cudashared/vectors
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
lscpu | grep -E "Model name|^CPU\(s\)|Thread" | head -3
T0=$(date +%s); el() { echo "[t=$(( $(date +%s) - T0 ))s]"; }
if has tests; then
  echo "== cuda tests $(el)"
  (cd "$BUILD_DIR" && timeout 200 "$P/bin/cuda_tests" > "$L/cuda_tests.log" 2>&1; echo "cuda_tests exit $?")
  grep -E "^\[ +(FAILED|PASSED|SKIPPED) |tests ran|^\[ cuda " "$L/cuda_tests.log" | head -40
  grep -B2 -A8 "Failure" "$L/cuda_tests.log" | head -30
fi
if has kernels; then
  echo "== kernels $(el)"
  timeout 150 "$P/bin/cuda_bench" 0.3 kernels > "$L/kernels.txt" 2>&1; echo "cuda_bench exit $?"
  cat "$L/kernels.txt" | head -80
fi
if has bench; then
  echo "== cuda_bench $(el)"
  timeout 300 "$P/bin/cuda_bench" 0.2 > "$L/cuda_bench.txt" 2>&1; echo "cuda_bench exit $?"
  grep -A12 "^end to end" "$L/cuda_bench.txt"
fi
if has pipeline; then
  echo "== pipeline $(el)"
  timeout 200 "$P/bin/pipeline_bench" 0.3 /tmp/pipelinebench e2e,copies > "$L/pipeline.txt" 2>&1
  echo "pipeline_bench exit $?"; tail -40 "$L/pipeline.txt"
fi
if has cli; then
  echo "== cli $(el)"
  CLI_BENCH_SCALE=${CLI_BENCH_SCALE:-0.3} timeout 300 bash "$(dirname "$0")/cuda/cli_bench.sh" \
      "$BUILD_DIR/exactvq" /tmp/clibench > "$L/cli.txt" 2>&1; echo "cli_bench exit $?"; cat "$L/cli.txt"
fi
if has cpu; then
  echo "== cpu $(el)"
  (cd "$P/cpu" && timeout 60 ./cpu_twin_tests > "$L/cpu_twins.log" 2>&1; echo "cpu_twin_tests exit $?"
   grep -E "^\[ +(FAILED|PASSED) |planes" "$L/cpu_twins.log" | head -12)
  (cd "$P/cpu" && timeout 200 ./throughput.sh . 3 1 1 2 4 > "$L/cpu_throughput.txt" 2>&1; cat "$L/cpu_throughput.txt")
fi
if has cpustages; then
  echo "== cpu stages $(el)"
  # Per stage, and the fused pipeline against the default one (EXACTVQ_CPU_FUSED set = fused).
  (cd "$P/cpu" && export LD_LIBRARY_PATH=. &&
   timeout 90 env -u EXACTVQ_CPU_FUSED ./ssim_simd_bench \
      --benchmark_filter='Stage.*/1920/1080/8/|Stage(FixedSum|RasterSum)|Simd(Exact|Raster)/' \
      --benchmark_min_time=0.2 > "$L/cpu_stages.txt" 2>&1
   timeout 40 env EXACTVQ_CPU_FUSED=1 ./ssim_simd_bench --benchmark_filter='SimdExact/' \
      --benchmark_min_time=0.2 > "$L/cpu_fused.txt" 2>&1
   grep -E "^BM_" "$L/cpu_stages.txt"; echo "EXACTVQ_CPU_FUSED=1:"; grep -E "^BM_" "$L/cpu_fused.txt"
   # Threads against plain threads (no pool), 1080p 8-bit exact, medians of 5.
   for t in 1 2; do for mode in exact bare; do
     for i in 1 2 3 4 5; do ./ssim_throughput 1920 1080 8 $t $mode 1; done | sed 's/.*fps=//' | sort -n |
       awk -v t=$t -v m=$mode '{v[NR]=$1} END {print "1080p 8-bit " m " threads=" t ": median " v[3] " frames/s"}'
   done; done) 2>&1 | tee "$L/cpu_stages_summary.txt"
fi
if has x2; then
  echo "== two GPUs $(el)"
  FRAMES=600 CLI_FRAMES=160 timeout 230 bash "$(dirname "$0")/multi_gpu/run_x2.sh" "$P" "$L/x2" 2>&1 |
    grep -v "^\[ *OK" | tail -45
fi
if has memcheck; then
  echo "== memcheck $(el)"
  (cd "$BUILD_DIR" && EXACTVQ_CUDA_SMALL=1 timeout 120 compute-sanitizer --tool memcheck --leak-check full \
      "$P/bin/cuda_tests" --gtest_filter='*U8Kernel*:*KernelExact*:*SharedUpload*:*Upload*:*FailedLaunch*:*DeviceLost*' \
      > "$L/memcheck.log" 2>&1; echo "memcheck exit $?"; grep -E "^\[ +(OK|FAILED) " "$L/memcheck.log" | head -20; tail -3 "$L/memcheck.log")
fi
echo "== done $(el)"
cd "$OUT" && tar czf logs.tgz logs && rm -rf logs
