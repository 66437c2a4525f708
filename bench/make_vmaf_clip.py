#!/usr/bin/env python3
"""make_vmaf_clip.py OUT_DIR W H FRAMES [CYCLE [BITS]]: a reference and a distorted Y4M (4:2:0,
8-bit, or BITS 9 to 16) with content VMAF's features react to: smooth gradients, edges and
texture that move from frame to frame; the distorted clip blurred, quantised and noisy.
Deterministic (fixed seed). With CYCLE, frame f is frame f % CYCLE (long clips made quickly, for
steady-state timing). Above 8 bits the same pictures are scaled to the wider range."""
import sys

import numpy as np

out, w, h, frames = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
cycle = int(sys.argv[5]) if len(sys.argv) > 5 else frames
bits = int(sys.argv[6]) if len(sys.argv) > 6 else 8
if not 8 <= bits <= 16:
    sys.exit(f"make_vmaf_clip.py: BITS must be 8 to 16, not {bits}")
peak = (1 << bits) - 1
sample = np.uint8 if bits == 8 else np.dtype("<u2")
made = []
rng = np.random.default_rng(20261201)
y, x = np.mgrid[0:h, 0:w].astype(np.float64)
texture = rng.integers(0, 48, size=(h + 64, w + 64)).astype(np.float64)
colour = "C420jpeg" if bits == 8 else f"C420p{bits}"
header = f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 {colour}\n".encode()
chroma = np.full(((h + 1) // 2) * ((w + 1) // 2) * 2, 1 << (bits - 1), dtype=sample).tobytes()
with open(f"{out}/ref.y4m", "wb") as ref, open(f"{out}/dist.y4m", "wb") as dist:
    ref.write(header)
    dist.write(header)
    for f in range(frames):
        if f >= cycle:
            for stream, plane in zip((ref, dist), made[f % cycle]):
                stream.write(b"FRAME\n")
                stream.write(plane)
                stream.write(chroma)
            continue
        dx, dy = 3 * f, 2 * f
        luma = (96 + 64 * np.sin((x + dx) / 97.0) * np.cos((y - dy) / 61.0)
                + 40 * (((x + dx) // 128 + (y + dy) // 96) % 2)
                + texture[(dy % 64):(dy % 64) + h, (dx % 64):(dx % 64) + w])
        r = np.clip(luma * (peak / 255.0), 0, peak)
        # Distorted: a 3-tap blur, coarser levels, a little noise.
        step, noise = 6 * peak / 255.0, 2.0 * peak / 255.0
        b = (np.roll(r, 1, axis=1) + 2 * r + np.roll(r, -1, axis=1)) / 4
        d = np.clip(np.round(b / step) * step + rng.normal(0, noise, size=r.shape), 0, peak)
        planes = (r.astype(sample).tobytes(), d.astype(sample).tobytes())
        if cycle < frames:
            made.append(planes)
        for stream, plane in zip((ref, dist), planes):
            stream.write(b"FRAME\n")
            stream.write(plane)
            stream.write(chroma)
