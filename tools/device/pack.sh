#!/usr/bin/env bash
# Packs a CUDA build for one device call (tools/device/run.sh): bin/ (exactvq,
# cuda_tests, twin_tests, cuda_kernel_bench, pipeline_bench, and multi_tests, multi_gpu_bench when
# built; stripped), lib/ (the shared libraries
# ldd lists beyond the C and C++ runtimes: the device machine has no Debian -dev
# packages), cpu/ (tools/device/pack_cpu.sh), shared/vectors, samples/ and
# paths.env and build_dir (where the tests expect the CLI and the samples).
# One pack serves every part of run.sh, x2 on the two-GPU machine
# (nvidia-h200-x2) included, when multi_tests and multi_gpu_bench are built.
# Build first, from a checkout at SRC with shared/ at /tmp/cudashared there, e.g.:
#   cmake -S SRC -B SRC/build-final -G Ninja -DCMAKE_BUILD_TYPE=Release -DEXACTVQ_CUDA=ON \
#     -DCMAKE_CUDA_ARCHITECTURES=90-real -DEXACTVQ_WITH_FFMPEG=OFF -DEXACTVQ_SHARED_DIR=/tmp/cudashared
#   ninja -C SRC/build-final exactvq cuda_tests cuda_kernel_bench pipeline_bench ssim_throughput \
#     twin_tests multi_tests multi_gpu_bench
# Usage: tools/device/pack.sh BUILD PACK   (PACK: an ignored folder of the checkout, to carry)
#        WHEEL=path/exactvq-*.whl tools/device/pack.sh BUILD PACK   (the wheel too, PACK/wheel/)
#        tools/device/pack.sh --wheel path/exactvq-*.whl PACK   (the wheel alone, for run.sh's
#        wheel part: tools/wheel/build_manylinux.sh makes it)
# Also packed when built: capi_tests, and the Python package of BUILD/python (python/);
# and ../shared/libvmaf/vmaf-cuda when it is there; with DEVICE_PACK_FFMPEG, an ffmpeg (below).
set -euo pipefail
if [ "${1:-}" = --wheel ]; then
  rm -rf "$3" && mkdir -p "$3/wheel" && cp "$2" "$3/wheel/" && du -sh "$3"
  exit 0
fi
build=$(realpath "$1") pack=$2 root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$pack" && mkdir -p "$pack/bin" "$pack/lib" "$pack/shared"
# The CLI and cuda_tests always; the others (each metric's device tests too) when built (a build without benchmarks
# packs smaller: it is what fits a call with the FFmpeg libraries left out).
bins=("$build/exactvq" "$build/tests/backends/cuda/cuda_tests")
for b in "$build/tests/twins/twin_tests" "$build/bench/cuda/cuda_kernel_bench" "$build/bench/cuda/pipeline_bench" \
         "$build/tests/capi/capi_tests" "$build/tests/cli/multi_tests" "$build/bench/multi_gpu/multi_gpu_bench" \
         "$build/tests/backends/opencl/opencl_tests" "$build"/tests/metrics/*/*_device_tests \
         "$build/tests/libvmaf_api/libvmaf_api_tests" "$build/tests/libvmaf_api/libvmaf_api_score"; do
  [ -x "$b" ] && bins+=("$b")
done
# libvmaf's vmaf-cuda, for bench/compare.sh (run.sh's cli part).
vmaf_cuda=$root/../shared/libvmaf/vmaf-cuda
[ -x "$vmaf_cuda" ] && bins+=("$vmaf_cuda")
# libvmaf's CPU build and library: the oracle of the libvmaf API tests and compare.sh's cpu runs
# (shared/libvmaf, linked where the build expects ../shared).
if [ -d "$root/../shared/libvmaf" ]; then
  mkdir -p "$pack/shared/libvmaf/lib"
  cp "$root/../shared/libvmaf/vmaf" "$pack/shared/libvmaf/"
  cp -a "$root/../shared/libvmaf/lib/"libvmaf.so* "$pack/shared/libvmaf/lib/"
fi
cp "${bins[@]}" "$pack/bin/" && chmod u+w "$pack"/bin/*
echo "$build" >"$pack/build_dir"
strip "$pack"/bin/*
for b in "${bins[@]}"; do ldd "$b"; done | awk '/=> \// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|ld-linux[^/]*|libdl|libpthread|librt|libcuda)\.so' |
  while read -r lib; do cp -L "$lib" "$pack/lib/"; done
"$root/tools/device/pack_cpu.sh" "$build" "$pack/cpu" >/dev/null 2>&1 || true
# The Python package as the build tree lays it out (PYTHONPATH=PACK/python), for the
# interpreter it was configured for.
if [ -d "$build/python/exactvq" ]; then
  mkdir -p "$pack/python" && cp -r "$build/python/exactvq" "$pack/python/"
  strip "$pack"/python/exactvq/*.so
  for so in "$pack"/python/exactvq/*.so; do ldd "$so"; done | awk '/=> \// {print $3}' | sort -u |
    grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|ld-linux[^/]*|libdl|libpthread|librt|libcuda|libpython[^/]*)\.so' |
    while read -r lib; do cp -nL "$lib" "$pack/lib/"; done
fi
strip "$pack"/cpu/ssim_throughput "$pack"/cpu/twin_tests 2>/dev/null || true
# DEVICE_PACK_FFMPEG=PATH: an ffmpeg linked to libvmaf.so.3 by RUNPATH (tools/ffmpeg/build_ffmpeg.sh),
# for run.sh's ffmpeg part (bench/ffmpeg_libvmaf.sh): ffmpeg/bin/ffmpeg, the libraries it needs
# and exactvq's libvmaf.so.3 need beyond the C and C++ runtimes (ffmpeg/lib), and each libvmaf.so.3 in a folder of its
# own (ffmpeg/exactvq: this build's; ffmpeg/upstream: shared/libvmaf's). About 10 MB; off by default.
if [ -n "${DEVICE_PACK_FFMPEG:-}" ]; then
  ff=$(realpath "$DEVICE_PACK_FFMPEG")
  if readelf -d "$ff" | grep -q '(RPATH)'; then
    echo "pack.sh: $ff has an RPATH, which LD_LIBRARY_PATH cannot override: relink it with RUNPATH" >&2
    exit 1
  fi
  mkdir -p "$pack/ffmpeg/bin" "$pack/ffmpeg/lib" "$pack/ffmpeg/exactvq" "$pack/ffmpeg/upstream"
  cp "$ff" "$pack/ffmpeg/bin/ffmpeg" && chmod u+w "$pack/ffmpeg/bin/ffmpeg" && strip "$pack/ffmpeg/bin/ffmpeg"
  { ldd "$ff"; ldd "$build/src/libvmaf_api/libvmaf.so.3"; } | awk '/=> \// {print $3}' | sort -u |
    grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|ld-linux[^/]*|libdl|libpthread|librt|libcuda|libvmaf)\.so' |
    while read -r lib; do cp -nL "$lib" "$pack/ffmpeg/lib/"; done
  cp -L "$build/src/libvmaf_api/libvmaf.so.3" "$pack/ffmpeg/exactvq/libvmaf.so.3"
  cp "$root/../shared/libvmaf/lib/libvmaf.so.3.2.0" "$pack/ffmpeg/upstream/libvmaf.so.3"
  chmod u+w "$pack"/ffmpeg/*/libvmaf.so.3 && strip "$pack"/ffmpeg/*/libvmaf.so.3
fi
# DEVICE_PACK_VECTORS=0: without the public vectors (33 MB; their tests then skip).
[ "${DEVICE_PACK_VECTORS:-1}" = 0 ] || cp -r "$root/../shared/vectors" "$pack/shared/vectors"
cp -r "$root/samples" "$pack/samples"
if [ -n "${WHEEL:-}" ]; then mkdir -p "$pack/wheel" && cp "$WHEEL" "$pack/wheel/"; fi
src=$(grep -m1 CMAKE_HOME_DIRECTORY "$build/CMakeCache.txt" | cut -d= -f2)
shared=$(grep -m1 '^EXACTVQ_SHARED_DIR:' "$build/CMakeCache.txt" | cut -d= -f2)
printf 'BUILD_DIR=%s\nSRC_DIR=%s\nSHARED_DIR=%s\n' "$build" "$src" "${shared:-/tmp/cudashared}" >"$pack/paths.env"
du -sh "$pack" "$pack"/*
