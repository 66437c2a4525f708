#!/usr/bin/env bash
# A pack for tools/device/nvdec_run.sh's part fixedcost (a whole run's fixed
# cost with GPU decoding): bin/ (exactvq, nvdec_decode_rate; stripped), lib/
# (the shared libraries they need, FFmpeg's from a small build:
# build_small_ffmpeg.sh or tools/wheel/build_ffmpeg.sh) and streams/: the 4K
# Matroska pairs of bench/nvdec/make_streams.sh mkv4k (4k_*_N_{ref,dist}.mkv,
# N frames; each is one 30-frame segment repeated, so xz, whose window spans
# a segment, packs it in about a tenth: .mkv.xz) and a small Y4M clip (a run
# with no decoding: the CUDA floor), and tools/device/ (nvdec_run.sh,
# fixedcost_table.py: the pack runs from any checkout).
# Usage: tools/device/nvdec_fixedcost_pack.sh BUILD FFMPEG_LIB_DIR STREAMS PACK
#   e.g. build /work/.../ffmpeg/install/lib out/nvdec/streams out/nvdec/pack
# The pack must stay under the device call's 64 MiB carry.
set -euo pipefail
build=$(realpath "$1") fflib=$(realpath "$2") streams=$(realpath "$3") pack=$4
rm -rf "$pack" && mkdir -p "$pack/bin" "$pack/lib" "$pack/streams"
bins=("$build/exactvq" "$build/bench/nvdec_decode_rate")
cp "${bins[@]}" "$pack/bin/" && strip "$pack"/bin/*
for b in "${bins[@]}"; do LD_LIBRARY_PATH=$fflib ldd "$b"; done | awk '/=> \// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|ld-linux[^/]*|libdl|libpthread|librt|libcuda)\.so' |
  while read -r lib; do cp -L "$lib" "$pack/lib/"; done
# exactvq loads FFmpeg with dlopen (ldd does not see it): its three libraries
# and what they need.
for lib in avutil.so.57 avcodec.so.59 avformat.so.59; do cp -L "$fflib/lib$lib" "$pack/lib/"; done
LD_LIBRARY_PATH=$fflib ldd "$fflib/libavcodec.so.59" | awk '/=> \// {print $3}' |
  grep -vE '/(libc|libm|libgcc_s|libstdc\+\+|ld-linux[^/]*|libdl|libpthread|librt)\.so|/libav' |
  while read -r lib; do cp -L "$lib" "$pack/lib/"; done
strip "$pack"/lib/*.so* 2>/dev/null || true
n=0
for f in "$streams"/4k_*_[0-9]*_ref.mkv "$streams"/4k_*_[0-9]*_dist.mkv; do
  xz -T1 -6 -c "$f" >"$pack/streams/$(basename "$f").xz"
  n=$((n + 1))
done
[ $n -gt 0 ] || { echo "no 4k_*_N_{ref,dist}.mkv in $streams (make_streams.sh mkv4k)" >&2; exit 1; }
synth=$streams/synth_y4m
[ -x "$synth" ] || gcc -O2 -o "$synth" "$(dirname "$0")/../../bench/nvdec/synth_y4m.c"
"$synth" 320 180 8 8 420 >"$pack/streams/small_ref.y4m"
"$synth" 320 180 8 8 420 1 >"$pack/streams/small_dist.y4m"
# The scripts too, so that the pack runs from any checkout:
#   bash PACK/tools/device/nvdec_run.sh PACK OUT fixedcost
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$pack/tools/device"
cp "$here/nvdec_run.sh" "$here/fixedcost_table.py" "$pack/tools/device/"
du -sh "$pack" "$pack"/*
total=$(du -sb "$pack" | cut -f1)
[ "$total" -lt $((45 * 1024 * 1024)) ] || echo "warning: the pack is $total bytes, over 45 MiB" >&2
