#!/usr/bin/env bash
# One device call on the two-GPU machine (nvidia-h200-x2), from a carried folder
# of prebuilt binaries: the multi-device tests on real GPUs, multi_gpu_bench
# (scaling from RAM, bits checked across GPU counts), and the CLI with --gpus 1
# against --gpus 2 on a 4K Y4M pair in RAM (/dev/shm): same bytes, frames/s.
#
# Usage: run_x2.sh PACK OUT
#   PACK: bin/ (exactvq, multi_tests, multi_gpu_bench) and lib/ (the .so files ldd
#         lists that the machine lacks: libfmt, libhwy, libOpenCL), made by pack.sh
#         from a build with -DCMAKE_CUDA_ARCHITECTURES=90-real -DEXACTVQ_WITH_FFMPEG=OFF;
#         PACK/build_dir holds the build folder's path (the tests look for exactvq there).
#   OUT:  where logs go.
# Example (device tool, repository root, the pack carried):
#   bash bench/multi_gpu/run_x2.sh build-multi-cuda/pack "$OUT"
set -uo pipefail
pack=$(realpath "$1") out=$2
mkdir -p "$out"
export LD_LIBRARY_PATH=$pack/lib
bin=$pack/bin
# multi_tests runs the CLI from the build folder it was compiled in.
build_dir=$(cat "$pack/build_dir")
mkdir -p "$build_dir" && cp "$bin/exactvq" "$build_dir/exactvq"
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,pcie.link.gen.current,pcie.link.width.current --format=csv
nvidia-smi topo -m 2>/dev/null | head -8
nproc; free -g | head -2

echo "== multi-device tests on the GPUs"
timeout 100 "$bin/multi_tests" --gtest_filter='MultiGpu*:MultiDevice*:GpusCli*:GpusOption*' >"$out/tests.log" 2>&1
echo "tests exit $?"
grep -E "^\[ +(OK|FAILED|SKIPPED|PASSED) |skipped" "$out/tests.log" | head -30
grep -B2 -A8 "Failure" "$out/tests.log" | head -40

echo "== multi_gpu_bench (RAM, pinned)"
timeout 120 "$bin/multi_gpu_bench" "${FRAMES:-600}" 3 2>&1 | tee "$out/bench.txt"
echo "bench exit ${PIPESTATUS[0]}"

echo "== CLI: --gpus 1 against --gpus 2, 4K 8-bit 4:2:0 Y4M in /dev/shm"
dir=/dev/shm/x2cli
mkdir -p "$dir"
frames=${CLI_FRAMES:-240}
python3 - "$dir" "$frames" <<'PY'
import os, random, sys
d, n = sys.argv[1], int(sys.argv[2])
w, h = 3840, 2160
random.seed(1)
base = random.randbytes(w * h * 3 // 2)
tables = [bytes((b ^ x) for b in range(256)) for x in range(4)]
for which in ("ref", "dist"):
    with open(f"{d}/{which}.y4m", "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n".encode())
        for i in range(n):
            k = (i * 7) % len(base)
            frame = base[k:] + base[:k]
            if which == "dist":
                frame = frame.translate(tables[i % 3 + 1])
            f.write(b"FRAME\n")
            f.write(frame)
PY
r=$dir/ref.y4m d=$dir/dist.y4m
cat "$r" "$d" >/dev/null
now() { date +%s.%N; }
echo "| run | seconds (best of 2) | frames/s | output |"
echo "|---|---|---|---|"
for mode in exact raster; do
  for gpus in 1 2; do
    best=999
    for rep in 1 2; do
      t0=$(now)
      timeout 60 "$bin/exactvq" -q -r "$r" -d "$d" --backend cuda --gpus $gpus \
        --feature "ssim=sum=$mode" --feature psnr=enable_apsnr=true --json --precision max \
        -o "$out/cli_${mode}_gpus$gpus.json" 2>>"$out/cli_err.txt"
      rc=$?
      t1=$(now)
      best=$(python3 -c "print(min($best, $t1 - $t0))")
    done
    fps=$(python3 -c "print(f'{$frames / $best:.0f}')")
    echo "| $mode --gpus $gpus (exit $rc) | $(python3 -c "print(f'{$best:.2f}')") | $fps | cli_${mode}_gpus$gpus.json |"
  done
  # The same bytes but the fps field.
  if [ -s "$out/cli_${mode}_gpus1.json" ] && [ -s "$out/cli_${mode}_gpus2.json" ] &&
     diff <(grep -v '"fps"' "$out/cli_${mode}_gpus1.json") <(grep -v '"fps"' "$out/cli_${mode}_gpus2.json") >/dev/null; then
    echo "$mode: --gpus 1 and --gpus 2 outputs identical (fps aside)"
  else
    echo "$mode: --gpus 1 and --gpus 2 outputs DIFFER (or are missing)"
  fi
done
t0=$(now); cat "$r" "$d" >/dev/null; t1=$(now)
echo "read rate of the pair (cat, one reader): $(python3 -c "print(f'{$frames / ($t1 - $t0):.0f}')") frames/s"
"$bin/exactvq" -r "$r" -d "$d" --gpus all --frame_cnt 2 --verbose -q 2>&1 | head -4
echo "== batch on --gpus 2: 4 pairs"
printf 'ref,dist,output\n%s,%s,b1.csv\n%s,%s,b2.csv\n%s,%s,b3.csv\n%s,%s,b4.csv\n' "$r" "$d" "$r" "$d" "$r" "$d" "$r" "$d" >"$dir/list.csv"
t0=$(now)
"$bin/exactvq" --batch "$dir/list.csv" --gpus 2 --batch-jobs 4 --frame_cnt 60 -q --batch-summary - >"$out/batch_summary.csv"
echo "batch exit $? in $(python3 -c "print(f'{$(now) - $t0:.2f}')") s"
"$bin/exactvq" -r "$r" -d "$d" --backend cuda --frame_cnt 60 --csv -o "$dir/single.csv" -q
for i in 1 2 3 4; do cmp -s "$dir/b$i.csv" "$dir/single.csv" && echo "b$i.csv = single run" || echo "b$i.csv DIFFERS"; done
rm -rf "$dir"
