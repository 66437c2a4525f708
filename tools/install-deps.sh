#!/usr/bin/env bash
# Installs the Debian 12 packages exactvq builds and tests with (as root, or through sudo).
# --arm64: also the cross toolchain, qemu-user and the arm64 libraries that the
# arm64_simd_twins test needs (it adds arm64 as a dpkg foreign architecture).
set -euo pipefail
arm64=0
[ "${1:-}" = "--arm64" ] && arm64=1
packages=(
  cmake ninja-build g++ pkg-config
  ccache                                      # the pip test's build reuses the main build's objects
  libfmt-dev libcli11-dev                     # formatting, command line
  libgtest-dev libgmock-dev                   # tests
  nlohmann-json3-dev libpugixml-dev           # tests parse the JSON and XML outputs back
  libhwy-dev                                  # portable SIMD with run-time dispatch
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo  # OpenCL, run on the CPU by PoCL
  libavformat-dev libavcodec-dev libavutil-dev  # decoding MP4, MKV, WebM, IVF inputs
  pybind11-dev python3-dev python3-numpy      # the Python package (built by CMake for the tests)
  python3-venv libdlpack-dev                  # pip installs into virtual environments; DLPack arrays
  clang libclang-rt-14-dev                    # libFuzzer and the sanitizer build
  time                                        # /usr/bin/time -v for peak memory
  libopenmpi-dev openmpi-bin                  # the MPI front end (exactvq-mpi)
)
arm64_packages=(g++-aarch64-linux-gnu qemu-user libhwy-dev:arm64 libgtest-dev:arm64 libfmt-dev:arm64)
[ "$arm64" = 1 ] && packages+=("${arm64_packages[@]}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
echo "installing: ${missing[*]}" >&2
if [ "$arm64" = 1 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  "${as_root[@]}" dpkg --add-architecture arm64
fi
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
