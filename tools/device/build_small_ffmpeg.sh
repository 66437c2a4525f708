#!/usr/bin/env bash
# Builds a small FFmpeg 5.1 from Debian bookworm's source package, with the same
# sonames as Debian's libavcodec59/libavformat59/libavutil57, so an exactvq built
# here against Debian's -dev packages runs on the device machine (which has no
# Debian libraries) with these in its LD_LIBRARY_PATH. Only what the NVDEC runs
# need: the h264, hevc, vp9 and av1 decoders with their nvdec hwaccels (libcuda and
# libnvcuvid are loaded at run time through ffnvcodec), libdav1d for software AV1,
# the mov/matroska/ivf/raw demuxers, file protocol; no programs, no docs.
# Needs: a deb-src entry for bookworm, libffmpeg-nvenc-dev, libdav1d-dev, nasm.
# Usage: tools/device/build_small_ffmpeg.sh WORKDIR [JOBS]   -> WORKDIR/install/lib
set -euo pipefail
work=$(realpath -m "$1") jobs=${2:-2}
mkdir -p "$work" && cd "$work"
ls -d ffmpeg-5.1.* >/dev/null 2>&1 || apt-get source ffmpeg
src=$(ls -d "$work"/ffmpeg-5.1.* | head -1)
mkdir -p build && cd build
[ -f config.h ] || "$src/configure" --prefix="$work/install" \
  --enable-shared --disable-static --disable-programs --disable-doc \
  --disable-avdevice --disable-avfilter --disable-swscale --disable-swresample --disable-postproc \
  --disable-network --disable-autodetect --disable-everything \
  --enable-ffnvcodec --enable-nvdec --enable-libdav1d \
  --enable-decoder=h264,hevc,vp9,av1,libdav1d \
  --enable-hwaccel=h264_nvdec,hevc_nvdec,vp9_nvdec,av1_nvdec \
  --enable-demuxer=mov,matroska,ivf,h264,hevc,obu \
  --enable-parser=h264,hevc,vp9,av1 --enable-protocol=file \
  --extra-cflags="-O2" >configure.log
nice make -j"$jobs" >make.log 2>&1
make install >install.log 2>&1
ls -l "$work/install/lib"/*.so.*
