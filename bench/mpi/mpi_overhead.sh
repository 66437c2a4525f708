#!/usr/bin/env bash
# MPI overhead on one machine: the same Y4M pair scored by `exactvq --threads 1` and by
# `mpirun -n N exactvq-mpi --threads 1`, median of RUNS runs each; wall-clock frames/s
# (the whole command, start-up included) and the fps that the report itself gives
# (rank 0's scoring time, start-up excluded), and each against exactvq. Also checks
# that every report has the same bytes as exactvq's (fps aside).
# Usage: mpi_overhead.sh BUILD_DIR WORK_DIR [WIDTH HEIGHT FRAMES RUNS RANKS...]
#   defaults: 1280 720 120 5, ranks 1 2
set -euo pipefail
build=$(cd "$1" && pwd) work=$2
w=${3:-1280} h=${4:-720} frames=${5:-120} runs=${6:-5}
shift $(( $# < 6 ? $# : 6 ))
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$work"
"$build/bench/mpi/make_bench_pair" "$w" "$h" "$frames" "$work"
ref=$work/ref.y4m dist=$work/dist.y4m
cat "$ref" "$dist" >/dev/null  # into the page cache
args=(-r "$ref" -d "$dist" --threads 1 --json)

now() { date +%s.%N; }
median() { python3 -c "import sys, statistics; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
fps_of() { python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['fps'])" "$1"; }
strip_fps() { grep -v '"fps"' "$1"; }

# time_runs NAME COMMAND...: RUNS runs writing $work/NAME.json; sets wall and fps (medians).
time_runs() {
  local name=$1
  shift
  local walls=() fpss=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(now)
    "$@" -o "$work/$name.json"
    t1=$(now)
    walls+=("$(python3 -c "print($t1 - $t0)")")
    fpss+=("$(fps_of "$work/$name.json")")
  done
  wall=$(median "${walls[@]}")
  fps=$(median "${fpss[@]}")
}

echo "exactvq MPI overhead: ${w}x${h} 8-bit 4:2:0, $frames frames, --threads 1, median of $runs runs;"
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before"
echo
echo "| command | wall s | frames/s (wall) | frames/s (report) | wall vs exactvq | report fps vs exactvq | same bytes |"
echo "|---|---|---|---|---|---|---|"
time_runs one "$build/exactvq" "${args[@]}"
base_wall=$wall base_fps=$fps
python3 -c "print(f'| exactvq | {$wall:.3f} | {$frames / $wall:.1f} | {$fps:.1f} | 1.00x | 1.00x | - |')"
for n in "${ranks[@]}"; do
  time_runs "mpi$n" mpirun -n "$n" "$build/exactvq-mpi" "${args[@]}"
  same=$(cmp -s <(strip_fps "$work/one.json") <(strip_fps "$work/mpi$n.json") && echo yes || echo NO)
  python3 -c "print(f'| mpirun -n $n exactvq-mpi | {$wall:.3f} | {$frames / $wall:.1f} | {$fps:.1f} | {$base_wall / $wall:.2f}x | {$fps / $base_fps:.2f}x | $same |')"
done
# The fixed cost of starting the ranks, without any scoring.
for n in "${ranks[@]}"; do
  walls=()
  for _ in $(seq "$runs"); do
    t0=$(now)
    mpirun -n "$n" "$build/exactvq-mpi" --version >/dev/null
    t1=$(now)
    walls+=("$(python3 -c "print($t1 - $t0)")")
  done
  python3 -c "print(f'| mpirun -n $n exactvq-mpi --version (start-up only) | {$(median "${walls[@]}"):.3f} | | | | | |')"
done
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after"
