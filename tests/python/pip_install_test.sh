#!/usr/bin/env bash
# As a Python user installs exactvq: `pip install SRC` into fresh virtual environments
# of the machine's default python3 and of Debian's /usr/bin/python3, `pip wheel SRC`
# and an install of that wheel, each followed by the package's tests from outside the
# source tree (so that `import exactvq` finds the installed package).
# Usage: pip_install_test.sh SRC WORK; EXACTVQ_CLI, EXACTVQ_SAMPLES, EXACTVQ_TEST_TMP set.
# EXACTVQ_PIP_CUDA=ON compiles the CUDA backend into the package too (minutes more).
set -euo pipefail
src=$(realpath "$1") work=$2
rm -rf "$work" && mkdir -p "$work"
work=$(realpath "$work")
config=(-C "cmake.define.EXACTVQ_CUDA=${EXACTVQ_PIP_CUDA:-OFF}")
interpreters=()
for py in python3 /usr/bin/python3; do
  exe=$(command -v "$py" 2>/dev/null) || continue
  real=$("$exe" -c 'import sys; print(sys.executable)')
  for seen in "${interpreters[@]:-}"; do [ "$seen" = "$real" ] && continue 2; done
  interpreters+=("$real")
done
n=0
for py in "${interpreters[@]}"; do
  n=$((n + 1))
  venv="$work/venv$n"
  echo "== $py: pip install $src"
  "$py" -m venv "$venv"
  # One build folder per interpreter: the second builds its own module.
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "$src" "${config[@]}" \
    -C "build-dir=$work/build$n"
  (cd "$work" && "$venv/bin/python" -B "$src/tests/python/test_exactvq.py")
done
echo "== pip wheel $src, installed into a fresh environment"
"$work/venv1/bin/python" -m pip wheel -q --disable-pip-version-check --no-deps -w "$work/wheels" "$src" \
  "${config[@]}" -C "build-dir=$work/build1"
"${interpreters[0]}" -m venv "$work/venv-wheel"
"$work/venv-wheel/bin/python" -m pip install -q --disable-pip-version-check "$work"/wheels/exactvq-*.whl
(cd "$work" && "$work/venv-wheel/bin/python" -B -c 'import exactvq, sys; print("wheel:", exactvq.__version__, exactvq.__file__)'
 "$work/venv-wheel/bin/python" -B "$src/tests/python/test_exactvq.py" Package Arrays)
