#!/bin/sh
# Packs CPU programs of a build for a machine without the build's libraries (the
# device machine has no Debian -dev packages): ssim_throughput and twin_tests (when
# built), the programs MORE names (paths from BUILD, e.g. exactvq), and the shared
# libraries they load that are not glibc's (libhwy, libfmt, libgtest, ...), all in
# OUT; LD_LIBRARY_PATH=OUT runs them there, e.g.
#   LD_LIBRARY_PATH=OUT OUT/twin_tests --gtest_filter='*cpu*'   # every SIMD target there
#   LD_LIBRARY_PATH=OUT OUT/twin_tests --bench --filter=cpu-AVX3
#   bench/ssim_throughput.sh OUT 5 3 1 2 4 8 16
#   tools/device/pack_cpu.sh BUILD OUT [MORE...]
set -eu
build=$1 out=$2
shift 2
mkdir -p "$out"
for b in bench/ssim_throughput tests/twins/twin_tests "$@"; do
  [ -x "$build/$b" ] || { echo "pack_cpu.sh: $build/$b not built, left out" >&2; continue; }
  cp "$build/$b" "$out/"
  ldd "$build/$b" | awk '$3 ~ /^\// {print $3}' |
    grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$out/"; done
done
echo "packed into $out: $(ls "$out" | tr '\n' ' ')"
