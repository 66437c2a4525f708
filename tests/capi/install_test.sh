#!/usr/bin/env bash
# Installs the C library into a fresh prefix (cmake --install), builds example.c
# against the installed tree with pkg-config and with find_package, and checks that
# both print what the command line prints for the same inputs and features.
# Usage: install_test.sh BUILD_DIR CLI SAMPLES_DIR WORK_DIR [C_FLAGS]
# C_FLAGS are the build's own (a sanitizer build's -fsanitize=...), so that the
# example links the same runtime as the library it loads.
set -euo pipefail
build=$1 cli=$2 samples=$3 work=$4
read -r -a c_flags <<<"${5:-}"
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" --component capi >"$work/install.log"
for f in include/exactvq/exactvq.h include/exactvq/exactvq.hpp; do
  [ -f "$prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done

pc=$(find "$prefix" -name exactvq.pc)
[ -n "$pc" ] || { echo "exactvq.pc not installed" >&2; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
libdir=$(pkg-config --variable=libdir exactvq)
# shellcheck disable=SC2046  # pkg-config's output is a list of flags
cc -std=c99 -Wall -Wextra -Werror "${c_flags[@]}" -o "$work/example_pkgconfig" "$here/example.c" \
  $(pkg-config --cflags --libs exactvq) -Wl,-rpath,"$libdir"

# The C++ wrapper compiles as C++17 against the installed header alone.
# shellcheck disable=SC2046
echo '#include <exactvq/exactvq.hpp>' | c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -x c++ - \
  $(pkg-config --cflags exactvq)

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S "$here/consumer" -B "$work/consumer" "${generator[@]}" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_C_FLAGS="${c_flags[*]}" -DCMAKE_EXE_LINKER_FLAGS="${c_flags[*]}" \
  >"$work/consumer.log"
cmake --build "$work/consumer" >>"$work/consumer.log"

ref=$samples/ref.y4m dist=$samples/dist.y4m
for features in "" "ssim=chroma=true" "ssim=sum=raster:enable_db=true"; do
  # The C API's default is ssim; the command line's, VMAF: name ssim to it.
  cli_args=(--feature ssim) example_args=()
  if [ -n "$features" ]; then cli_args=(--feature "$features"); example_args=("$features"); fi
  expected=$("$cli" -n -r "$ref" -d "$dist" "${cli_args[@]}")  # the features alone, as the example scores them
  for program in "$work/example_pkgconfig" "$work/consumer/example"; do
    got=$("$program" "$ref" "$dist" "${example_args[@]}")
    if [ "$got" != "$expected" ]; then
      printf '%s [%s]:\n%s\nthe command line printed:\n%s\n' "$program" "$features" "$got" "$expected" >&2
      exit 1
    fi
  done
  echo "[$features] ${expected//$'\n'/, }"
done

# A failure reaches the program's caller as a message, not a crash.
if "$work/consumer/example" "$ref" "$dist" "ssim=nosuch=1" 2>"$work/error.txt"; then
  echo "a bad feature option was accepted" >&2
  exit 1
fi
grep -q "unknown option 'nosuch'" "$work/error.txt" || { cat "$work/error.txt" >&2; exit 1; }
echo "installed tree: pkg-config and find_package builds print the command line's scores"
