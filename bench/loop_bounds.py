#!/usr/bin/env python3
"""loop_bounds.py BINARY CALLGRIND_OUT MCPU GHZ [STAGE:RUNS=REGEX...]: the cycles the functions of
BINARY whose demangled names match a stage's REGEX (re.search) would take at the core's throughput bound (llvm-mca
-mcpu=MCPU), given how often each of their instructions ran (CALLGRIND_OUT, from
`valgrind --tool=callgrind --dump-instr=yes BINARY ...`). Each loop (the span from a backward
jump's target to the jump; its own instructions, those of loops inside it left to them) is run
through llvm-mca as straight-line code; its steady-state cycles an iteration times the times
its backward jump ran give its cycles; instructions that ran under half its iterations (a
branch's rare side) and those outside every loop count at 4 a cycle. Prints each function's
instructions run (Ir), its bound cycles and Ir a bound cycle, then each STAGE's bound a run
(RUNS: how many times the stage ran under callgrind, e.g. frames) in Mcycles and in ms at GHZ.
Without stages, VMAF v0.6.1's SIMD stages as `vmaf_stages REF DIST 2 2 1` runs them (4 frames of
vif and adm, 2 SADs): what bench/vmaf_stages.sh --bounds runs.
Run with python3 from the repository root:
  valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file=cg.out \
    build/bench/vmaf_stages REF DIST 2 2 1
  python3 bench/loop_bounds.py build/bench/vmaf_stages cg.out znver3 3.2 \
    'vif vertical:4=N_AVX2::(Vertical)?Moment' 'motion:2=motion::N_AVX2::' ..."""
import collections
import re
import subprocess
import sys

binary, cg_out, mcpu, ghz = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
T = r"::N_[A-Z0-9_]+::"  # any Highway target's namespace
VMAF_STAGES = [
    f"vif blur + halving:4=vif::cpu{T}(BlurRow|HorizontalBlur|VerticalBlur)",
    f"vif vertical moments:4=vif::cpu{T}(Vertical)?Moment",
    f"vif horizontal statistic:4=vif::cpu{T}(Paired|HorizontalStatistic|PairsFit)",
    f"vif other:4=vif::cpu{T}",
    f"adm DWT:4=adm::cpu{T}(Vertical|Horizontal)",
    f"adm decoupling:4=adm::cpu{T}Decouple",
    f"adm CSF:4=adm::cpu{T}Csf",
    f"adm masking + flat sums:4=adm::cpu{T}(Masking|FlatSum|WrappingSum)",
    f"adm denominator:4=adm::cpu{T}Denominator",
    f"adm other:4=adm::cpu{T}",
    f"motion SAD:2=motion{T}",
]
stages = []  # (name, runs, regex)
for spec in sys.argv[5:] or VMAF_STAGES:
    head, regex = spec.split("=", 1)
    name, runs = head.rsplit(":", 1)
    stages.append((name, int(runs), re.compile(regex)))


def functions():
    """demangled name -> (start, size) of the functions matching a SYMBOL."""
    out = subprocess.run(["nm", "-S", "-C", "--defined-only", binary], capture_output=True,
                         text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split(" ", 3)
        if len(parts) == 4 and parts[2] in "tTwW" and any(r.search(parts[3]) for _, _, r in stages):
            found[parts[3]] = (int(parts[0], 16), int(parts[1], 16))
    return found


def callgrind_counts():
    """function name -> {runtime address: Ir}, self cost only."""
    names = {}
    counts = collections.defaultdict(lambda: collections.defaultdict(int))
    fn = None
    addr = 0
    skip_next = False
    with open(cg_out) as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"fn=\((\d+)\)(?: (.*))?$", line)
            if m:
                if m.group(2):
                    names[m.group(1)] = m.group(2)
                fn = names[m.group(1)]
                continue
            m = re.match(r"c?fn=\((\d+)\) (.*)$", line)
            if m:
                names[m.group(1)] = m.group(2)
                continue
            if line.startswith("calls="):
                skip_next = True
                continue
            # positions "instr line": address, line, Ir
            m = re.match(r"(0x[0-9a-f]+|[+-]\d+|\*)\s+(?:0x[0-9a-f]+|[+-]?\d+|\*)\s+(\d+)", line)
            if m and fn is not None:
                p = m.group(1)
                if p.startswith("0x"):
                    addr = int(p, 16)
                elif p != "*":
                    addr += int(p)
                if skip_next:
                    skip_next = False
                    continue
                counts[fn][addr] += int(m.group(2))
    return counts


def disassemble(start, size):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-C", f"--start-address={start}",
                          f"--stop-address={start + size}", binary], capture_output=True,
                         text=True, check=True).stdout
    insns = []
    for line in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)$", line)
        if m:
            text = re.sub(r"\s*#.*$", "", m.group(2)).strip()
            text = re.sub(r"\s+<.*$", "", text)
            insns.append((int(m.group(1), 16), text))
    return insns


# Padding and calls, which llvm-mca cannot parse or time as objdump writes them.
SKIPPED = re.compile(r"^(nop|xchg\s+%ax,%ax|cs |ds |data16|call|ret|notrack|endbr64|int3|ud2)")


def mca_cycles(texts):
    """llvm-mca's steady-state cycles an iteration of `texts` as one block."""
    lines = [".Ltop:"] + [re.sub(r"^(j[a-z]+)\s.*$", r"\1 .Ltop", t) for t in texts
                          if not SKIPPED.match(t)]
    if len(lines) == 1:
        return 0.0
    out = subprocess.run(["llvm-mca", f"-mcpu={mcpu}", "-iterations=100"],
                         input="\n".join(lines), capture_output=True, text=True).stdout
    m = re.search(r"Total Cycles:\s+(\d+)", out)
    if not m:
        sys.exit(f"llvm-mca failed on:\n" + "\n".join(lines))
    return int(m.group(1)) / 100


counts = callgrind_counts()
stage_ir = collections.defaultdict(int)
stage_bound = collections.defaultdict(float)
for name, (start, size) in sorted(functions().items()):
    ran = counts.get(name)
    if not ran:
        continue
    insns = disassemble(start, size)
    # The runtime load offset: the function's entry ran at its lowest address.
    offset = 0 if start in ran else min(ran) - start
    ir = {a: ran.get(a + offset, 0) for a, _ in insns}
    loops = []  # (top, jump address)
    for a, t in insns:
        m = re.match(r"j[a-z]+\s+([0-9a-f]+)$", t)
        if m and int(m.group(1), 16) <= a and ir[a] > 0:  # backward jumps that never ran own nothing
            loops.append((int(m.group(1), 16), a))
    owner = {}
    for a, _ in insns:
        inside = [lp for lp in loops if lp[0] <= a <= lp[1]]
        if inside:
            owner[a] = min(inside, key=lambda lp: lp[1] - lp[0])
    bound = 0.0
    loose = 0
    for lp in loops:
        iterations = ir[lp[1]]
        own = [(a, t) for a, t in insns if owner.get(a) == lp]
        common = [t for a, t in own if ir[a] * 2 >= iterations]
        loose += sum(ir[a] for a, _ in own if ir[a] * 2 < iterations)
        bound += mca_cycles(common) * iterations
    loose += sum(ir[a] for a, _ in insns if a not in owner)
    bound += loose / 4
    fn_ir = sum(ir.values())
    stage = next(s for s in stages if s[2].search(name))
    stage_ir[stage[0]] += fn_ir
    stage_bound[stage[0]] += bound
    print(f"{fn_ir:>14,} Ir {bound:>16,.0f} bound cycles ({fn_ir / max(bound, 1):.2f} Ir a cycle)"
          f"  [{stage[0]}] {name[:100]}")
print(f"\n| stage | Ir a run (M) | bound a run, Mcycles | ms at {ghz} GHz | Ir a bound cycle |")
print("|---|---:|---:|---:|---:|")
for name, runs, _ in stages:
    ir, bound = stage_ir[name] / runs, stage_bound[name] / runs
    print(f"| {name} | {ir / 1e6:.2f} | {bound / 1e6:.2f} | {bound / ghz / 1e6:.3f} |"
          f" {ir / max(bound, 1):.2f} |")
