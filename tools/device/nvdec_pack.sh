#!/usr/bin/env bash
# A pack for one device call of bench/nvdec/device_nvdec.sh: bin/ (exactvq,
# cuda_tests, nvdec_decode_rate; stripped), lib/ (the shared libraries they
# need, FFmpeg's from the small build of build_small_ffmpeg.sh, not Debian's
# with their hundred MB of codecs), streams/ (make_streams.sh small and 4k) and
# this folder's scripts.
# Usage: bench/nvdec/pack.sh BUILD FFMPEG_LIB_DIR STREAMS PACK
set -euo pipefail
build=$(realpath "$1") fflib=$(realpath "$2") streams=$(realpath "$3") pack=$4 here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$pack" && mkdir -p "$pack/bin" "$pack/lib" "$pack/streams"
bins=("$build/exactvq" "$build/tests/cuda/cuda_tests" "$build/bench/nvdec_decode_rate")
cp "${bins[@]}" "$pack/bin/" && strip "$pack"/bin/*
for b in "${bins[@]}"; do LD_LIBRARY_PATH=$fflib ldd "$b"; done | awk '/=> \// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|ld-linux[^/]*|libdl|libpthread|librt|libcuda)\.so' |
  while read -r lib; do cp -L "$lib" "$pack/lib/"; done
strip "$pack"/lib/*.so* 2>/dev/null || true
cp "$streams"/*_ref.* "$streams"/*_dist.* "$pack/streams/"
cp "$here"/device_nvdec.sh "$here"/make_streams.sh "$pack/"
du -sh "$pack" "$pack"/*
