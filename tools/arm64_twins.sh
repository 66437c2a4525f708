#!/usr/bin/env bash
# The CPU SIMD twins on 64-bit Arm: cross-compiles the kernels and their twin
# tests (tools/arm64/CMakeLists.txt) and runs them under qemu-user with each
# CPU model below, so every Arm target Highway compiled (NEON, SVE, SVE2, ...)
# is forced in turn against the scalar reference, as on x86 (dav1d's checkasm).
# Needs: g++-aarch64-linux-gnu qemu-user and the arm64 libraries
# libhwy-dev:arm64 libgtest-dev:arm64 libfmt-dev:arm64 (tools/install-deps.sh
# --arm64 installs them). Usage: tools/arm64_twins.sh [BUILD_DIR]
# Exits 77 (CTest's skip code for the arm64_simd_twins test) when they are missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-arm64}
if ! command -v aarch64-linux-gnu-g++ >/dev/null || ! command -v qemu-aarch64 >/dev/null ||
    [ ! -d /usr/lib/aarch64-linux-gnu/cmake/hwy ] || [ ! -f /usr/lib/aarch64-linux-gnu/libgtest.a ]; then
  echo "arm64 SIMD twins SKIPPED: no cross toolchain, qemu-user or arm64 Highway/GoogleTest" \
    "(tools/install-deps.sh --arm64 installs them)"
  exit 77
fi
cmake -S "$root/tools/arm64" -B "$build" -G Ninja \
  -DCMAKE_TOOLCHAIN_FILE="$root/tools/arm64/aarch64-toolchain.cmake" >/dev/null
ninja -C "$build" arm64_twin_tests
# qemu's "max" CPU has NEON, SVE and SVE2, so each run forces all of them in
# turn: first with qemu's default 512-bit SVE vectors, then the SVE targets again
# with 256-bit ones, where Highway also has its SVE_256 target (NEON does not
# depend on the SVE length, so it runs once). Full-size timed cases are left out
# under emulation (EXACTVQ_TWIN_UNTIMED; the test prints how many).
export EXACTVQ_TWIN_UNTIMED=1
status=0
for run in "max *" "max,sve256=on *SVE*"; do
  cpu=${run%% *}
  filter=${run#* }
  echo "== qemu-aarch64 -cpu $cpu, tests $filter"
  if ! QEMU_CPU=$cpu QEMU_LD_PREFIX=/usr/aarch64-linux-gnu \
      qemu-aarch64 -L /usr/aarch64-linux-gnu "$build/arm64_twin_tests" --gtest_brief=1 \
      "--gtest_filter=$filter"; then
    status=1
  fi
done
exit $status
