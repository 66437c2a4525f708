#!/usr/bin/env bash
# tools/fuzz.sh TARGET SECONDS: builds the libFuzzer target TARGET (fuzz/TARGET.cpp) with
# clang, AddressSanitizer and UndefinedBehaviorSanitizer into ./build-fuzz, and runs it for
# SECONDS on its seed corpus fuzz/corpus/TARGET (read only) plus build-fuzz/corpus/TARGET
# (what it finds). A crash, an oracle failure, a leak or a timeout stops it with a non-zero
# status and the input in build-fuzz/artifacts/; replay one with
#   build-fuzz/fuzz/TARGET build-fuzz/artifacts/TARGET-crash-...
# Targets: y4m_header_fuzz frame_reader_fuzz cli_options_fuzz scoring_fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 2 ]; then
  echo "usage: tools/fuzz.sh TARGET SECONDS" >&2
  exit 2
fi
target=$1 seconds=$2
[ -f "fuzz/$target.cpp" ] || { echo "fuzz.sh: no fuzz target fuzz/$target.cpp" >&2; exit 2; }
cc=${CC:-clang-14} cxx=${CXX:-clang++-14}
build=build-fuzz
if [ ! -f $build/CMakeCache.txt ]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  # GPU backends off: the fuzzers exercise the CPU path, and nvcc has no libFuzzer.
  CC=$cc CXX=$cxx cmake -S . -B $build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DEXACTVQ_FUZZ=ON -DEXACTVQ_BUILD_TESTS=OFF -DEXACTVQ_BUILD_BENCH=OFF \
    -DEXACTVQ_CUDA=OFF -DEXACTVQ_OPENCL=OFF -DCMAKE_CUDA_COMPILER= -Wno-dev >/dev/null
fi
cmake --build $build --parallel "${FUZZ_BUILD_JOBS:-2}" --target "$target"

# Frame readers need room for a few frames; the others take short inputs.
max_len=4096
[ "$target" = frame_reader_fuzz ] && max_len=65536
options=(-max_total_time="$seconds" -max_len=$max_len -timeout=10 -rss_limit_mb=2048
         -malloc_limit_mb=512 -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-")
[ -f "fuzz/$target.dict" ] && options+=(-dict="fuzz/$target.dict")
mkdir -p "$build/corpus/$target" "$build/artifacts" "fuzz/corpus/$target"
exec "$build/fuzz/$target" "${options[@]}" "$build/corpus/$target" "fuzz/corpus/$target"
