#!/usr/bin/env bash
# Installs libvmaf.so.3 (cmake --install --component libvmaf) into a fresh prefix,
# checks its files, SONAME and pkg-config version, builds vmaf_api_score.c against
# the installed headers with pkg-config, and checks that it prints what the build
# tree's program prints for the same pair.
# Usage: install_test.sh BUILD_DIR BUILT_PROGRAM REF DIST WORK_DIR [C_FLAGS]
set -euo pipefail
build=$1 built=$2 ref=$3 dist=$4 work=$5
read -r -a c_flags <<<"${6:-}"
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" --component libvmaf >"$work/install.log"
for h in libvmaf.h model.h picture.h feature.h libvmaf_cuda.h version.h; do
  [ -f "$prefix/include/libvmaf/$h" ] || { echo "not installed: include/libvmaf/$h" >&2; exit 1; }
done
pc=$(find "$prefix" -name libvmaf.pc)
[ -n "$pc" ] || { echo "libvmaf.pc not installed" >&2; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
[ "$(pkg-config --modversion libvmaf)" = 3.2.0 ] || { echo "libvmaf.pc is not 3.2.0" >&2; exit 1; }
libdir=$(pkg-config --variable=libdir libvmaf)
soname=$(readelf -d "$libdir/libvmaf.so.3" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = libvmaf.so.3 ] || { echo "SONAME is '$soname'" >&2; exit 1; }

# FFmpeg (and others) include <libvmaf.h> without the folder, as libvmaf's own
# libvmaf.pc allows by naming include/libvmaf too.
printf '#include <libvmaf.h>\nint main(void) { return vmaf_version() == 0; }\n' >"$work/bare_include.c"
# shellcheck disable=SC2046  # pkg-config's output is a list of flags
cc -std=c99 -Wall -Werror -o "$work/bare_include" "$work/bare_include.c" \
  $(pkg-config --cflags --libs libvmaf) -Wl,-rpath,"$libdir" ||
  { echo "<libvmaf.h> not found through libvmaf.pc's Cflags" >&2; exit 1; }
"$work/bare_include" || { echo "vmaf_version() returned NULL" >&2; exit 1; }

# shellcheck disable=SC2046  # pkg-config's output is a list of flags
cc -std=c99 -Wall -Wextra -Werror "${c_flags[@]}" -o "$work/vmaf_api_score" \
  "$here/vmaf_api_score.c" $(pkg-config --cflags --libs libvmaf) -ldl -Wl,-rpath,"$libdir"
got=$("$work/vmaf_api_score" "$ref" "$dist" 0 0)
expected=$(LD_LIBRARY_PATH=$(dirname "$(readlink -f "$build/src/libvmaf_api/libvmaf.so.3")") \
  "$built" "$ref" "$dist" 0 0)
if [ "$got" != "$expected" ]; then
  printf 'installed:\n%s\nbuild tree:\n%s\n' "$got" "$expected" >&2
  exit 1
fi
echo "installed libvmaf.so.3 (SONAME $soname, libvmaf.pc $(pkg-config --modversion libvmaf)):" \
  "$(grep -c '^frame .* vmaf ' <<<"$got") frames scored as in the build tree"
