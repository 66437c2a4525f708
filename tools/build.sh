#!/usr/bin/env bash
# Configures and builds into ./build (Release); extra arguments go to the build step.
set -euo pipefail
cd "$(dirname "$0")/.."
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# ccache where installed: the pip test (tests/python) builds the package again with
# the same compiler and options, and finds these objects there.
launcher=()
command -v ccache >/dev/null &&
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
            -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
[ -f build/CMakeCache.txt ] ||
  cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}"
cmake --build build --parallel "$(nproc)" "$@"
