#!/usr/bin/env bash
# The CLI on Y4M files in the page cache beside the rate at which the same files
# can merely be read (cat), on the same machine in the same run.
# Usage: cli_bench.sh EXACTVQ WORKDIR
# CLI_BENCH_SCALE (default 1) scales the frame counts (1200 at 1080p, 300 at 4K).
set -euo pipefail
exe=$1 dir=$2 scale=${CLI_BENCH_SCALE:-1}
mkdir -p "$dir"
n1080=$(python3 -c "print(max(20, int(1200 * $scale)))") n4k=$(python3 -c "print(max(10, int(300 * $scale)))")
python3 - "$dir" "$n1080" "$n4k" <<'PY'
import sys, numpy as np
d, n1080, n4k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
for name, w, h, n in (("1080p", 1920, 1080, n1080), ("4k", 3840, 2160, n4k)):
    rng = np.random.default_rng(1)
    base = rng.integers(0, 256, size=w * h * 3 // 2, dtype=np.uint8)
    for which in ("ref", "dist"):
        with open(f"{d}/{name}_{which}.y4m", "wb") as f:
            f.write(f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n".encode())
            for i in range(n):
                frame = np.roll(base, i * 7)
                if which == "dist":
                    frame = frame ^ np.uint8(i % 3)
                f.write(b"FRAME\n")
                f.write(frame.tobytes())
PY
now() { date +%s.%N; }
best() { python3 -c "import sys; print(min(float(x) for x in sys.argv[1:]))" "$@"; }
echo "$(nproc) host cores"
echo "| input | features | CLI frames/s (whole run) | CLI steady frames/s | read rate, one reader | read rate, two readers | steady / one reader | steady / two readers |"
echo "|---|---|---|---|---|---|---|---|"
for name in 1080p 4k; do
  frames=$([ $name = 1080p ] && echo "$n1080" || echo "$n4k")
  r=$dir/${name}_ref.y4m d=$dir/${name}_dist.y4m
  cat "$r" "$d" >/dev/null; cat "$r" "$d" >/dev/null
  seq_t=() par_t=()
  for i in 1 2 3; do
    t0=$(now); cat "$r" "$d" >/dev/null; t1=$(now); seq_t+=($(python3 -c "print($t1 - $t0)"))
    t0=$(now); cat "$r" >/dev/null & cat "$d" >/dev/null; wait; t1=$(now); par_t+=($(python3 -c "print($t1 - $t0)"))
  done
  # The last rows: smaller batches (less memory to page-lock on first use), and
  # pictures page-locked before their first copy instead of by a thread.
  for features in "--feature ssim" "--feature ssim --feature psnr" "--feature ssim (max batch 8)" "--feature ssim (pinned before use)"; do
    batch=; [[ $features == *"max batch 8"* ]] && batch=8
    bgpin=; [[ $features == *"pinned before use"* ]] && bgpin=0
    args=${features% (*}
    cli_t=() one_t=()
    for i in 1 2 3; do
      t0=$(now); EXACTVQ_CUDA_MAX_BATCH=$batch EXACTVQ_CUDA_BACKGROUND_PIN=$bgpin "$exe" -q -r "$r" -d "$d" $args --backend cuda >/dev/null; t1=$(now); cli_t+=($(python3 -c "print($t1 - $t0)"))
      t0=$(now); EXACTVQ_CUDA_MAX_BATCH=$batch EXACTVQ_CUDA_BACKGROUND_PIN=$bgpin "$exe" -q -r "$r" -d "$d" $args --backend cuda --frame_cnt 1 >/dev/null; t1=$(now); one_t+=($(python3 -c "print($t1 - $t0)"))
    done
    python3 -c "
f = $frames; seq = $(best "${seq_t[@]}"); par = $(best "${par_t[@]}"); cli = $(best "${cli_t[@]}"); one = $(best "${one_t[@]}")
steady = (f - 1) / (cli - one)
print(f'| {\"$name\"} 8-bit 420, {f} frames | {\"$features\".replace(\"--feature \", \"\")} | {f / cli:.0f} | {steady:.0f} (start-up {one:.2f} s) | {f / seq:.0f} | {f / par:.0f} | {100 * steady * seq / f:.0f}% | {100 * steady * par / f:.0f}% |')"
  done
done
