#!/usr/bin/env bash
# tools/sanitize.sh [CTEST_ARGS...]: builds the test suite with AddressSanitizer and
# UndefinedBehaviorSanitizer (-fno-sanitize-recover: the first report fails the test)
# into ./build-asan and runs it with ctest; extra arguments go to ctest (e.g. -R to
# choose a subset). CUDA is off: nvcc code is not instrumented, and CI has no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-asan
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
# GCC's -Wmaybe-uninitialized misfires inside libstdc++ (std::regex) under ASan.
quiet="-Wno-maybe-uninitialized"
if [ ! -f $build/CMakeCache.txt ]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  # -O1 -g1 (line tables): reports keep file and line, and the build takes less
  # than half the CPU time of -O2 -g. The tests' own code at -Og: half -O1's
  # compile time under the sanitizers, and the library under test keeps -O1.
  cmake -S . -B $build "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
    -DCMAKE_CXX_FLAGS="$sanitize $quiet" -DCMAKE_C_FLAGS="$sanitize $quiet" \
    -DCMAKE_EXE_LINKER_FLAGS="$sanitize" -DCMAKE_SHARED_LINKER_FLAGS="$sanitize" \
    -DEXACTVQ_TEST_OPTIMIZE=-Og -DEXACTVQ_CUDA=OFF -DCMAKE_CUDA_COMPILER= -DEXACTVQ_BUILD_BENCH=OFF -DEXACTVQ_PYTHON=OFF -Wno-dev
fi
cmake --build $build --parallel "$(nproc)"
# intercept_tls_get_addr=0: LeakSanitizer's tracer otherwise follows a stale dynamic TLS block that
# PoCL's dlopen'd libraries leave behind and crashes at exit ("Tracer caught signal 11"), after the test passed.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:intercept_tls_get_addr=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tools/sanitize_suppressions.txt:print_suppressions=0}
# The twin rows' full-size timed cases run in the plain build; under ASan they cost
# minutes and reach no code the smaller cases miss.
export EXACTVQ_TWIN_UNTIMED=${EXACTVQ_TWIN_UNTIMED:-1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
start=$(date +%s)
status=0
ctest --test-dir $build --parallel "$(nproc)" --output-on-failure "$@" || status=$?
echo "sanitize.sh: tests under ASan+UBSan took $(($(date +%s) - start)) s"
exit $status
