#!/usr/bin/env python3
"""The summary of nvdec_run.sh's part fixedcost: where each kind of run's time goes.

Reads DIR/runs.tsv (label, wall seconds, exit status, log file; label fields
case|what|hwdec|frames|variant|rep) and each run's log (exactvq's --verbose
'time:' and 'time spent on:' lines, or nvdec_decode_rate's output), and prints
medians over the repetitions: each case's marks as a timeline (ms since the
process started, the readers' own marks included) with its tallies, then (last,
so that a short tail of the output holds them) the rates of decoding alone, a
table of the run's stages (ms; each the time between two of the CLI's marks)
and GPU against CPU decoding.
Usage: fixedcost_table.py DIR   (OUT/logs/fc, or logs/fc of OUT/logs.tgz unpacked)
"""
import os
import re
import statistics
import sys
from collections import OrderedDict, defaultdict

# The CLI's marks (src/cli/main.cpp, src/app/score_run.cpp) and the stage each ends.
STAGES = [
    ("models", "start"),  # libraries loaded + options + models
    ("ref opened", "ref open"),
    ("inputs opened", "dist open"),
    ("device", "device"),
    ("features set up", "features"),
    ("first batch read", "1st read"),
    ("first batch scored", "1st scored"),
    ("all frames scored", "rest scored"),
    ("run closed", "closed"),
    ("report", "report"),
]


def parse_marks(line):
    """[(name, ms)] of a 'time:' line, in order."""
    out = []
    for part in line.split(", "):
        m = re.match(r"(.+) (-?\d+) ms$", part.strip())
        if m:
            out.append((m.group(1), float(m.group(2))))
    return out


def cumulative(marks):
    t, out = 0.0, OrderedDict()
    for name, ms in marks:
        t += ms
        out.setdefault(name, t)
    return out


def parse_tallies(line):
    out = {}
    for part in line.split(", "):
        m = re.match(r"(.+) (\d+) in (\d+) ms$", part.strip())
        if m:
            out[m.group(1)] = (int(m.group(2)), float(m.group(3)))
    return out


def read_log(path):
    info = {"marks": None, "tallies": {}, "rate": None, "error": None}
    try:
        text = open(path, errors="replace").read()
    except OSError:
        return info
    for line in text.splitlines():
        s = line.strip()
        for prefix in ("exactvq: time: ", "time: "):
            if s.startswith(prefix):
                info["marks"] = parse_marks(s[len(prefix):])
        for prefix in ("exactvq: time spent on: ", "time spent on: "):
            if s.startswith(prefix):
                info["tallies"] = parse_tallies(s[len(prefix):])
        m = re.search(r"frames in ([\d.]+) s after ([\d.]+) s opening: ([\d.]+) pairs/s, ([\d.]+) with", s)
        if m:
            info["rate"] = tuple(float(x) for x in m.groups())
        if ("exactvq: " in s or "nvdec_decode_rate: " in s) and " time" not in s[:20] and not info["error"]:
            if "decoded on the CPU" in s or "scoring on" in s or "copied to the host" in s:
                continue
            info["error"] = s[:160]
    return info


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt_ms(v):
    return "-" if v is None else f"{v:.0f}"


def main():
    d = sys.argv[1]
    groups = OrderedDict()
    for row in open(os.path.join(d, "runs.tsv")):
        f = row.rstrip("\n").split("\t")
        if len(f) < 4:
            continue
        label, wall, rc, log = f[0], float(f[1]), int(f[2]), f[3]
        parts = label.split("|")
        key = "|".join(parts[:-1])
        info = read_log(os.path.join(d, os.path.basename(log)))  # the logs lie in DIR
        info.update(wall=wall, rc=rc, rep=parts[-1])
        groups.setdefault(key, []).append(info)

    print("### Openings: each mark's median time since the process started (ms)")
    for key, runs in groups.items():
        ok = [r for r in runs if r["rc"] == 0 and r["marks"]]
        if not ok:
            continue
        at = defaultdict(list)
        for r in ok:
            for name, t in cumulative(r["marks"]).items():
                at[name].append(t)
        order = sorted(at, key=lambda n: statistics.median(at[n]))
        shown = [n for n in order if n not in ("libraries loaded", "options")]
        line = ", ".join(f"{n} {statistics.median(at[n]):.0f}" for n in shown)
        print(f"- {show(key)}: {line}")
        tallies = defaultdict(list)
        for r in ok:
            for name, (count, ms) in r["tallies"].items():
                tallies[name].append((count, ms))
        if tallies:
            print("  spent on: " + ", ".join(
                f"{n} {statistics.median([c for c, _ in v]):.0f} in {statistics.median([m for _, m in v]):.0f} ms"
                for n, v in tallies.items()))

    print()
    print("### Whole runs and one-frame runs (medians; ms; wall in s)")
    print("case: codec_frames, features, --hwdec, frames scored, variant. Stages: start = to 'models';")
    print("ref open = until the reference is open, dist open = then until both are (they open at once);")
    print("1st read/scored = the first batch; closed = letting go of the run (on CUDA left to the")
    print("process's end: the report comes first); exit = wall - 'report'.")
    head = ["case", "ok/n", "wall s"] + [s for _, s in STAGES] + ["exit"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    walls = {}
    errors = []
    for key, runs in groups.items():
        if key.split("|")[1].startswith("decode"):
            continue
        ok = [r for r in runs if r["rc"] == 0]
        walls[key] = med([r["wall"] for r in ok])
        cells = [show(key), f"{len(ok)}/{len(runs)}", "-" if walls[key] is None else f"{walls[key]:.2f}"]
        cums = [cumulative(r["marks"]) if r["marks"] else {} for r in ok]
        prev = None
        for mark, _ in STAGES:
            vals = []
            for c in cums:
                if mark in c:
                    vals.append(c[mark] - (c.get(prev, 0.0) if prev else 0.0))
            cells.append(fmt_ms(med(vals)))
            prev = mark
        cells.append(fmt_ms(med([r["wall"] * 1e3 - cumulative(r["marks"]).get("report", 0.0)
                                 for r in ok if r["marks"]])))
        print("| " + " | ".join(cells) + " |")
        bad = [r for r in runs if r["rc"] != 0]
        if bad:
            errors.append(f"- {show(key)}: exit {bad[0]['rc']}: {bad[0]['error'] or '(no message)'}")
    if errors:
        print("\n".join(errors))

    print()
    print("### NVDEC / CPU decoding alone (nvdec_decode_rate; medians)")
    print("| case | ok/n | wall s | opening s | decoding s | pairs/s | with opening |")
    print("|---|---|---|---|---|---|---|")
    errors = []
    for key, runs in groups.items():
        if not key.split("|")[1].startswith("decode"):
            continue
        ok = [r for r in runs if r["rc"] == 0 and r["rate"]]
        rates = [r["rate"] for r in ok]
        cells = [show(key), f"{len(ok)}/{len(runs)}", fmt_s(med([r["wall"] for r in ok]))]
        for i in (1, 0, 2, 3):
            cells.append(fmt_s(med([x[i] for x in rates])) if i < 2 else fmt_rate(med([x[i] for x in rates])))
        print("| " + " | ".join(cells) + " |")
        bad = [r for r in runs if r["rc"] != 0 or not r["rate"]]
        if bad:
            errors.append(f"- {show(key)}: exit {bad[0]['rc']}: {bad[0]['error'] or '(no rate line)'}")
    if errors:
        print("\n".join(errors))

    print()
    print("### GPU against CPU decoding, whole runs (median walls)")
    for key, wall in walls.items():
        p = key.split("|")
        if len(p) < 5 or p[2] != "cuda":
            continue
        other = "|".join([p[0], p[1], "none", p[3], "default"])
        if walls.get(other) and wall:
            print(f"- {show(key)}: {wall:.2f} s against --hwdec none {walls[other]:.2f} s: {walls[other] / wall:.2f}x")


def show(key):
    return key.replace("|", " ")


def fmt_s(v):
    return "-" if v is None else f"{v:.2f}"


def fmt_rate(v):
    return "-" if v is None else f"{v:.1f}"


if __name__ == "__main__":
    main()
