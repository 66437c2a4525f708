#!/usr/bin/env bash
# The CPU ssim path on the device machine's host CPU, in one call: the machine's
# facts, the core's clock (ssim_simd_bench's CoreClock), the pipeline's three
# stages and whole planes (ssim_simd_bench, for the per-stage roofline of
# docs/performance.md), the page-cache copy rate, whole runs beside libvmaf
# (bench/ssim_cpu.sh, exactvq on one and two threads) and the pool's scaling
# in exact and raster modes (bench/throughput.sh). That machine has no Debian
# -dev packages: pack here first, then run there (repo root, device tool):
#   bench/cpu_device.sh --pack PACK BUILD   (PACK: a folder .git/info/exclude ignores)
#   bash bench/cpu_device.sh PACK "$OUT" [FRAMES REPS THREADS...]
# Defaults 60 3, threads "1 2 4 8 16"; logs in OUT.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = "--pack" ]; then
  pack=$2 build=$3
  rm -rf "$pack" && mkdir -p "$pack"
  "$here/throughput.sh" --pack "$pack/cpu" "$build" exactvq > /dev/null
  cp "$here/../../shared/libvmaf/vmaf" "$pack/cpu/"
  strip "$pack"/cpu/exactvq "$pack"/cpu/ssim_throughput "$pack"/cpu/ssim_simd_bench "$pack"/cpu/twin_tests
  du -sh "$pack"
  exit 0
fi
pack=$(realpath "$1") out=$2 frames=${3:-60} reps=${4:-3}
shift $(($# < 4 ? $# : 4))
threads=${*:-1 2 4 8 16}
mkdir -p "$out"
export LD_LIBRARY_PATH=$pack/cpu
log() { echo "== $1 ($(date +%T), load $(cut -d' ' -f1-3 /proc/loadavg))"; }
{
  log "machine"
  lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Socket|NUMA node\(s\)|L1d|L2|L3|MHz'
  grep -m1 -o -w -E 'avx512_vnni|avx512vnni' /proc/cpuinfo | head -1
  grep -m1 -o -w 'avx512_bf16' /proc/cpuinfo | head -1
  log "twins on every target"
  (cd "$pack/cpu" && timeout 120 ./twin_tests --gtest_filter='*cpu*' 2>&1 | tail -3)
  log "stages"
  "$pack/cpu/ssim_simd_bench" --benchmark_filter='CoreClock|Pipeline|SimdExact/(1920/1080/(8|10)|3840/2160/8)/' \
    --benchmark_min_time=0.3 --benchmark_repetitions=5 --benchmark_report_aggregates_only=true 2>&1 |
    grep -E '^BM_.*_median'
  log "page-cache copy"
  shm=$(mktemp -d /dev/shm/cpu_device.XXXXXX)
  head -c 1000000000 /dev/zero > "$shm/f"
  for r in 1 2 3; do dd if="$shm/f" of=/dev/null bs=1M 2>&1 | tail -1; done
  rm -rf "$shm"
  log "whole runs beside libvmaf"
  timeout 400 bash "$here/ssim_cpu.sh" "$pack/cpu/exactvq" "$frames" "$reps" "$pack/cpu/vmaf"
  log "pool scaling"
  (cd "$pack/cpu" && timeout 300 ./throughput.sh . 3 1 $threads)
  log "end"
} 2>&1 | tee "$out/cpu_device.txt"
