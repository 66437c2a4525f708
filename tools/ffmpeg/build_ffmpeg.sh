#!/usr/bin/env bash
# Builds a minimal FFmpeg 5.1 (Debian 12's source package, whose vf_libvmaf.c uses
# libvmaf's model-collection era API) with the libvmaf filter linked against the
# libvmaf.so.3 that a libvmaf.pc describes: exactvq's (an install of the CMake
# component `libvmaf`) or upstream's (for a side-by-side comparison). Only what
# scoring Y4M/raw files needs is enabled: the y4m and rawvideo demuxers and the
# rawvideo decoder, the file and pipe protocols, the null/rawvideo/y4m muxers, the
# filters libvmaf and its callers use (libvmaf, scale, format, null, split, setpts,
# settb, scale2ref, psnr, ssim), and the ffmpeg and ffprobe programs. The binary
# carries an RPATH to the library's directory, so two builds can sit side by side.
#
# Usage: tools/ffmpeg/build_ffmpeg.sh PKGCONFIG_DIR OUT_DIR [JOBS]
#   PKGCONFIG_DIR  directory holding libvmaf.pc
#                  (exactvq: cmake --install build --component libvmaf --prefix P
#                   gives P/lib/pkgconfig, or P/lib/<multiarch>/pkgconfig;
#                   upstream: /work/shared/libvmaf/lib/pkgconfig)
#   OUT_DIR        build folder; the programs end in OUT_DIR/bin/ffmpeg, ffprobe
# Env: FFMPEG_SOURCE_DIR  an unpacked FFmpeg 5.1 tree to use instead of fetching
#                         (default: fetched once into OUT_DIR/../ffmpeg-source)
#      CCACHE=0           do not compile through ccache even where installed
# Needs: a C compiler, make, pkg-config; apt-get with a deb-src line for bookworm
# (added when missing and run as root) unless FFMPEG_SOURCE_DIR is given. nasm is
# used when present, else FFmpeg's assembly is left out (libvmaf's work is not in it).
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,23p' "$0" >&2; exit 2; }
self=$(realpath "$0") pc_dir=$(realpath "$1") out=$(realpath -m "$2") jobs=${3:-2}
[ -f "$pc_dir/libvmaf.pc" ] || { echo "no libvmaf.pc in $pc_dir" >&2; exit 1; }
export PKG_CONFIG_PATH=$pc_dir
version=$(pkg-config --modversion libvmaf)
libdir=$(pkg-config --variable=libdir libvmaf)
libdir=$(realpath "$libdir")
[ -e "$libdir/libvmaf.so.3" ] || { echo "no libvmaf.so.3 in $libdir" >&2; exit 1; }
echo "libvmaf $version from $libdir"
# FFmpeg includes <libvmaf.h>: libvmaf's own libvmaf.pc names include/libvmaf for it.
extra_cflags=
incdir=$(pkg-config --variable=includedir libvmaf)
if ! pkg-config --cflags libvmaf | grep -q -- "-I$incdir/libvmaf"; then
  echo "note: $pc_dir/libvmaf.pc lacks -I\${includedir}/libvmaf; adding it" >&2
  extra_cflags="-I$incdir/libvmaf"
fi

fetch_source() {
  local dest=$1
  if ! grep -rqs '^\(deb-src\|Types:.*deb-src\)' /etc/apt/sources.list /etc/apt/sources.list.d/ ||
    ! apt-cache showsrc ffmpeg 2>/dev/null | grep -q '^Version: 7:5\.1'; then
    [ "$(id -u)" = 0 ] || {
      echo "no deb-src line for bookworm: add one (or set FFMPEG_SOURCE_DIR)" >&2
      exit 1
    }
    cat >/etc/apt/sources.list.d/bookworm-src.sources <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
    apt-get update -qq
  fi
  mkdir -p "$dest.tmp" && (cd "$dest.tmp" && apt-get source -qq --download-only ffmpeg &&
    dpkg-source -x ./ffmpeg_5.1*.dsc tree >/dev/null 2>&1)
  mv "$dest.tmp/tree" "$dest" && rm -rf "$dest.tmp"
}

src=${FFMPEG_SOURCE_DIR:-$(dirname "$out")/ffmpeg-source}
[ -x "$src/configure" ] || fetch_source "$src"
grep -q 'vmaf_model_collection_load_from_path' "$src/libavfilter/vf_libvmaf.c" ||
  { echo "$src is not FFmpeg 5.1 with the model-collection vf_libvmaf" >&2; exit 1; }

cc=cc
[ "${CCACHE:-1}" != 0 ] && command -v ccache >/dev/null && cc="ccache cc"
asm=--disable-x86asm
command -v nasm >/dev/null && asm=
mkdir -p "$out" && cd "$out"
# A change of library (or of these options) reconfigures.
stamp="$libdir $version $asm $(sha1sum "$self" | cut -c1-12)"
if [ ! -f config.h ] || [ "$(cat configure.stamp 2>/dev/null)" != "$stamp" ]; then
  # shellcheck disable=SC2086  # $asm is empty or one flag
  "$src/configure" --prefix="$out" --cc="$cc" $asm \
    --disable-everything --disable-autodetect --disable-doc --disable-network \
    --disable-ffplay --disable-avdevice --disable-swresample --disable-postproc \
    --enable-libvmaf \
    --enable-protocol=file,pipe \
    --enable-demuxer=yuv4mpegpipe,rawvideo --enable-decoder=rawvideo \
    --enable-muxer=null,rawvideo,yuv4mpegpipe --enable-encoder=rawvideo,wrapped_avframe \
    --enable-filter=libvmaf,scale,scale2ref,format,null,split,setpts,settb,psnr,ssim \
    --extra-cflags="$extra_cflags" --extra-ldflags="-Wl,-rpath,$libdir" >configure.log ||
    { tail -20 configure.log >&2; exit 1; }
  echo "$stamp" >configure.stamp
fi
nice make -j"$jobs" ffmpeg ffprobe >make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
mkdir -p bin && cp ffmpeg ffprobe bin/
linked=$(ldd bin/ffmpeg | sed -n 's/.*libvmaf.so.3 => \([^ ]*\).*/\1/p')
[ "$(realpath "$linked")" = "$(realpath "$libdir/libvmaf.so.3")" ] ||
  { echo "bin/ffmpeg loads libvmaf.so.3 from '$linked', not $libdir" >&2; exit 1; }
echo "built $out/bin/ffmpeg (FFmpeg $(./ffmpeg -hide_banner -version | sed -n '1s/ffmpeg version \([^ ]*\).*/\1/p'), libvmaf.so.3 from $libdir)"
