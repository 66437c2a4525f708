#!/usr/bin/env bash
# VMAF on the device machine's host CPU, in one call: vif's twin rows on every target there
# (AVX3 and AVX3 with VNNI on a Xeon), then whole runs beside libvmaf at 16 threads and one,
# this build against OLD (another exactvq) and against itself on AVX2 (EXACTVQ_SIMD), then the
# per-stage table at 1 and 16 threads. That machine has no Debian -dev packages: pack here first,
# then run there (repo root, device tool, carry the pack):
#   tools/device/cpu_vmaf.sh --pack PACK BUILD OLD_EXACTVQ   (PACK: a folder git ignores)
#   bash tools/device/cpu_vmaf.sh PACK "$OUT"
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${1:-}" = "--pack" ]; then
  pack=$2 build=$3 old=$4
  rm -rf "$pack" && mkdir -p "$pack"
  "$root/tools/device/pack_cpu.sh" "$build" "$pack/cpu" exactvq bench/vmaf_stages > /dev/null
  rm -f "$pack/cpu/ssim_throughput"
  cp "$root/../shared/libvmaf/vmaf" "$pack/cpu/" && chmod u+w "$pack"/cpu/*
  strip -o "$pack/cpu/exactvq_old" "$old"
  strip "$pack"/cpu/exactvq "$pack"/cpu/twin_tests "$pack"/cpu/vmaf_stages
  du -sh "$pack"
  exit 0
fi
P=$(realpath "$1")/cpu OUT=$2
mkdir -p "$OUT"
export LD_LIBRARY_PATH=$P
lscpu | grep -E 'Model name|^CPU\(s\)|MHz|per core|per socket|Socket|NUMA node\(s\)|L[23] cache'
echo "== vif twins"
(cd "$P" && timeout 90 ./twin_tests --gtest_filter='*vif*' > "$OUT/vif_twins.txt" 2>&1
 grep -E "^\[ +(OK|FAILED) +\].*AVX3|^\[  (PASSED|FAILED)" "$OUT/vif_twins.txt" | tail -24)
c="--clip-dir /dev/shm/clips --exactvq $P/exactvq --vmaf $P/vmaf --baseline $P/exactvq_old"
c+=" --also avx2=EXACTVQ_SIMD=AVX2 --clips 1080p8,1080p10"
echo "== 16 threads"; timeout 150 bash "$root/bench/compare.sh" $c vmaf cpu 480 2 16 2>&1 | tail -20
echo "== 1 thread"; timeout 200 bash "$root/bench/compare.sh" $c vmaf cpu 480 1 1 2>&1 | tail -20
echo "== stages"
timeout 120 bash "$root/bench/vmaf_stages.sh" "$P" 12 10 1 16 > "$OUT/stages.txt" 2>&1
tail -45 "$OUT/stages.txt"
