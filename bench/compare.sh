#!/usr/bin/env bash
# exactvq beside libvmaf 3.2.0 on the same Y4M clips, in one run: whole runs (reading, start-up and
# writing the JSON included), ROUNDS rounds, each running every program once (the order turning
# round by round, so a change in the machine's load falls on all of them); medians of wall time
# and of CPU time (user + system, every thread), frames/s, ratios; then the per-frame values of
# exactvq's outputs compared with libvmaf's, bit for bit (exit 1 when one differs).
#
#   bench/compare.sh [OPTIONS] METRIC BACKEND [FRAMES [ROUNDS [THREADS...]]]
#
# METRIC: vmaf (VMAF v0.6.1, both programs' default), vmaf_v1 (vmaf_v1.0.16_3d0h), vmaf_v1_hfr
#   (vmaf_v1.0.16_hfr_3d0h), aom_ctc (--aom_ctc v6.0), nflx_ctc (--nflx_ctc v1.0), ssim, psnr,
#   float_ssim, float_ms_ssim.
# BACKEND: cpu (libvmaf's `vmaf` with its default SIMD dispatch) or cuda (exactvq --backend cuda
#   beside `vmaf-cuda`, which runs on CUDA the VMAF features it has and the others on the CPU).
# FRAMES: frames of the 1080p clips (default 20); the 4K clips get a quarter (at least 2), the
#   same pixels. ROUNDS: default 3. THREADS: --threads of both programs, a column each (default 1
#   on cpu; on cuda each program's own default, also written `default`).
# Values: exactvq's against libvmaf's of the same clip, every key libvmaf printed, as binary64
#   (exactvq --precision max, libvmaf VMAF_JSON_FULL_PRECISION=1). ssim is checked in exactvq's
#   raster mode (ssim=sum=raster: libvmaf's sequential sum; the timed runs use the default exact
#   mode), in one more run. On cuda libvmaf's reference values come from vmaf-cuda --gpumask -1
#   (all on the CPU; its CUDA values are not its CPU's, see ../shared/libvmaf/README.md), and
#   how many of vmaf-cuda's own differ is printed beside, not checked.
#
# Options:
#   --clips LIST      comma-separated among 1080p8 1080p10 4k8 4k10 (default all four)
#   --cycle N         each clip repeats its first N frames (default min(FRAMES, 24)): long clips
#                     made quickly, for steady-state rates
#   --clip-dir DIR    make the clips there and keep them for the next run (default: a folder in
#                     /dev/shm, or $TMPDIR, removed at the end)
#   --exactvq PATH    default $EXACTVQ, else build/exactvq of this checkout
#   --vmaf PATH       default ../shared/libvmaf/vmaf (cpu) or vmaf-cuda (cuda) beside the checkout
#   --libvmaf-c       also libvmaf's C code (--cpumask 0xffffffff), values checked too
#   --baseline PATH   also another exactvq build (same arguments), values checked too
#   --also 'LABEL=[VAR=VAL...] [ARGS...]'   also exactvq with these environment variables and, when
#                     ARGS are given, these arguments in place of the metric's (repeatable), e.g.
#                     'raster=--feature ssim=sum=raster', 'batch 8=EXACTVQ_CUDA_MAX_BATCH=8';
#                     checked when it keeps the metric's arguments
#   --steady          also one-frame runs of each program: steady frames/s = (frames - 1) /
#                     (whole run - one-frame run), start-up left out
#   --read-rate       also the rate `cat` reads each clip pair at (one reader, then two at once)
#   --cpu-anchor N    BACKEND cuda beside libvmaf's `vmaf` on the CPU with --threads N (its default
#                     SIMD; values checked against it) instead of vmaf-cuda
# On the device machine: tools/device/ (bench/README.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
py=python3
"$py" -c "import numpy" 2>/dev/null || py=/usr/bin/python3  # make_vmaf_clip.py needs numpy
exec "$py" - "$here" "$@" <<'PY'
import argparse, json, os, re, shlex, shutil, statistics, struct, subprocess, sys, tempfile, time

here = sys.argv[1]
root = os.path.dirname(here)
FEATURES = {  # METRIC: (exactvq's arguments, libvmaf's arguments, exactvq's arguments for the check)
    "vmaf": ([], [], None),
    "ssim": (["--feature", "ssim"], ["--feature", "ssim", "-n"], ["--feature", "ssim=sum=raster"]),
    "psnr": (["--feature", "psnr"], ["--feature", "psnr", "-n"], None),
    "float_ssim": (["--feature", "float_ssim"], ["--feature", "float_ssim", "-n"], None),
    "float_ms_ssim": (["--feature", "float_ms_ssim"], ["--feature", "float_ms_ssim", "-n"], None),
    "vmaf_v1": (["--model", "version=vmaf_v1.0.16_3d0h"], ["--model", "version=vmaf_v1.0.16_3d0h"], None),
    "vmaf_v1_hfr": (["--model", "version=vmaf_v1.0.16_hfr_3d0h"], ["--model", "version=vmaf_v1.0.16_hfr_3d0h"],
                    None),
    # libvmaf's presets, the same flag to both: every per-frame key libvmaf writes is checked.
    "aom_ctc": (["--aom_ctc", "v6.0"], ["--aom_ctc", "v6.0"], None),
    "nflx_ctc": (["--nflx_ctc", "v1.0"], ["--nflx_ctc", "v1.0"], None),
}
CLIPS = {"1080p8": (1920, 1080, 8), "1080p10": (1920, 1080, 10), "4k8": (3840, 2160, 8), "4k10": (3840, 2160, 10)}

p = argparse.ArgumentParser(prog="bench/compare.sh", description="exactvq beside libvmaf (header of bench/compare.sh)")
p.add_argument("metric", choices=sorted(FEATURES))
p.add_argument("backend", choices=["cpu", "cuda"])
p.add_argument("frames", nargs="?", type=int, default=20)
p.add_argument("rounds", nargs="?", type=int, default=3)
p.add_argument("threads", nargs="*")
p.add_argument("--clips", default="1080p8,1080p10,4k8,4k10")
p.add_argument("--cycle", type=int)
p.add_argument("--clip-dir")
p.add_argument("--exactvq", default=os.environ.get("EXACTVQ", os.path.join(root, "build", "exactvq")))
p.add_argument("--vmaf")
p.add_argument("--libvmaf-c", action="store_true")
p.add_argument("--baseline")
p.add_argument("--also", action="append", default=[])
p.add_argument("--steady", action="store_true")
p.add_argument("--read-rate", action="store_true")
p.add_argument("--cpu-anchor", type=int, metavar="N")
a = p.parse_args(sys.argv[2:])
cuda = a.backend == "cuda"
if a.frames < 2 or a.rounds < 1:
    p.error("FRAMES must be at least 2 and ROUNDS at least 1")
threads = a.threads or (["default"] if cuda else ["1"])
for t in threads:
    if t != "default" and not t.isdigit():
        p.error(f"THREADS: {t} is neither a count nor `default`")
clips = a.clips.split(",")
for c in clips:
    if c not in CLIPS:
        p.error(f"--clips: {c} is not one of {', '.join(CLIPS)}")
if a.libvmaf_c and cuda:
    p.error("--libvmaf-c is for BACKEND cpu")
if a.cpu_anchor and not cuda:
    p.error("--cpu-anchor is for BACKEND cuda")
vmaf = a.vmaf
if not vmaf:
    name = "vmaf-cuda" if cuda and not a.cpu_anchor else "vmaf"
    found = [d for d in (os.path.join(root, "..", "shared", "libvmaf"), os.path.join(root, "shared", "libvmaf"))
             if os.access(os.path.join(d, name), os.X_OK)]
    if not found:
        sys.exit(f"compare.sh: no {name} in ../shared/libvmaf beside the checkout: give --vmaf")
    vmaf = os.path.normpath(os.path.join(found[0], name))
for prog in [a.exactvq, vmaf] + ([a.baseline] if a.baseline else []):
    if not os.access(prog, os.X_OK):
        sys.exit(f"compare.sh: {prog} is not an executable")
env = dict(os.environ, VMAF_JSON_FULL_PRECISION="1")
if cuda and os.path.isdir("/usr/local/nvidia/lib64"):  # the device machine's driver, for vmaf-cuda
    env["LD_LIBRARY_PATH"] = ":".join(filter(None, [env.get("LD_LIBRARY_PATH"), "/usr/local/nvidia/lib64"]))
ours, theirs, check_args = FEATURES[a.metric]
backend = ["--backend", a.backend]


class Program:
    """One column: `exe` with `args` (the metric's, or others) and `tail` (backend, threads)."""

    def __init__(self, label, threads, exe, args, tail, extra_env=None, checked=False, kind="exactvq"):
        self.label, self.threads, self.exe, self.args, self.tail = label, threads, exe, args, tail
        self.env, self.checked, self.kind = dict(env, **(extra_env or {})), checked, kind
        self.runs, self.ones = [], []  # (wall, cpu) seconds

    def command(self, ref, dist, out, frames=None, args=None):
        cmd = [self.exe, *(self.args if args is None else args), *self.tail, "-r", ref, "-d", dist, "-q", "--json",
               "-o", out]
        if self.kind != "libvmaf":
            cmd += ["--precision", "max"]
        if frames:
            cmd += ["--frame_cnt", str(frames)]
        return cmd


def with_threads(t):
    return [] if t == "default" else ["--threads", t]


def label_threads(t):
    return "default threads" if t == "default" else f"{t} thread" + ("" if t == "1" else "s")


def also(spec):
    """--also LABEL=[VAR=VAL...] [ARGS...]: (label, environment, arguments or None)."""
    label, _, rest = spec.partition("=")
    words = shlex.split(rest)
    extra = {}
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]):
        k, _, v = words.pop(0).partition("=")
        extra[k] = v
    return label, extra, words or None


programs = []
for t in threads:
    tail = [*backend, *with_threads(t)]
    programs.append(Program(f"exactvq {label_threads(t)}", t, a.exactvq, ours, tail, checked=True))
    if a.baseline:
        programs.append(Program(f"baseline {label_threads(t)}", t, a.baseline, ours, tail, checked=True))
    for spec in a.also:
        label, extra, args = also(spec)
        programs.append(Program(f"exactvq {label}, {label_threads(t)}", t, a.exactvq, args or ours, tail, extra,
                                checked=args is None))
    if a.cpu_anchor:
        programs.append(Program(f"libvmaf CPU {a.cpu_anchor} threads", t, vmaf, theirs,
                                with_threads(str(a.cpu_anchor)), kind="libvmaf"))
    else:
        lib = "vmaf-cuda" if cuda else "libvmaf"
        programs.append(Program(f"{lib} {label_threads(t)}", t, vmaf, theirs, with_threads(t), kind="libvmaf"))
    if a.libvmaf_c:
        programs.append(Program(f"libvmaf C {label_threads(t)}", t, vmaf, theirs,
                                ["--cpumask", "0xffffffff", *with_threads(t)], kind="libvmaf"))


def timed(cmd, prog_env):
    """Wall and CPU seconds of one run of cmd (its output discarded); exits on failure."""
    start = time.monotonic()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL, env=prog_env)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status):
        sys.exit(f"compare.sh: failed ({os.waitstatus_to_exitcode(status)}): {shlex.join(cmd)}")
    return wall, usage.ru_utime + usage.ru_stime


def values(path):
    """Per frame, each key's binary64 bytes (libvmaf writes -0 and integers: read as floats; a
    non-finite value is JSON null in both programs' output, kept as null)."""
    with open(path) as f:
        doc = json.load(f, parse_int=float)
    return [{k: b"null" if v is None else struct.pack("d", float(v)) for k, v in frame["metrics"].items()}
            for frame in doc["frames"]]


def differing(got, want):
    """(values compared, values differing): every key of `want`, frame by frame."""
    n = d = 0
    if len(got) != len(want):
        return sum(len(f) for f in want), sum(len(f) for f in want)
    for g, w in zip(got, want):
        for k, v in w.items():
            n += 1
            d += g.get(k) != v
    return n, d


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"


def load():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def median(v):
    return statistics.median(v)


shm = "/dev/shm" if os.access("/dev/shm", os.W_OK) else os.environ.get("TMPDIR", "/tmp")
work = tempfile.mkdtemp(prefix="compare.", dir=shm)
clip_dir = a.clip_dir or work
os.makedirs(clip_dir, exist_ok=True)
failed = False
try:
    print(f"# bench/compare.sh {shlex.join(sys.argv[2:])}")
    print(f"{cpu_name()}, {os.cpu_count()} CPUs; load average {load()} before")
    print(f"exactvq: {a.exactvq}; libvmaf: {vmaf}")
    for clip in clips:
        w, h, bits = CLIPS[clip]
        frames = a.frames if w < 3840 else max(2, a.frames // 4)
        cycle = min(frames, a.cycle or 24)
        name = f"{w}x{h}_{bits}bit_{frames}f_{cycle}c"
        ref, dist = (os.path.join(clip_dir, f"{name}_{s}.y4m") for s in ("ref", "dist"))
        if not (os.path.exists(ref) and os.path.exists(dist)):
            made = os.path.join(clip_dir, name + ".making")
            os.makedirs(made, exist_ok=True)
            subprocess.run([sys.executable, os.path.join(here, "make_vmaf_clip.py"), made, str(w), str(h),
                            str(frames), str(cycle), str(bits)], check=True)
            os.replace(os.path.join(made, "ref.y4m"), ref)
            os.replace(os.path.join(made, "dist.y4m"), dist)
            os.rmdir(made)
        subprocess.run(["cat", ref, dist], stdout=subprocess.DEVNULL, check=True)  # into the page cache
        for prog in programs:
            prog.runs, prog.ones = [], []
        outs = {}
        for r in range(a.rounds):
            turn = programs[r % len(programs):] + programs[:r % len(programs)]
            for prog in turn:
                out = os.path.join(work, f"out{programs.index(prog)}.json")
                outs[prog] = out
                prog.runs.append(timed(prog.command(ref, dist, out), prog.env))
                if a.steady:
                    prog.ones.append(timed(prog.command(ref, dist, out + ".one", 1), prog.env))
        reads = []
        if a.read_rate:
            for _ in range(3):
                t0 = time.monotonic()
                subprocess.run(["cat", ref, dist], stdout=subprocess.DEVNULL, check=True)
                t1 = time.monotonic()
                both = [subprocess.Popen(["cat", f], stdout=subprocess.DEVNULL) for f in (ref, dist)]
                for c in both:
                    c.wait()
                reads.append((t1 - t0, time.monotonic() - t1))

        print(f"\n## {w}x{h} {bits}-bit 4:2:0, {frames} frames (repeating the first {cycle}), "
              f"{a.metric} on {a.backend}, {a.rounds} rounds")
        steady_head = " steady frames/s (one-frame run, s) |" if a.steady else ""
        print(f"| program | frames/s | frames per CPU-second | runs, frames/s |{steady_head}")
        print("|---|---|---|---|" + ("---|" if a.steady else ""))
        fps = {}
        for prog in programs:
            wall = median(w_ for w_, _ in prog.runs)
            cpu = median(c for _, c in prog.runs)
            fps[prog] = frames / wall
            row = (f"| {prog.label} | {frames / wall:.2f} | {frames / cpu:.2f} | "
                   f"{' '.join(f'{frames / w_:.2f}' for w_, _ in prog.runs)} |")
            if a.steady:
                one = median(w_ for w_, _ in prog.ones)
                row += f" {(frames - 1) / (wall - one):.2f} ({one:.2f}) |" if wall > one else f" - ({one:.2f}) |"
            print(row)
        if reads:
            one_reader = median(s for s, _ in reads)
            two_readers = median(t for _, t in reads)
            print(f"read rate of the pair (cat, page cache): {frames / one_reader:.1f} frames/s one reader, "
                  f"{frames / two_readers:.1f} two at once")
        # Ratios: exactvq against each other column of its thread count, and against its first.
        mine = {t: next(q for q in programs if q.threads == t and q.label.startswith("exactvq ")) for t in threads}
        for t in threads:
            others = [q for q in programs if q.threads == t and q is not mine[t]]
            print(f"{mine[t].label}: " + "; ".join(f"{fps[mine[t]] / fps[q]:.2f}x {q.label}" for q in others))
        if len(threads) > 1:
            print("exactvq scaling: " + ", ".join(f"{label_threads(t)} {fps[mine[t]] / fps[mine[threads[0]]]:.2f}x"
                                                  for t in threads[1:]) + f" of {label_threads(threads[0])}")

        # Values: exactvq's checked outputs against libvmaf's first column's (on cuda, its CPU code's)
        # and, with --libvmaf-c, its C code's; libvmaf's other columns against the first, not checked.
        libvmaf = [q for q in programs if q.kind == "libvmaf"]
        if cuda and a.cpu_anchor:
            wants = [(q.label, values(outs[q])) for q in libvmaf if q.threads == threads[0]]
        elif cuda:
            path = os.path.join(work, "libvmaf_cpu.json")
            cmd = [vmaf, *theirs, "--gpumask", "-1", "--threads", str(os.cpu_count()), "-r", ref, "-d", dist, "-q",
                   "--json", "-o", path]
            subprocess.run(cmd, stdout=subprocess.DEVNULL, env=env, check=True)
            wants = [("vmaf-cuda --gpumask -1 (libvmaf's CPU code)", values(path))]
        else:
            wants = [(q.label, values(outs[q])) for q in libvmaf if q.threads == threads[0]]
        for q in libvmaf:
            if q.label != wants[0][0]:
                n, d = differing(values(outs[q]), wants[0][1])
                print(f"values, {q.label} against {wants[0][0]} (not checked): {n} compared, {d} differing")
        checks = []
        for q in (q for q in programs if q.kind == "exactvq" and q.checked):
            if check_args is None:
                checks.append((q.label, outs[q]))
            else:
                out = outs[q] + ".check"
                subprocess.run(q.command(ref, dist, out, args=check_args), stdout=subprocess.DEVNULL, env=q.env,
                               check=True)
                checks.append((f"{q.label}, {' '.join(check_args[1:])}", out))
        for label, out in checks:
            got = values(out)
            for want_label, want in wants:
                n, d = differing(got, want)
                failed |= d > 0 or n == 0
                print(f"values, {label} against {want_label}: {n} compared, {d} differing")
    print(f"\nload average {load()} after")
finally:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(1 if failed else 0)
PY
