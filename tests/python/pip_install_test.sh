#!/usr/bin/env bash
# As a Python user installs exactvq: `pip install SRC` into a fresh virtual environment
# of the machine's default python3, `pip wheel SRC` (the same build folder: nothing is
# compiled twice), and that wheel installed into a fresh virtual environment of Debian's
# /usr/bin/python3 where it is another interpreter of the same Python version; each
# followed by the package's tests from outside the source tree (so that `import exactvq`
# finds the installed package).
# Usage: pip_install_test.sh SRC WORK; EXACTVQ_CLI, EXACTVQ_SAMPLES, EXACTVQ_TEST_TMP set.
# EXACTVQ_PIP_CUDA=ON compiles the CUDA backend into the package too, for the architectures
# EXACTVQ_PIP_CUDA_ARCHITECTURES (comma-separated; default the project's); EXACTVQ_PIP_CC,
# EXACTVQ_PIP_CXX and EXACTVQ_PIP_LAUNCHER (ccache) choose the compilers and their launcher.
# CTest passes the build's own, so that with ccache the package's objects are the build's.
set -euo pipefail
src=$(realpath "$1") work=$2
rm -rf "$work" && mkdir -p "$work"
work=$(realpath "$work")
# The long form: Debian 12's pip (23.0) lacks -C.
config=(--config-settings="cmake.define.EXACTVQ_CUDA=${EXACTVQ_PIP_CUDA:-OFF}"
        --config-settings="build-dir=$work/build")
define() { config+=(--config-settings="cmake.define.$1=$2"); }
[ -n "${EXACTVQ_PIP_CUDA_ARCHITECTURES:-}" ] &&
  define CMAKE_CUDA_ARCHITECTURES "${EXACTVQ_PIP_CUDA_ARCHITECTURES//,/;}"
[ -n "${EXACTVQ_PIP_CC:-}" ] && define CMAKE_C_COMPILER "$EXACTVQ_PIP_CC"
[ -n "${EXACTVQ_PIP_CXX:-}" ] && define CMAKE_CXX_COMPILER "$EXACTVQ_PIP_CXX"
if [ -n "${EXACTVQ_PIP_LAUNCHER:-}" ]; then
  for lang in C CXX CUDA; do define "CMAKE_${lang}_COMPILER_LAUNCHER" "$EXACTVQ_PIP_LAUNCHER"; done
fi
pip=(-m pip --disable-pip-version-check -q)
tests() { (cd "$work" && "$1" -B "$src/tests/python/test_exactvq.py" "${@:2}"); }

py=$(python3 -c 'import sys; print(sys.executable)')
echo "== $py: pip install $src"
"$py" -m venv "$work/venv"
"$work/venv/bin/python" "${pip[@]}" install "$src" "${config[@]}"
tests "$work/venv/bin/python"

echo "== pip wheel $src"
"$work/venv/bin/python" "${pip[@]}" wheel --no-deps -w "$work/wheels" "$src" "${config[@]}"
ls "$work"/wheels/exactvq-*.whl

debian=/usr/bin/python3
same_version='import sys; print(sys.version_info[:2])'
if [ -x "$debian" ] && [ "$(realpath "$debian")" != "$(realpath "$py")" ] &&
   [ "$("$debian" -c "$same_version")" = "$("$py" -c "$same_version")" ]; then
  echo "== $debian: the wheel, installed into a fresh environment"
  "$debian" -m venv "$work/venv-debian"
  "$work/venv-debian/bin/python" "${pip[@]}" install "$work"/wheels/exactvq-*.whl
  tests "$work/venv-debian/bin/python"
else
  echo "== the wheel, installed into a fresh environment of $py"
  "$py" -m venv "$work/venv-wheel"
  "$work/venv-wheel/bin/python" "${pip[@]}" install "$work"/wheels/exactvq-*.whl
  tests "$work/venv-wheel/bin/python" Package Arrays
fi
