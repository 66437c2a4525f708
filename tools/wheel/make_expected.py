"""Writes python/exactvq/tests/data/expected.json: the exactvq command line's scores of the
sample pair (samples/ref.y4m against samples/dist.y4m, and against dist.mp4, the H.264 encoding
of dist.y4m that tools/wheel/encode_h264.c made), per frame and pooled, as float.hex() strings,
so that the installed package's tests (python/exactvq/tests) compare bits without the CLI.

Usage: python3 tools/wheel/make_expected.py EXACTVQ_CLI   (from the repository root)"""

import json
import os
import subprocess
import sys

RUNS = [
    # name, dist file, --feature strings, --model strings (none: -n, the features alone)
    ("features", "dist.y4m", ["ssim=chroma=true", "psnr", "float_ssim"], []),
    ("vmaf", "dist.y4m", [], ["version=vmaf_v0.6.1"]),
    ("mp4", "dist.mp4", ["ssim", "psnr"], ["version=vmaf_v0.6.1"]),
]


def main():
    cli = sys.argv[1]
    data = os.path.join("python", "exactvq", "tests", "data")
    paths = {"ref.y4m": "samples/ref.y4m", "dist.y4m": "samples/dist.y4m",
             "dist.mp4": os.path.join(data, "dist.mp4")}
    runs = []
    for name, dist, features, models in RUNS:
        args = [a for f in features for a in ("--feature", f)] + [a for m in models for a in ("--model", m)]
        if not models:
            args.append("-n")
        out = subprocess.run([cli, "-q", "-r", paths["ref.y4m"], "-d", paths[dist], "--precision", "max",
                              "--json", "-o", "-", *args], check=True, capture_output=True, text=True).stdout
        report = json.loads(out)
        names = list(report["pooled_metrics"])
        runs.append({
            "name": name, "ref": "ref.y4m", "dist": dist, "features": features, "models": models,
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
