#!/usr/bin/env bash
# bench/vmaf_stages.sh BIN [FRAMES [ROUNDS [THREADS...]]]: VMAF v0.6.1's stages a frame on the
# CPU (vmaf_stages) on 1080p 8-bit and 10-bit clips made in /dev/shm (bench/make_vmaf_clip.py,
# frames repeating the first 24), at one thread and at every core (THREADS: default "1 NPROC").
# BIN: the folder holding vmaf_stages (build/bench, or a tools/device/pack_cpu.sh pack, whose
# libraries it loads). Needs python3 with numpy; reports no pass or fail on time.
#   bench/vmaf_stages.sh --bounds MCPU GHZ BIN: instead, each SIMD stage's throughput bound a frame
# (bench/loop_bounds.py: llvm-mca -mcpu=MCPU over the instructions callgrind counts in a run of
# 2 frames, 2 rounds, one thread, on the target this CPU runs), in ms at GHZ; needs valgrind and
# llvm-mca.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bounds=
if [ "${1:-}" = "--bounds" ]; then
  bounds=1 mcpu=$2 ghz=$3
  shift 3
fi
bin=$(realpath "$1")
frames=${2:-12} rounds=${3:-10}
shift $(($# < 3 ? $# : 3))
threads=${*:-1 $(nproc)}
most=1
for t in $threads; do [ "$t" -gt "$most" ] && most=$t; done
py=python3
"$py" -c "import numpy" 2>/dev/null || py=/usr/bin/python3  # make_vmaf_clip.py needs numpy
export LD_LIBRARY_PATH=$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
work=$(mktemp -d "${TMPDIR:-/dev/shm}/vmaf_stages.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "== $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for bits in 8 10; do
  mkdir -p "$work/$bits"
  "$py" "$here/make_vmaf_clip.py" "$work/$bits" 1920 1080 $((frames + most - 1)) 24 "$bits"
  if [ -n "$bounds" ]; then
    echo "== $bits-bit: bounds on llvm-mca -mcpu=$mcpu at $ghz GHz"
    valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$work/cg.out" \
      "$bin/vmaf_stages" "$work/$bits/ref.y4m" "$work/$bits/dist.y4m" 2 2 1 > /dev/null 2>&1
    python3 "$here/loop_bounds.py" "$bin/vmaf_stages" "$work/cg.out" "$mcpu" "$ghz" |
      sed -n '/^| stage/,$p'
  else
    # shellcheck disable=SC2086  # one argument a thread count
    "$bin/vmaf_stages" "$work/$bits/ref.y4m" "$work/$bits/dist.y4m" "$frames" "$rounds" $threads
  fi
  rm -rf "${work:?}/$bits"
done
