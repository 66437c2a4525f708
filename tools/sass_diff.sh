#!/usr/bin/env bash
# Whether a change leaves the CUDA kernels' machine code as it was: builds an
# sm_90 cubin of every .cu under src/ (and bench/cuda/) at git revision REV and in
# the working tree, with the project's nvcc flags, and compares them kernel by
# kernel (tools/sass_diff.py). Identical code runs at identical speed, so a
# refactor that keeps it needs no new timing.
# Usage: tools/sass_diff.sh [REV] (default HEAD). Needs nvcc and python3-pyelftools.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-HEAD}
work=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$work/before" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git -C "$root" worktree add --detach "$work/before" "$rev" >/dev/null
nvcc=${CUDACXX:-/usr/local/cuda/bin/nvcc}
cubins() {  # cubins TREE OUT
  mkdir -p "$2"
  (cd "$1" && find src bench/cuda -name '*.cu' 2>/dev/null) | while read -r cu; do
    "$nvcc" -I"$1/src" -I"$1" -O3 -DNDEBUG -arch=sm_90 -cubin -fmad=false \
      -Xcompiler=-ffp-contract=off,-fno-fast-math -std=c++17 -x cu "$1/$cu" \
      -o "$2/$(basename "$cu" .cu).cubin"
  done
}
cubins "$work/before" "$work/before-cubins"
cubins "$root" "$work/after-cubins"
py=python3; "$py" -c "import elftools" 2>/dev/null || py=/usr/bin/python3
"$py" "$root/tools/sass_diff.py" "$work/before-cubins" "$work/after-cubins"
