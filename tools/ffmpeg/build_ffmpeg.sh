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
#                         (default: fetched once into OUT_DIR/../ffmpeg-source; builds
#                         sharing a tree should agree on FFMPEG_AS_DEBIAN)
#      CCACHE=0           do not compile through ccache even where installed
#      FFMPEG_AS_DEBIAN=1 leave out the fix of vf_libvmaf's high-bit-depth copy (below)
# Needs: a C compiler, make, pkg-config; apt-get with a deb-src line for bookworm
# (added when missing and run as root) unless FFMPEG_SOURCE_DIR is given. nasm is
# used when present, else FFmpeg's assembly is left out (libvmaf's work is not in it).
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,25p' "$0" >&2; exit 2; }
self=$(realpath "$0") pc_dir=$(realpath "$1") out=$(realpath -m "$2") jobs=${3:-2}
[ -f "$pc_dir/libvmaf.pc" ] || { echo "no libvmaf.pc in $pc_dir" >&2; exit 1; }
export PKG_CONFIG_PATH=$pc_dir
version=$(pkg-config --modversion libvmaf)
libdir=$(pkg-config --variable=libdir libvmaf)
libdir=$(realpath "$libdir")
echo "libvmaf $version from $libdir"

# FFmpeg includes <libvmaf.h>, which libvmaf's own libvmaf.pc allows by naming
# include/libvmaf; and it links -lvmaf, which needs libvmaf.so to be a link to the
# library (a copied folder may hold the links as plain files). Where either is
# missing, a libvmaf.pc and links of this build's own stand in for them.
incdir=$(pkg-config --variable=includedir libvmaf)
elf=$(find "$libdir" -maxdepth 1 -name 'libvmaf.so.3.*' | sort | head -1)
[ -n "$elf" ] || elf=$libdir/libvmaf.so.3
readelf -h "$elf" >/dev/null 2>&1 || { echo "no libvmaf.so.3 library in $libdir" >&2; exit 1; }
if ! pkg-config --cflags libvmaf | grep -q -- "-I$incdir/libvmaf" ||
  ! readelf -h "$libdir/libvmaf.so" >/dev/null 2>&1 ||
  ! readelf -h "$libdir/libvmaf.so.3" >/dev/null 2>&1; then
  echo "note: $pc_dir/libvmaf.pc lacks include/libvmaf or $libdir its links; using $out/libvmaf-lib" >&2
  mkdir -p "$out/libvmaf-lib/pkgconfig"
  ln -sfn "$elf" "$out/libvmaf-lib/libvmaf.so.3"
  ln -sfn libvmaf.so.3 "$out/libvmaf-lib/libvmaf.so"
  libdir=$out/libvmaf-lib
  printf '%s\n' "includedir=$incdir" "libdir=$libdir" "" "Name: libvmaf" \
    "Description: libvmaf of $pc_dir" \
    "Version: $version" "Cflags: -I\${includedir} -I\${includedir}/libvmaf" \
    "Libs: -L\${libdir} -lvmaf" >"$libdir/pkgconfig/libvmaf.pc"
  export PKG_CONFIG_PATH=$libdir/pkgconfig
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

# FFmpeg 5.1's vf_libvmaf copies W bytes of each row into the VmafPicture: half a
# row above 8 bits, the rest left as vmaf_picture_alloc gave it, so any libvmaf
# scores garbage there. FFmpeg 6.0 copies W samples; that fix is applied here
# (marked "-vmafcopy" in the version) unless FFMPEG_AS_DEBIAN=1.
filter=$src/libavfilter/vf_libvmaf.c
[ -f "$filter.debian" ] || cp "$filter" "$filter.debian"
extra_version=
if [ "${FFMPEG_AS_DEBIAN:-0}" = 1 ]; then
  cmp -s "$filter.debian" "$filter" || cp "$filter.debian" "$filter"
else
  sed 's/memcpy(dst_data, src_data, sizeof(\*dst_data) \* dst->w\[i\]);/memcpy(dst_data, src_data, dst->w[i] * (bpc > 8 ? 2 : 1));/' \
    "$filter.debian" >"$filter.new"
  grep -q 'dst->w\[i\] \* (bpc > 8 ? 2 : 1)' "$filter.new" ||
    { echo "cannot apply the high-bit-depth copy fix to $filter" >&2; exit 1; }
  if cmp -s "$filter.new" "$filter"; then rm "$filter.new"; else mv "$filter.new" "$filter"; fi
  extra_version=vmafcopy
fi

cc=cc
[ "${CCACHE:-1}" != 0 ] && command -v ccache >/dev/null && cc="ccache cc"
asm=--disable-x86asm
command -v nasm >/dev/null && asm=
mkdir -p "$out" && cd "$out"
# A change of library (or of these options) reconfigures.
stamp="$libdir $version $asm $extra_version $(sha1sum "$self" | cut -c1-12)"
if [ ! -f config.h ] || [ "$(cat configure.stamp 2>/dev/null)" != "$stamp" ]; then
  # shellcheck disable=SC2086  # $asm is empty or one flag
  "$src/configure" --prefix="$out" --cc="$cc" $asm --extra-version="$extra_version" \
    --disable-everything --disable-autodetect --disable-doc --disable-network \
    --disable-ffplay --disable-avdevice --disable-swresample --disable-postproc \
    --enable-libvmaf \
    --enable-protocol=file,pipe \
    --enable-demuxer=yuv4mpegpipe,rawvideo --enable-decoder=rawvideo \
    --enable-muxer=null,rawvideo,yuv4mpegpipe --enable-encoder=rawvideo,wrapped_avframe \
    --enable-filter=libvmaf,scale,scale2ref,format,null,split,setpts,settb,psnr,ssim \
    --extra-ldflags="-Wl,-rpath,$libdir" >configure.log ||
    { tail -20 configure.log >&2; exit 1; }
  echo "$stamp" >configure.stamp
fi
nice make -j"$jobs" ffmpeg ffprobe >make.log 2>&1 || { tail -30 make.log >&2; exit 1; }
mkdir -p bin && cp ffmpeg ffprobe bin/
linked=$(ldd bin/ffmpeg | sed -n 's/.*libvmaf.so.3 => \([^ ]*\).*/\1/p')
[ "$(realpath "$linked")" = "$(realpath "$libdir/libvmaf.so.3")" ] ||
  { echo "bin/ffmpeg loads libvmaf.so.3 from '$linked', not $libdir" >&2; exit 1; }
echo "built $out/bin/ffmpeg (FFmpeg $(./ffmpeg -hide_banner -version | sed -n '1s/ffmpeg version \([^ ]*\).*/\1/p'), libvmaf.so.3 from $libdir)"
