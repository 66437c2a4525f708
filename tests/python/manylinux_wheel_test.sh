#!/usr/bin/env bash
# The manylinux wheel end to end: tools/wheel/build_manylinux.sh into WORK (its own CMake build
# folder, tools venv and FFmpeg), then tools/wheel/check_wheel.sh (a fresh venv, the package's own
# tests, ldd of its libraries, the tests again in a bare chroot when root). Needs a CPython 3.12
# (PYTHON, python3.12 on PATH or pyenv's; else skipped, exit 77) and PyPI; FFmpeg's source from
# FFMPEG_SOURCE_DIR or `apt-get source` (a deb-src line), else the wheel is built without FFmpeg.
# Opt-in (a CUDA and FFmpeg build of tens of minutes): skipped unless EXACTVQ_WHEEL_TEST=1.
# Usage: manylinux_wheel_test.sh SRC WORK
set -euo pipefail
if [ "${EXACTVQ_WHEEL_TEST:-0}" != 1 ]; then
  echo "skipped: EXACTVQ_WHEEL_TEST=1 builds and checks the manylinux wheel (long; needs PyPI)"
  exit 77
fi
src=$(realpath "$1") work=$(realpath -m "$2")
mkdir -p "$work"
# (WHEEL_WORK, WHEEL_CMAKE_DIR: a tools venv, FFmpeg and CMake build folder to reuse)
export WHEEL_WORK=${WHEEL_WORK:-$work} WHEEL_CMAKE_DIR=${WHEEL_CMAKE_DIR:-$work/cmake}
if [ -z "${FFMPEG_SOURCE_DIR:-}" ] && ! apt-get source --print-uris ffmpeg >/dev/null 2>&1; then
  echo "no FFmpeg source (FFMPEG_SOURCE_DIR, deb-src): the wheel without FFmpeg input"
  export WHEEL_FFMPEG=0
fi
status=0
"$src/tools/wheel/build_manylinux.sh" "$work/dist" >"$work/wheel_path" || status=$?
[ "$status" = 77 ] && { echo "no CPython 3.12 (set PYTHON): skipped"; exit 77; }
[ "$status" = 0 ] || exit "$status"
wheel=$(tail -1 "$work/wheel_path")
"$src/tools/wheel/check_wheel.sh" "$wheel" "$work/check"
