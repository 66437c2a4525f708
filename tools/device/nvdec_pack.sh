#!/usr/bin/env bash
# A pack for one device call of tools/device/nvdec_run.sh: bin/ (exactvq,
# cuda_tests, nvdec_decode_rate; stripped), lib/ (the shared libraries they
# need, FFmpeg's from the small build of build_small_ffmpeg.sh, not Debian's
# with their hundred MB of codecs) and streams/ (bench/nvdec/make_streams.sh
# small and 4k).
# Usage: tools/device/nvdec_pack.sh BUILD FFMPEG_LIB_DIR STREAMS PACK
set -euo pipefail
build=$(realpath "$1") fflib=$(realpath "$2") streams=$(realpath "$3") pack=$4
rm -rf "$pack" && mkdir -p "$pack/bin" "$pack/lib" "$pack/streams"
bins=("$build/exactvq" "$build/tests/backends/cuda/cuda_tests" "$build/bench/nvdec_decode_rate")
cp "${bins[@]}" "$pack/bin/" && strip "$pack"/bin/*
for b in "${bins[@]}"; do LD_LIBRARY_PATH=$fflib ldd "$b"; done | awk '/=> \// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|ld-linux[^/]*|libdl|libpthread|librt|libcuda)\.so' |
  while read -r lib; do cp -L "$lib" "$pack/lib/"; done
strip "$pack"/lib/*.so* 2>/dev/null || true
cp "$streams"/*_ref.* "$streams"/*_dist.* "$pack/streams/"
du -sh "$pack" "$pack"/*
