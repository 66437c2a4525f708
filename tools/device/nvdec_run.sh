#!/usr/bin/env bash
# One device call over a pack of tools/device/nvdec_pack.sh: the GPU decoding tests,
# NVDEC-decoded scores against CPU-decoded ones (bit for bit, every small
# stream, ssim+psnr and the default VMAF), the 4K pairs' rates (NVDEC alone,
# CPU decoding alone, exactvq end to end with --hwdec cuda and none), and
# compute-sanitizer memcheck on a short run. Logs to OUT/logs.tgz.
# Part fixedcost (not in the default; a pack of nvdec_fixedcost_pack.sh): where
# a short 4K MKV pair's whole run goes, H.264 8-bit and HEVC 10-bit, 3 runs of
# each (`--verbose` time lines): --backend cuda with --hwdec cuda and none,
# VMAF and ssim alone, the whole clip and one frame, NVDEC and CPU decoding
# alone, the small Y4M pair (no decoding: the CUDA floor), and single runs of
# variants (1 to 4 decoder sessions a file, the 4-session and CPU-decoded
# scores compared with the default's, CUDA_MODULE_LOADING=EAGER, no stream
# probing: EXACTVQ_STREAM_INFO=0, its scores compared, another process
# holding a CUDA context; one session on the 600-frame pairs); a table at the
# end (fixedcost_table.py), also in OUT/fixedcost.md. About 2.5 minutes on an
# H100.
# Usage (device tool, repo root): bash tools/device/nvdec_run.sh PACK OUT [PARTS]
# PARTS: comma-separated among tests,equal,speed,memcheck,fixedcost (default
# all but fixedcost).
# JOIN=n: the 4K files of 30 * n frames (default 20: 600).
# FC_FRAMES: the fixedcost clips' frames (default 240); FC_LONG=0 leaves out
# its single runs of the 600-frame clips; FC_BUDGET: seconds after which it
# skips what is left (default 200; a run stops after 45).
set -uo pipefail
P=$(realpath "$1") OUT=$2 parts=${3:-tests,equal,speed,memcheck}
root=$(cd "$(dirname "$0")/../.." && pwd)
has() { [[ ",$parts," == *",$1,"* ]]; }
L=$OUT/logs; mkdir -p "$L"
export LD_LIBRARY_PATH=$P/lib
E=$P/bin/exactvq S=$P/streams
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
nvidia-smi -q | grep -iE "^ *(Decoder|Encoder)" | head -4
lscpu | grep -E "Model name|^CPU\(s\)" | head -2
T0=$(date +%s); el() { echo "[t=$(( $(date +%s) - T0 ))s]"; }
now() { date +%s.%N; }
# The JSON without the fps line: what must be identical.
scores() { grep -v '"fps"' "$1"; }

if has tests; then
  echo "== cuda tests $(el)"
  EXACTVQ_NVDEC_STREAMS=$S timeout 200 "$P/bin/cuda_tests" --gtest_filter='DecodedFrameImport*:NvdecStreams*' \
    >"$L/cuda_tests.log" 2>&1; echo "cuda_tests exit $?"
  grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |^\[ nvdec \]" "$L/cuda_tests.log" | head -40
  grep -B2 -A10 "Failure" "$L/cuda_tests.log" | head -40
fi

if has equal; then
  echo "== scores from NVDEC-decoded against CPU-decoded frames $(el)"
  echo "| stream | features | decoded by | --hwdec auto = none (CUDA) | GPU-decoded on the CPU backend = CUDA |"
  echo "|---|---|---|---|---|"
  for ref in "$S"/*_ref.*; do
    case $ref in *4k_*) continue ;; esac
    base=$(basename "$ref"); c=${base%_ref.*}; dist=$(ls "$S/${c}_dist."*)
    for fs in "ssim+psnr" "vmaf"; do
      if [ "$fs" = vmaf ]; then f=(); else f=(--feature ssim --feature psnr); fi
      o=$L/eq_${c}_$fs
      timeout 60 "$E" -r "$ref" -d "$dist" "${f[@]}" --backend cuda --hwdec auto --verbose --json --precision max -q -o "$o.hw.json" 2>"$o.hw.err"; a=$?
      by=GPU; grep -q "decoded on the CPU" "$o.hw.err" && by="CPU: $(grep -o 'decoded on the CPU: .*' "$o.hw.err" | head -1 | cut -c21-140)"
      timeout 60 "$E" -r "$ref" -d "$dist" "${f[@]}" --backend cuda --hwdec none --json --precision max -q -o "$o.sw.json" 2>"$o.sw.err"; b=$?
      r1="exit $a/$b DIFFER"; [ $a = 0 ] && [ $b = 0 ] && cmp -s <(scores "$o.hw.json") <(scores "$o.sw.json") && r1="identical"
      r2="-"
      if [ "$fs" != vmaf ]; then
        timeout 60 "$E" -r "$ref" -d "$dist" "${f[@]}" --backend cpu --hwdec auto --json --precision max -q -o "$o.cpu.json" 2>"$o.cpu.err"; d=$?
        r2="exit $d DIFFER"; [ $d = 0 ] && cmp -s <(scores "$o.cpu.json") <(scores "$o.sw.json") && r2="identical"
      fi
      echo "| $c | $fs | $by | $r1 | $r2 |"
      [ "$r1" = identical ] || head -3 "$o.hw.err" "$o.sw.err"
    done
  done
  "$E" -r "$S/h264_8_ref.mkv" -d "$S/h264_8_dist.mkv" --backend cuda --verbose --frame_cnt 2 -q 2>&1 | head -4
  echo "-- a GPU that is not there: auto falls back, cuda refuses"
  "$E" -r "$S/h264_8_ref.mkv" -d "$S/h264_8_dist.mkv" --hwdec auto --gpu 7 --verbose --frame_cnt 2 -q 2>&1 | head -3
  "$E" -r "$S/h264_8_ref.mkv" -d "$S/h264_8_dist.mkv" --hwdec cuda --gpu 7 --frame_cnt 2 -q; echo "exit $?"
fi

if has speed; then
  echo "== 4K pairs, $((30 * ${JOIN:-20})) frames each $(el)"
  W=/dev/shm/nvdec4k; mkdir -p "$W"; cp "$S"/4k_*.seg.* "$W/"
  (cd "$W" && JOIN=${JOIN:-20} bash "$root/bench/nvdec/make_streams.sh" "$W" join4k >/dev/null)
  ls -l "$W" | grep -v seg
  for c in 4k_h264_8 4k_h264noise_8 4k_hevc_10; do
    r=$(ls "$W/${c}_ref."* | grep -v seg); d=$(ls "$W/${c}_dist."* | grep -v seg)
    cat "$r" "$d" >/dev/null
    echo "-- $c"
    # sessions a file, GPU:CPU (EXACTVQ_HWDEC_SESSIONS:EXACTVQ_HWDEC_CPU_SESSIONS); "default" sets neither
    for v in 1:0 3:0 4:0 3:1 4:1 4:2 default; do
      (if [ $v != default ]; then export EXACTVQ_HWDEC_SESSIONS=${v%:*} EXACTVQ_HWDEC_CPU_SESSIONS=${v#*:}; fi
       timeout 60 "$P/bin/nvdec_decode_rate" "$r" "$d" cuda skip | sed "s/^/sessions=$v skip: /;s|$W/||g")
    done
    timeout 60 "$P/bin/nvdec_decode_rate" "$r" "$d" cuda read | sed "s/^/sessions=default read: /;s|$W/||g"
    timeout 120 "$P/bin/nvdec_decode_rate" "$r" "$d" none skip | sed "s/^/cpu skip: /;s|$W/||g"
    for fs in "ssim+psnr" "vmaf"; do
      if [ "$fs" = vmaf ]; then f=(); else f=(--feature ssim --feature psnr); fi
      for hw in cuda:default cuda:gpu cuda:1:0 none:default; do
        v=${hw#*:} hw=${hw%%:*}
        [ "$fs" = vmaf ] && [ "$v" = 1:0 ] && continue
        o=$L/${c}_${fs}_${hw}_${v//:/-}
        t0=$(now)
        (case $v in
           gpu) export EXACTVQ_HWDEC_CPU_SESSIONS=0 ;;
           *:*) export EXACTVQ_HWDEC_SESSIONS=${v%:*} EXACTVQ_HWDEC_CPU_SESSIONS=${v#*:} ;;
         esac
         timeout 200 "$E" -r "$r" -d "$d" "${f[@]}" --backend cuda --hwdec $hw --json \
          --precision max -q -o "$o.json" 2>"$o.err"); rc=$?
        t1=$(now)
        n=$(grep -c '"frameNum"' "$o.json" 2>/dev/null)
        echo "exactvq $fs --hwdec $hw sessions $v: exit $rc, $n frames, wall $(python3 -c "print(f'{$t1 - $t0:.2f}')") s," \
          "$(python3 -c "print(f'{$n / ($t1 - $t0):.1f}')") pairs/s wall, json fps $(grep -o '"fps": [0-9.]*' "$o.json")"
        head -2 "$o.err"
      done
      for o in "$L/${c}_${fs}"_cuda_*.json; do
        if cmp -s <(scores "$o") <(scores "$L/${c}_${fs}_none_default.json"); then echo "$c $fs: $(basename "$o") = none, identical"
        else echo "$c $fs: $(basename "$o") and none DIFFER"; fi
      done
    done
  done
  rm -rf "$W"
fi

if has memcheck; then
  echo "== memcheck, racecheck $(el)"
  EXACTVQ_FULL_TEARDOWN=1 timeout 150 compute-sanitizer --tool memcheck --leak-check full "$E" -r "$S/hevc_10_ref.hevc" -d "$S/hevc_10_dist.hevc" \
    --backend cuda --hwdec cuda --feature ssim --feature psnr --frame_cnt 6 -q >"$L/memcheck.log" 2>&1
  echo "memcheck exit $?"; grep -E "ERROR SUMMARY|LEAK SUMMARY" "$L/memcheck.log"; tail -4 "$L/memcheck.log"
  # several decoder sessions on a file cut every 6 frames
  EXACTVQ_FULL_TEARDOWN=1 timeout 150 compute-sanitizer --tool memcheck --leak-check full "$E" -r "$S/h264_gop6_ref.mkv" -d "$S/h264_gop6_dist.mkv" \
    --backend cuda --hwdec cuda --feature ssim --feature psnr -q >"$L/memcheck_gop6.log" 2>&1
  echo "memcheck (gop6, 3 sessions) exit $?"; grep -E "ERROR SUMMARY|LEAK SUMMARY" "$L/memcheck_gop6.log"
  timeout 150 compute-sanitizer --tool racecheck "$E" -r "$S/h264_gop6_ref.mkv" -d "$S/h264_gop6_dist.mkv" \
    --backend cuda --hwdec cuda --feature psnr --frame_cnt 8 -q >"$L/racecheck_gop6.log" 2>&1
  echo "racecheck (gop6, 3 sessions) exit $?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$L/racecheck_gop6.log"; tail -3 "$L/racecheck_gop6.log"
fi
if has fixedcost; then
  echo "== fixed cost of a short 4K MKV pair $(el)"
  nvidia-smi --query-gpu=persistence_mode,pstate,clocks.sm,clocks.mem --format=csv 2>&1 | tail -2
  F=$L/fc; W=/dev/shm/nvdecfc; mkdir -p "$F" "$W"; : >"$F/runs.tsv"
  n=${FC_FRAMES:-240} budget=${FC_BUDGET:-200} t_fc=$(date +%s)
  unpack() {  # the pack's .mkv.xz into W (xz, else Python's lzma)
    local z=$1 out=$W/$(basename "${1%.xz}")
    [ -s "$out" ] && return 0
    if command -v xz >/dev/null; then xz -dc "$z" >"$out"
    else python3 -c "import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2],'wb'))" "$z" "$out"; fi
  }
  for z in "$S"/4k_*_"$n"_*.mkv.xz; do unpack "$z" || echo "cannot unpack $z"; done
  [ "${FC_LONG:-1}" = 1 ] && for z in "$S"/4k_*_600_*.mkv.xz; do [ "$n" = 600 ] || unpack "$z" || echo "cannot unpack $z"; done
  ls -l "$W" | tail -n +2 | awk '{print $5, $9}'
  late() { [ $(( $(date +%s) - t_fc )) -ge "$budget" ]; }
  # fc LABEL CMD...: one timed run, its output to F/LABEL.log, a row of runs.tsv
  fc() {
    local label=$1; shift
    if late; then echo "skipped (past ${budget}s): $label"; return 0; fi
    local log=$F/$(echo "$label" | tr '|' '_').log t0 t1 rc
    t0=$(now); timeout 45 "$@" >"$log" 2>&1; rc=$?; t1=$(now)
    local wall; wall=$(python3 -c "print(f'{$t1 - $t0:.3f}')")
    printf '%s\t%s\t%s\t%s\n' "$label" "$wall" "$rc" "$log" >>"$F/runs.tsv"
    echo "$label: exit $rc, wall $wall s; $(grep -h -E '^(exactvq: )?time: ' "$log" | sed 's/^exactvq: //' | cut -c1-600)"
    [ $rc = 0 ] || grep -v -E '^(exactvq: )?time' "$log" | head -2
  }
  # FC_BACKEND / FC_ARGS: for trying the part on a machine without a GPU
  # (cpu; e.g. --frame_cnt 3).
  read -r -a fc_args <<<"${FC_ARGS:-}"
  ev=("$E" --backend "${FC_BACKEND:-cuda}" --verbose --json -q -o /dev/null "${fc_args[@]}")
  # The CUDA floor: no decoding (Y4M), the first CUDA process of the call first.
  for i in 1 2 3; do fc "small|vmaf|-|whole|default|$i" "${ev[@]}" -r "$S/small_ref.y4m" -d "$S/small_dist.y4m"; done
  fc "small|vmaf|-|whole|cpu|1" "$E" -r "$S/small_ref.y4m" -d "$S/small_dist.y4m" --backend cpu --verbose --json -q -o /dev/null
  for c in 4k_h264_8 4k_hevc_10; do
    r=$W/${c}_${n}_ref.mkv d=$W/${c}_${n}_dist.mkv k=${c#4k_}_$n
    [ -s "$r" ] && [ -s "$d" ] || { echo "missing $r or $d"; continue; }
    cat "$r" "$d" >/dev/null
    echo "-- $k $(el)"
    for i in 1 2 3; do fc "$k|decode-skip|cuda|whole|default|$i" "$P/bin/nvdec_decode_rate" "$r" "$d" cuda skip; done
    fc "$k|decode-read|cuda|whole|default|1" "$P/bin/nvdec_decode_rate" "$r" "$d" cuda read
    fc "$k|decode-skip|none|whole|default|1" "$P/bin/nvdec_decode_rate" "$r" "$d" none skip
    for fs in vmaf ssim; do
      if [ $fs = vmaf ]; then f=(); else f=(--feature ssim); fi
      for hw in cuda none; do
        for i in 1 2 3; do fc "$k|$fs|$hw|whole|default|$i" "${ev[@]}" -r "$r" -d "$d" "${f[@]}" --hwdec $hw; done
      done
    done
    for hw in cuda none; do
      for i in 1 2 3; do fc "$k|vmaf|$hw|1|default|$i" "${ev[@]}" -r "$r" -d "$d" --hwdec $hw --frame_cnt 1; done
    done
    # Sessions a file: the default is one for HEVC clips this short, 4 for
    # H.264 (3 for longer HEVC). The 4-session run's scores are checked
    # against the default's (eager, below) and CPU decoding's.
    for v in 1 2 3; do
      fc "$k|vmaf|cuda|whole|sessions$v|1" env EXACTVQ_HWDEC_SESSIONS=$v "${ev[@]}" -r "$r" -d "$d" --hwdec cuda
    done
    fc "$k|vmaf|cuda|whole|sessions4|1" env EXACTVQ_HWDEC_SESSIONS=4 "${ev[@]}" -r "$r" -d "$d" --hwdec cuda -o "$F/${k}_sessions4.json" --precision max
    fc "$k|vmaf|none|whole|exact|1" "${ev[@]}" -r "$r" -d "$d" --hwdec none -o "$F/${k}_cpu.json" --precision max
    fc "$k|vmaf|cuda|whole|eager|1" env CUDA_MODULE_LOADING=EAGER "${ev[@]}" -r "$r" -d "$d" --hwdec cuda -o "$F/${k}_eager.json" --precision max
    # Without libavformat's probing (EXACTVQ_STREAM_INFO=0): the same scores?
    fc "$k|vmaf|cuda|whole|noprobe|1" env EXACTVQ_STREAM_INFO=0 "${ev[@]}" -r "$r" -d "$d" --hwdec cuda -o "$F/${k}_noprobe.json" --precision max
    fc "$k|vmaf|cuda|1|noprobe|1" env EXACTVQ_STREAM_INFO=0 "${ev[@]}" -r "$r" -d "$d" --hwdec cuda --frame_cnt 1
    fc "$k|vmaf|none|whole|noprobe|1" env EXACTVQ_STREAM_INFO=0 "${ev[@]}" -r "$r" -d "$d" --hwdec none
    if [ -s "$F/${k}_eager.json" ] && [ -s "$F/${k}_noprobe.json" ]; then
      cmp -s <(scores "$F/${k}_eager.json") <(scores "$F/${k}_noprobe.json") && echo "$k: scores without probing identical" ||
        echo "$k: scores without probing DIFFER"
    fi
    for other in sessions4 cpu; do
      if [ -s "$F/${k}_eager.json" ] && [ -s "$F/${k}_$other.json" ]; then
        cmp -s <(scores "$F/${k}_eager.json") <(scores "$F/${k}_$other.json") && echo "$k: scores of the default and $other identical" ||
          echo "$k: scores of the default and $other DIFFER"
      fi
    done
  done
  # A process holding a CUDA context (as a persistence daemon would keep the
  # driver up); killed by its id at the end.
  holder=
  trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null' EXIT
  python3 -c "
import ctypes, sys, time
c = ctypes.CDLL('libcuda.so.1'); d = ctypes.c_int(); ctx = ctypes.c_void_p()
ok = c.cuInit(0) == 0 and c.cuDeviceGet(ctypes.byref(d), 0) == 0 and c.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), d) == 0
print('holder: context', 'held' if ok else 'not made'); sys.stdout.flush(); time.sleep(900 if ok else 0)" &
  holder=$!
  sleep 2
  # Again with the holder's context alive (the driver already up).
  for c in 4k_h264_8 4k_hevc_10; do
    r=$W/${c}_${n}_ref.mkv d=$W/${c}_${n}_dist.mkv k=${c#4k_}_$n
    [ -s "$r" ] || continue
    for i in 1 2; do fc "$k|vmaf|cuda|whole|held|$i" "${ev[@]}" -r "$r" -d "$d" --hwdec cuda; done
    fc "$k|vmaf|cuda|1|held|1" "${ev[@]}" -r "$r" -d "$d" --hwdec cuda --frame_cnt 1
  done
  [ -n "$holder" ] && kill "$holder" 2>/dev/null; holder=
  if [ "${FC_LONG:-1}" = 1 ] && [ "$n" != 600 ]; then
    for c in 4k_h264_8 4k_hevc_10; do
      r=$W/${c}_600_ref.mkv d=$W/${c}_600_dist.mkv k=${c#4k_}_600
      [ -s "$r" ] || continue
      cat "$r" "$d" >/dev/null
      for hw in cuda none; do fc "$k|vmaf|$hw|whole|default|1" "${ev[@]}" -r "$r" -d "$d" --hwdec $hw; done
      # one session a file (the default below ~130 4K frames of H.264, 280 of HEVC)
      fc "$k|vmaf|cuda|whole|sessions1|1" env EXACTVQ_HWDEC_SESSIONS=1 "${ev[@]}" -r "$r" -d "$d" --hwdec cuda
    done
  fi
  echo "== fixed cost: summary $(el)"
  python3 "$root/tools/device/fixedcost_table.py" "$F" | tee "$OUT/fixedcost.md"
  rm -rf "$W"
fi
echo "== done $(el)"
cd "$OUT" && tar czf logs.tgz logs && rm -rf logs
