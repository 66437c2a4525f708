#!/usr/bin/env bash
# Packs what run_x2.sh needs from a CUDA build folder into BUILD/pack (bin/, lib/,
# build_dir): exactvq, multi_tests, multi_gpu_bench, and the shared libraries ldd
# lists beyond the C and C++ runtimes (libfmt, libhwy, libOpenCL, libpugixml...),
# which the device machine lacks.
# Build first, e.g.:
#   cmake -S . -B build-multi-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release \
#     -DCMAKE_CUDA_ARCHITECTURES=90-real -DEXACTVQ_WITH_FFMPEG=OFF
#   ninja -C build-multi-cuda exactvq multi_tests multi_gpu_bench
# Usage: pack.sh BUILD
set -euo pipefail
build=$(realpath "$1")
pack=$build/pack
rm -rf "$pack"
mkdir -p "$pack/bin" "$pack/lib"
bins=("$build/exactvq" "$build/tests/cli/multi_tests" "$build/bench/multi_gpu/multi_gpu_bench")
cp "${bins[@]}" "$pack/bin/"
echo "$build" >"$pack/build_dir"
for b in "${bins[@]}"; do ldd "$b"; done | awk '/=> \// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|ld-linux[^/]*|libdl|libpthread|librt|libcuda)\.so' |
  while read -r lib; do cp -L "$lib" "$pack/lib/"; done
du -sh "$pack"/*
