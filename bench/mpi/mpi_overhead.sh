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

# One timed run of a configuration: "one" is exactvq, "mpiN" exactvq-mpi on N ranks;
# writes $work/NAME.json and appends the wall time and the report's fps to NAME's lists.
declare -A walls fpss
run_once() {
  local name=$1 t0 t1
  local cmd=("$build/exactvq")
  [ "$name" = one ] || cmd=(mpirun -n "${name#mpi}" "$build/exactvq-mpi")
  t0=$(now)
  "${cmd[@]}" "${args[@]}" -o "$work/$name.json"
  t1=$(now)
  walls[$name]+=" $(python3 -c "print($t1 - $t0)")"
  fpss[$name]+=" $(fps_of "$work/$name.json")"
}

echo "exactvq MPI overhead: ${w}x${h} 8-bit 4:2:0, $frames frames, --threads 1, median of $runs runs"
echo "(the commands take turns, so a change in the machine's load falls on all of them);"
echo "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before"
echo
names=(one)
for n in "${ranks[@]}"; do names+=("mpi$n"); done
for _ in $(seq "$runs"); do
  for name in "${names[@]}"; do run_once "$name"; done
done
echo "| command | wall s | frames/s (wall) | frames/s (report) | wall vs exactvq | report fps vs exactvq | same bytes |"
echo "|---|---|---|---|---|---|---|"
# shellcheck disable=SC2086
base_wall=$(median ${walls[one]}) base_fps=$(median ${fpss[one]})
python3 -c "print(f'| exactvq | {$base_wall:.3f} | {$frames / $base_wall:.1f} | {$base_fps:.1f} | 1.00x | 1.00x | - |')"
for n in "${ranks[@]}"; do
  # shellcheck disable=SC2086
  wall=$(median ${walls[mpi$n]}) fps=$(median ${fpss[mpi$n]})
  same=$(cmp -s <(strip_fps "$work/one.json") <(strip_fps "$work/mpi$n.json") && echo yes || echo NO)
  python3 -c "print(f'| mpirun -n $n exactvq-mpi | {$wall:.3f} | {$frames / $wall:.1f} | {$fps:.1f} | {$base_wall / $wall:.2f}x | {$fps / $base_fps:.2f}x | $same |')"
done
# The fixed cost of starting the ranks, without any scoring.
for n in "${ranks[@]}"; do
  starts=()
  for _ in $(seq "$runs"); do
    t0=$(now)
    mpirun -n "$n" "$build/exactvq-mpi" --version >/dev/null
    t1=$(now)
    starts+=("$(python3 -c "print($t1 - $t0)")")
  done
  python3 -c "print(f'| mpirun -n $n exactvq-mpi --version (start-up only) | {$(median "${starts[@]}"):.3f} | | | | | |')"
done
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) after"
