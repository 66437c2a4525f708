#!/usr/bin/env python3
"""make_vmaf_clip.py OUT_DIR W H FRAMES [CYCLE]: a reference and a distorted Y4M (8-bit 4:2:0)
with content VMAF's features react to: smooth gradients, edges and texture that move from frame
to frame; the distorted clip blurred, quantised and noisy. Deterministic (fixed seed). With
CYCLE, frame f is frame f % CYCLE (long clips made quickly, for steady-state timing)."""
import sys

import numpy as np

out, w, h, frames = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
cycle = int(sys.argv[5]) if len(sys.argv) > 5 else frames
made = []
rng = np.random.default_rng(20261201)
y, x = np.mgrid[0:h, 0:w].astype(np.float64)
texture = rng.integers(0, 48, size=(h + 64, w + 64)).astype(np.float64)
header = f"YUV4MPEG2 W{w} H{h} F25:1 Ip A1:1 C420jpeg\n".encode()
chroma = np.full(((h + 1) // 2) * ((w + 1) // 2) * 2, 128, dtype=np.uint8).tobytes()
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
        r = np.clip(luma, 0, 255)
        # Distorted: a 3-tap blur, coarser levels, a little noise.
        b = (np.roll(r, 1, axis=1) + 2 * r + np.roll(r, -1, axis=1)) / 4
        d = np.clip(np.round(b / 6) * 6 + rng.normal(0, 2.0, size=r.shape), 0, 255)
        planes = (r.astype(np.uint8).tobytes(), d.astype(np.uint8).tobytes())
        if cycle < frames:
            made.append(planes)
        for stream, plane in zip((ref, dist), planes):
            stream.write(b"FRAME\n")
            stream.write(plane)
            stream.write(chroma)
