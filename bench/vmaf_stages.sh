#!/usr/bin/env bash
# bench/vmaf_stages.sh BIN [FRAMES [ROUNDS [THREADS...]]]: VMAF v0.6.1's stages a frame on the
# CPU (vmaf_stages) on 1080p 8-bit and 10-bit clips made in /dev/shm (bench/make_vmaf_clip.py,
# frames repeating the first 24), at one thread and at every core (THREADS: default "1 NPROC").
# BIN: the folder holding vmaf_stages (build/bench, or a tools/device/pack_cpu.sh pack, whose
# libraries it loads). Needs python3 with numpy; reports no pass or fail on time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
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
  # shellcheck disable=SC2086  # one argument a thread count
  "$bin/vmaf_stages" "$work/$bits/ref.y4m" "$work/$bits/dist.y4m" "$frames" "$rounds" $threads
  rm -rf "${work:?}/$bits"
done
