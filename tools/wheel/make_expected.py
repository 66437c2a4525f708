"""Writes python/exactvq/tests/data/expected.json: the exactvq command line's scores of the
sample pair (samples/ref.y4m against samples/dist.y4m, and against dist.mp4, the H.264 encoding
of dist.y4m that tools/wheel/encode_h264.c made) and of a 10-bit pair written here (ref10.y4m,
dist10.y4m), per frame and pooled, as float.hex() strings,
so that the installed package's tests (python/exactvq/tests) compare bits without the CLI.

Usage: python3 tools/wheel/make_expected.py EXACTVQ_CLI   (from the repository root)"""

import json
import os
import subprocess
import sys

RUNS = [
    # name, ref file, dist file, --feature strings, --model strings (none: -n, the features alone)
    ("features", "ref.y4m", "dist.y4m", ["ssim=chroma=true", "psnr", "float_ssim"], []),
    ("vmaf", "ref.y4m", "dist.y4m", [], ["version=vmaf_v0.6.1"]),
    ("mp4", "ref.y4m", "dist.mp4", ["ssim", "psnr"], ["version=vmaf_v0.6.1"]),
    ("tenbit", "ref10.y4m", "dist10.y4m", ["ssim", "psnr", "float_ssim"], []),
]


def write_ten_bit_pair(data):
    """ref10.y4m and dist10.y4m: 4 mono 10-bit frames of 96x64, a gradient with xorshift noise and
    the same with more noise and an offset, from integers alone (the same bytes everywhere)."""
    w, h, n = 96, 64, 4
    state = 0x2545F491

    def xorshift():
        nonlocal state
        state ^= (state << 13) & 0xFFFFFFFF
        state ^= state >> 17
        state ^= (state << 5) & 0xFFFFFFFF
        return state

    frames = {"ref10.y4m": [], "dist10.y4m": []}
    for i in range(n):
        ref = [(x * 9 + y * 5 + i * 37 + xorshift() % 64) % 1024 for y in range(h) for x in range(w)]
        dist = [min(1023, max(0, v + 12 + xorshift() % 41 - 20)) for v in ref]
        frames["ref10.y4m"].append(ref)
        frames["dist10.y4m"].append(dist)
    for name, pictures in frames.items():
        with open(os.path.join(data, name), "wb") as f:
            f.write(b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 Cmono10\n" % (w, h))
            for picture in pictures:
                f.write(b"FRAME\n" + b"".join(v.to_bytes(2, "little") for v in picture))


def main():
    cli = sys.argv[1]
    data = os.path.join("python", "exactvq", "tests", "data")
    write_ten_bit_pair(data)
    paths = {"ref.y4m": "samples/ref.y4m", "dist.y4m": "samples/dist.y4m"}
    paths.update({f: os.path.join(data, f) for f in ("dist.mp4", "ref10.y4m", "dist10.y4m")})
    runs = []
    for name, ref, dist, features, models in RUNS:
        args = [a for f in features for a in ("--feature", f)] + [a for m in models for a in ("--model", m)]
        if not models:
            args.append("-n")
        out = subprocess.run([cli, "-q", "-r", paths[ref], "-d", paths[dist], "--precision", "max",
                              "--json", "-o", "-", *args], check=True, capture_output=True, text=True).stdout
        report = json.loads(out)
        names = list(report["pooled_metrics"])
        runs.append({
            "name": name, "ref": ref, "dist": dist, "features": features, "models": models,
            "frames": [f["frameNum"] for f in report["frames"]],
            "scores": {n: [float(f["metrics"][n]).hex() for f in report["frames"]] for n in names},
            "pooled": {n: {k: float(v).hex() for k, v in report["pooled_metrics"][n].items()} for n in names},
        })
    version = subprocess.run([cli, "--version"], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(data, "expected.json"), "w") as f:
        json.dump({"made_by": f"tools/wheel/make_expected.py with {version}", "runs": runs}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
