#!/usr/bin/env bash
# The CPU ssim path on the device machine's host CPU, in one call: the machine's
# facts, the CPU twins on every target there, the SSIM rows of twin_tests --bench
# on its best target (the core's clock, the pipeline's stages, whole planes), the
# page-cache copy rate, whole runs beside libvmaf (bench/compare.sh ssim cpu,
# 1080p and 4K, 8 and 10 bits, at one and two threads) and the pool's scaling in
# exact and raster modes (bench/ssim_throughput.sh). That machine has no Debian
# -dev packages: pack here first, then run there (repo root, device tool):
#   tools/device/cpu_host.sh --pack PACK BUILD   (PACK: a folder .git/info/exclude ignores)
#   bash tools/device/cpu_host.sh PACK "$OUT" [FRAMES REPS THREADS...]
# Defaults 60 3, threads "1 2 4 8 16"; CPU_TARGET (AVX3) the target benched; logs in OUT.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${1:-}" = "--pack" ]; then
  pack=$2 build=$3
  rm -rf "$pack" && mkdir -p "$pack"
  "$root/tools/device/pack_cpu.sh" "$build" "$pack/cpu" exactvq > /dev/null
  cp "$root/../shared/libvmaf/vmaf" "$pack/cpu/" && chmod u+w "$pack/cpu/vmaf"
  strip "$pack"/cpu/exactvq "$pack"/cpu/ssim_throughput "$pack"/cpu/twin_tests
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
  log "stages and whole planes"
  timeout 150 "$pack/cpu/twin_tests" --bench --seconds=0.3 --filter="^ssim\.[a-z_]+/cpu-${CPU_TARGET:-AVX3}\$"
  log "page-cache copy"
  shm=$(mktemp -d /dev/shm/cpu_host.XXXXXX)
  head -c 1000000000 /dev/zero > "$shm/f"
  for _ in 1 2 3; do dd if="$shm/f" of=/dev/null bs=1M 2>&1 | tail -1; done
  rm -rf "$shm"
  log "whole runs beside libvmaf"
  timeout 400 bash "$root/bench/compare.sh" ssim cpu "$frames" "$reps" 1 2 --exactvq "$pack/cpu/exactvq" \
    --vmaf "$pack/cpu/vmaf"
  log "pool scaling"
  # shellcheck disable=SC2086  # one argument a thread count
  timeout 300 sh "$root/bench/ssim_throughput.sh" "$pack/cpu" 3 1 $threads
  log "end"
} 2>&1 | tee "$out/cpu_host.txt"
