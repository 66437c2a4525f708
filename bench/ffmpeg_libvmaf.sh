#!/usr/bin/env bash
# FFmpeg's libvmaf filter on upstream's libvmaf.so.3 against the same ffmpeg on exactvq's:
# whole `ffmpeg -i DIST -i REF -lavfi libvmaf=log_path=..:log_fmt=json:n_threads=N -f null -`
# runs on one Y4M pair, RUNS rounds (the variants interleaved, the order turned each round),
# the median wall time of each, frames/s and exactvq's ratio to upstream; then every JSON
# value of each exactvq variant against upstream's (and the variants against each other).
#
# Usage: bench/ffmpeg_libvmaf.sh [VARIANT...]     (default: upstream cpu)
#   upstream   upstream's library (its own AVX2/AVX-512 dispatch)
#   cpu        exactvq's library on the CPU
#   cuda       exactvq's library with EXACTVQ_LIBVMAF_BACKEND=cuda (docs/libvmaf_api.md)
#   opencl     exactvq's library with EXACTVQ_LIBVMAF_BACKEND=opencl
# Environment:
#   FFMPEG        an ffmpeg linked to libvmaf.so.3 through RUNPATH (not RPATH: LD_LIBRARY_PATH
#                 must pick the library; checked with ldd); default: ffmpeg on PATH
#   UPSTREAM_LIB  folder of upstream's libvmaf.so.3 (default ../shared/libvmaf/lib)
#   EXACTVQ_LIB   folder of exactvq's libvmaf.so.3 (default build/src/libvmaf_api)
#   CLIP_DIR      folder with ref.y4m and dist.y4m; made there by bench/make_vmaf_clip.py
#                 (W x H, FRAMES frames cycling CYCLE: 1920 1080 240 24) when absent
#   THREADS       n_threads values (default "1 2"); RUNS rounds (default 3)
#   OUT           logs, JSON files and results.tsv (default /tmp/ffmpeg_libvmaf_bench)
#   EXTRA_LIBVMAF more filter options, e.g. ":feature=name=psnr"
# Exit status 1 when a value differs (timings never fail it).
#
# Upstream's library prints JSON values with "%.6f" (and "%.16f" below 1e-6 or so; it does not
# read VMAF_JSON_FULL_PRECISION, which only shared/libvmaf's vmaf tool honours). exactvq's
# library prints shortest round-trip values with VMAF_JSON_FULL_PRECISION=1, which every run
# gets: each exactvq value is compared at the decimals upstream printed, and the exactvq
# variants with one another bit for bit.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(upstream cpu)
ffmpeg=${FFMPEG:-$(command -v ffmpeg)}
up_lib=$(realpath "${UPSTREAM_LIB:-$root/../shared/libvmaf/lib}")
evq_lib=$(realpath "${EXACTVQ_LIB:-$root/build/src/libvmaf_api}")
clips=${CLIP_DIR:-/tmp/ffmpeg_libvmaf_clip}
out=${OUT:-/tmp/ffmpeg_libvmaf_bench}
runs=${RUNS:-3}
read -r -a threads <<<"${THREADS:-1 2}"
W=${W:-1920} H=${H:-1080} FRAMES=${FRAMES:-240} CYCLE=${CYCLE:-24}
mkdir -p "$out"
[ -x "$ffmpeg" ] || { echo "ffmpeg_libvmaf.sh: no ffmpeg (set FFMPEG)" >&2; exit 2; }

# Each library behind a folder of its own holding a libvmaf.so.3 link to its file (the
# shared copy stores its links as plain files naming their targets).
for which in upstream exactvq; do
  src=$up_lib
  [ $which = exactvq ] && src=$evq_lib
  file=$src/libvmaf.so.3.2.0
  [ -f "$file" ] || file=$src/libvmaf.so.3
  mkdir -p "$out/lib-$which"
  ln -sfn "$(realpath "$file")" "$out/lib-$which/libvmaf.so.3"
done
lib_of() { [ "$1" = upstream ] && echo "$out/lib-upstream" || echo "$out/lib-exactvq"; }
backend_of() { case $1 in cuda | opencl) echo "$1" ;; *) echo "" ;; esac; }
for v in "${variants[@]}"; do
  case $v in upstream | cpu | cuda | opencl) ;; *)
    echo "ffmpeg_libvmaf.sh: unknown variant '$v' (upstream, cpu, cuda, opencl)" >&2
    exit 2
    ;;
  esac
  dir=$(lib_of "$v")
  got=$(LD_LIBRARY_PATH=$dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ldd "$ffmpeg" | awk '/libvmaf.so.3/ {print $3}')
  if [ -z "$got" ] || [ "$(realpath "$got")" != "$(realpath "$dir/libvmaf.so.3")" ]; then
    echo "ffmpeg_libvmaf.sh: $v: $ffmpeg loads '$got', not $dir/libvmaf.so.3 (an RPATH?)" >&2
    exit 2
  fi
done

if [ ! -s "$clips/ref.y4m" ] || [ ! -s "$clips/dist.y4m" ]; then
  py=python3
  "$py" -c "import numpy" 2>/dev/null || py=/usr/bin/python3
  mkdir -p "$clips"
  "$py" "$root/bench/make_vmaf_clip.py" "$clips" "$W" "$H" "$FRAMES" "$CYCLE" || exit 2
fi
# Frames of the Y4M pair: its size over a frame's (no frame parameters, as make_vmaf_clip.py).
frames=$(python3 - "$clips/ref.y4m" <<'PY'
import os, re, sys
with open(sys.argv[1], "rb") as f:
    header = f.readline()
tags = dict((t[:1], t[1:]) for t in header.decode().split()[1:])
w, h = int(tags["W"]), int(tags["H"])
c = tags.get("C", "420")
bits = int(re.search(r"p(\d+)", c).group(1)) if re.search(r"p(\d+)", c) else 8
cw, ch = ((w + 1) // 2, (h + 1) // 2) if c.startswith("420") else \
    ((w + 1) // 2, h) if c.startswith("422") else (0, 0) if c.startswith("mono") else (w, h)
frame = (w * h + 2 * cw * ch) * (2 if bits > 8 else 1)
print((os.path.getsize(sys.argv[1]) - len(header)) // (6 + frame))
PY
)

echo "ffmpeg: $ffmpeg ($("$ffmpeg" -version | head -1))"
echo "clip: $clips ($(head -c 80 "$clips/ref.y4m" | head -1), $frames frames)"
echo "upstream: $up_lib; exactvq: $evq_lib"
lscpu | grep -E "Model name" | head -1
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
[ -n "${EXTRA_LIBVMAF:-}" ] && echo "filter options added: $EXTRA_LIBVMAF"

# One run: prints wall seconds; the JSON to $out/$v-t$t.json, the log beside it.
run_one() {
  local v=$1 t=$2 round=$3 json=$out/$1-t$2.json log=$out/$1-t$2-r$3.log
  local backend
  backend=$(backend_of "$v")
  local start end
  start=$(date +%s.%N)
  env LD_LIBRARY_PATH="$(lib_of "$v")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" VMAF_JSON_FULL_PRECISION=1 \
    ${backend:+EXACTVQ_LIBVMAF_BACKEND=$backend} \
    "$ffmpeg" -nostdin -hide_banner -benchmark -i "$clips/dist.y4m" -i "$clips/ref.y4m" \
    -lavfi "libvmaf=log_path=$json:log_fmt=json:n_threads=$t${EXTRA_LIBVMAF:-}" -f null - \
    >"$log" 2>&1
  local rc=$?
  end=$(date +%s.%N)
  if [ $rc -ne 0 ]; then
    echo "ffmpeg_libvmaf.sh: $v n_threads=$t failed (exit $rc): $log" >&2
    tail -5 "$log" >&2
    return 1
  fi
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
}

results=$out/results.tsv
printf 'variant\tn_threads\tround\twall_s\tutime_s\n' >"$results"
failed=0
for ((r = 0; r < runs; r++)); do
  for t in "${threads[@]}"; do
    n=${#variants[@]}
    for ((k = 0; k < n; k++)); do
      v=${variants[$(((k + r) % n))]}
      s=$(run_one "$v" "$t" "$r") || { failed=1; continue; }
      ut=$(grep -o 'utime=[0-9.]*' "$out/$v-t$t-r$r.log" | tail -1 | cut -d= -f2)
      printf '%s\t%s\t%s\t%s\t%s\n' "$v" "$t" "$r" "$s" "${ut:-}" >>"$results"
      printf '  round %d n_threads %s %-8s %6.2f s\n' "$r" "$t" "$v" "$s"
    done
  done
done

python3 - "$results" "$out" "$frames" "${variants[*]}" "${threads[*]}" <<'PY' || failed=1
import json, os, statistics, sys
results, out, frames = sys.argv[1], sys.argv[2], int(sys.argv[3])
variants, threads = sys.argv[4].split(), sys.argv[5].split()
rows = [l.rstrip("\n").split("\t") for l in open(results)][1:]
wall, cpu = {}, {}
for v, t, _, s, ut in rows:
    wall.setdefault((v, t), []).append(float(s))
    if ut:
        cpu.setdefault((v, t), []).append(float(ut))
print(f"\nmedian of {max(len(x) for x in wall.values()) if wall else 0} runs, {frames} frames, "
      "whole ffmpeg runs (start-up, reading and writing included)")
print("(CPU s: ffmpeg -benchmark's utime, every thread's user time; frames per CPU second is "
      "steadier than wall time on a loaded machine)")
print(f"{'variant':10} {'n_threads':>9} {'wall s':>8} {'frames/s':>9} {'vs upstream':>12} "
      f"{'CPU s':>8} {'frames/CPU s':>13} {'vs upstream':>12}")
for t in threads:
    base = statistics.median(wall[("upstream", t)]) if ("upstream", t) in wall else None
    base_cpu = statistics.median(cpu[("upstream", t)]) if ("upstream", t) in cpu else None
    for v in variants:
        if (v, t) not in wall:
            continue
        m = statistics.median(wall[(v, t)])
        ratio = f"{base / m:.2f}x" if base and v != "upstream" else ""
        c = statistics.median(cpu[(v, t)]) if (v, t) in cpu else None
        cpu_cols = f"{c:8.2f} {frames / c:13.1f}" if c else f"{'':8} {'':13}"
        cpu_ratio = f"{base_cpu / c:.2f}x" if c and base_cpu and v != "upstream" else ""
        print(f"{v:10} {t:>9} {m:8.2f} {frames / m:9.1f} {ratio:>12} {cpu_cols} {cpu_ratio:>12}")

def values(path):
    # Values as printed (strings), by (frame, metric) and (pooled metric, statistic).
    with open(path) as f:
        j = json.load(f, parse_float=str, parse_int=str)
    v = {}
    for fr in j.get("frames", []):
        for k, x in fr["metrics"].items():
            v[("frame", fr["frameNum"], k)] = x
    for k, stats in j.get("pooled_metrics", {}).items():
        for s, x in stats.items():
            v[("pooled", k, s)] = x
    return v

def decimals(text):
    return len(text.split(".")[1]) if "." in text and "e" not in text.lower() else None

bad = 0
for t in threads:
    up = os.path.join(out, f"upstream-t{t}.json")
    ref = values(up) if os.path.exists(up) else None
    first = None
    for v in variants:
        if v == "upstream":
            continue
        path = os.path.join(out, f"{v}-t{t}.json")
        if not os.path.exists(path):
            continue
        mine = values(path)
        if ref is not None:
            same = diff = 0
            missing = sorted(set(ref) ^ set(mine), key=str)
            for key, u in ref.items():
                if key not in mine:
                    continue
                d = decimals(u)
                e = mine[key]
                shown = f"{float(e):.{d}f}" if d is not None and e not in ("null",) else e
                if shown == u:
                    same += 1
                else:
                    diff += 1
                    if diff <= 5:
                        print(f"  DIFF n_threads={t} {v} {key}: upstream {u}, exactvq {e}")
            print(f"n_threads={t} {v}: {same} values equal upstream's at its printed precision, "
                  f"{diff} differ, {len(missing)} keys in one file only")
            if missing[:5]:
                print("  keys in one file only:", missing[:5])
            bad += diff + len(missing)
        if first is None:
            first = (v, mine)
        else:
            same = sum(1 for k in mine if first[1].get(k) == mine[k])
            other = len(set(mine) | set(first[1])) - same
            print(f"n_threads={t} {v}: {same} values bit for bit equal to {first[0]}'s, {other} not")
            bad += other
sys.exit(1 if bad else 0)
PY
rc=$?
echo "results: $results"
[ $failed -eq 0 ] && [ $rc -eq 0 ]
