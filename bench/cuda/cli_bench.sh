#!/usr/bin/env bash
# The CLI on Y4M files in the page cache beside the rate at which the same files
# can merely be read (cat), on the same machine in the same run.
# Usage: cli_bench.sh EXACTVQ WORKDIR
set -euo pipefail
exe=$1 dir=$2
mkdir -p "$dir"
python3 - "$dir" <<'PY'
import sys, numpy as np
d = sys.argv[1]
for name, w, h, n in (("1080p", 1920, 1080, 400), ("4k", 3840, 2160, 100)):
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
for name in 1080p 4k; do
  frames=$([ $name = 1080p ] && echo 400 || echo 100)
  r=$dir/${name}_ref.y4m d=$dir/${name}_dist.y4m
  cat "$r" "$d" >/dev/null; cat "$r" "$d" >/dev/null
  best_read=1e9 best_cli=1e9
  for i in 1 2 3; do
    t0=$(now); cat "$r" >/dev/null & cat "$d" >/dev/null; wait; t1=$(now)
    best_read=$(python3 -c "print(min($best_read, $t1 - $t0))")
    t0=$(now); "$exe" -q -r "$r" -d "$d" --backend cuda >/dev/null; t1=$(now)
    best_cli=$(python3 -c "print(min($best_cli, $t1 - $t0))")
  done
  python3 -c "
r = $frames / $best_read; c = $frames / $best_cli
print(f'| {\"$name\"} 8-bit 420 exact luma | {c:.0f} frames/s | read rate {r:.0f} frames/s | {100*c/r:.0f}% |')"
done
