#!/usr/bin/python3
"""make_y4m.py PATH WIDTH HEIGHT CHROMA_TAG FRAMES VARIANT: writes a Y4M stream of FRAMES
frames to PATH (a file or a FIFO), one frame at a time so that the writer's own memory
stays at one frame. 16-bit tags (…p16) get 2-byte little-endian samples. VARIANT 0 is a
pattern; other values perturb it, so reference and distorted differ."""
import sys


def plane_sizes(width, height, tag):
    if tag.startswith("mono"):
        return [(width, height)]
    cw = (width + 1) // 2 if tag.startswith(("420", "422")) else width
    ch = (height + 1) // 2 if tag.startswith("420") else height
    return [(width, height), (cw, ch), (cw, ch)]


def main():
    path, width, height, tag, frames, variant = sys.argv[1:7]
    width, height, frames, variant = int(width), int(height), int(frames), int(variant)
    two_bytes = tag.endswith(("p10", "p12", "p16"))
    sizes = plane_sizes(width, height, tag)
    with open(path, "wb", buffering=0) as out:
        out.write(f"YUV4MPEG2 W{width} H{height} F25:1 Ip A1:1 C{tag}\n".encode())
        for f in range(frames):
            payload = bytearray()
            for p, (w, h) in enumerate(sizes):
                # One row of a moving ramp, repeated: cheap to make at 8K.
                row = bytes(((x * 3 + f * 7 + p * 50 + variant * (x % 5)) & 0xFF) for x in range(w))
                if two_bytes:
                    row = bytes(b for v in row for b in (v, v & 0x03))
                payload += row * h
            out.write(b"FRAME\n")
            out.write(payload)


if __name__ == "__main__":
    main()
