#!/usr/bin/env bash
# Builds the FFmpeg libraries the wheel carries: FFmpeg 5.1 (Debian bookworm's source package,
# so the sonames are libavutil.so.57, libavcodec.so.59 and libavformat.so.59, the ABI exactvq's
# reader is compiled against), shared, decoders and demuxers only. Debian's own libavcodec pulls
# in about a hundred libraries (encoders, filters, devices); this one needs libc, libm and
# libdav1d (software AV1) alone, so the wheel stays small:
#   decoders  h264 hevc vp8 vp9 av1 (libdav1d, and NVDEC) mpeg1/2/4 mjpeg ffv1 prores rawvideo
#   NVDEC     h264 hevc vp9 av1 mpeg2 (libcuda and libnvcuvid opened at run time, through ffnvcodec)
#   demuxers  mov/mp4 matroska/webm ivf avi mpegts mpegps flv and raw h264/hevc/av1/m4v streams
# No programs, filters, encoders, devices, network or docs.
# Needs: a C compiler, make, pkg-config, nasm (else FFmpeg's assembly is left out: slower
# decoding, same pictures), libdav1d-dev, libffmpeg-nvenc-dev (headers), patchelf.
# Usage: tools/wheel/build_ffmpeg.sh WORKDIR [JOBS]   -> WORKDIR/install/{lib,include}
# Env: FFMPEG_SOURCE_DIR  an unpacked FFmpeg 5.1 tree (default: `apt-get source ffmpeg` in
#                         WORKDIR, which needs a deb-src line for bookworm)
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,16p' "$0" >&2; exit 2; }
work=$(realpath -m "$1") jobs=${2:-2}
mkdir -p "$work" && cd "$work"
# RUNPATH $ORIGIN: each library finds the others beside it (in the wheel, and where auditwheel
# looks for them: otherwise it would take the machine's own libavutil and its dependencies).
set_runpath() {
  for lib in "$work"/install/lib/libav*.so.*.*; do patchelf --set-rpath '$ORIGIN' "$lib"; done
}
if [ -f "$work/install/lib/libavformat.so.59" ]; then
  echo "FFmpeg already built in $work/install"; set_runpath; exit 0
fi
src=${FFMPEG_SOURCE_DIR:-}
if [ -z "$src" ]; then
  ls -d ffmpeg-5.1.* >/dev/null 2>&1 || apt-get source ffmpeg
  src=$(ls -d "$work"/ffmpeg-5.1.* | head -1)
fi
src=$(realpath "$src")
asm=() cc=()
command -v nasm >/dev/null || asm=(--disable-x86asm)
command -v ccache >/dev/null && cc=(--cc="ccache ${CC:-gcc}")
mkdir -p build && cd build
"$src/configure" --prefix="$work/install" \
  --enable-shared --disable-static --disable-programs --disable-doc \
  --disable-avdevice --disable-avfilter --disable-swscale --disable-swresample --disable-postproc \
  --disable-network --disable-autodetect --disable-everything --enable-pic \
  --enable-ffnvcodec --enable-nvdec --enable-libdav1d \
  --enable-decoder=h264,hevc,vp8,vp9,av1,libdav1d,mpeg1video,mpeg2video,mpeg4,mjpeg,ffv1,prores,rawvideo \
  --enable-hwaccel=h264_nvdec,hevc_nvdec,vp9_nvdec,av1_nvdec,mpeg2_nvdec \
  --enable-demuxer=mov,matroska,ivf,avi,mpegts,mpegps,flv,h264,hevc,obu,m4v,rawvideo \
  --enable-parser=h264,hevc,vp8,vp9,av1,mpeg4video,mpegvideo,mjpeg \
  --enable-bsf=vp9_superframe_split,av1_frame_split,h264_mp4toannexb,hevc_mp4toannexb \
  --enable-protocol=file,pipe \
  --extra-cflags="-O2" --extra-ldflags="-Wl,-z,noexecstack" "${asm[@]}" "${cc[@]}" >configure.log
nice make -j"$jobs" >make.log 2>&1
make install >install.log 2>&1
set_runpath
ls -l "$work/install/lib"/*.so.*
