#!/usr/bin/env python3
"""Where a run's cores idle, from its trace (EXACTVQ_TRACE=FILE exactvq ...; core/run_trace.h).

    bench/run_trace_summary.py TRACE.json [--cores N]

Busy: a thread inside any span but the main thread's waits ("wait for read", and "collect"
where it runs no task). Over the scoring loop (the first "wait for read" to the last span's
end) it prints the wall time, the mean busy threads (reader threads count too), the time at
each count of busy threads, the idle core-seconds (cores less busy threads) by what the main
thread was doing meanwhile, and each kind of span's count and durations. A feature's spans
carry its first output's name: its batch task (", batch": posted, one a batch) and its frame
tasks (", frame": a pool loop's tasks, on any thread).
"""
import argparse, bisect, collections, json, os, statistics

WAITS = {"wait for read", "collect"}


def union(intervals):
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def nest(spans):
    """Each span's parent on its thread (spans on one thread nest)."""
    by_tid = collections.defaultdict(list)
    for e in spans:
        by_tid[e["tid"]].append(e)
    for evs in by_tid.values():
        evs.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in evs:
            while stack and stack[-1]["end"] <= e["ts"]:
                stack.pop()
            e["parent"] = stack[-1] if stack else None
            stack.append(e)


def kind(e):
    if e["name"] in ("task", "read", "wait for read", "collect", "submit", "loop"):
        return e["name"] + ("" if e["tid"] else " (main)")
    p = e["parent"]
    return e["name"] + (", batch" if p is not None and p["name"] == "task" else ", frame")


def main_states(spans, t0, t1):
    """(start times, states): the main thread's innermost span, piecewise."""
    main = sorted((e for e in spans if e["tid"] == 0), key=lambda e: (e["ts"], -e["dur"]))
    points = sorted({t0, t1, *(e["ts"] for e in main), *(e["end"] for e in main)})
    starts, states = [], []
    i, stack = 0, []
    for t in points:
        # Spans on one thread nest: those still open at t, outermost first.
        while i < len(main) and main[i]["ts"] <= t:
            stack.append(main[i])
            i += 1
        stack = [e for e in stack if e["end"] > t]
        if not stack:
            state = "outside the loop's spans"
        elif stack[-1]["name"] == "collect":
            state = "collect, sleeping"
        elif stack[-1]["name"] == "wait for read":
            state = "wait for read"
        elif any(e["name"] == "collect" for e in stack):
            state = "collect, running a task"
        else:
            state = stack[-1]["name"]
        starts.append(t)
        states.append(state)
    return starts, states


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--cores", type=int, default=os.cpu_count())
    a = ap.parse_args()
    spans = [e for e in json.load(open(a.trace))["traceEvents"] if e.get("ph") == "X"]
    if not spans:
        raise SystemExit(f"{a.trace}: no spans")
    for e in spans:
        e["end"] = e["ts"] + e["dur"]
    nest(spans)
    loop = [e["ts"] for e in spans if e["name"] == "wait for read" and e["tid"] == 0]
    t0 = min(loop) if loop else min(e["ts"] for e in spans)
    t1 = max(e["end"] for e in spans)

    edges = collections.Counter()
    busy = collections.defaultdict(list)
    for e in spans:
        if e["name"] not in WAITS:
            busy[e["tid"]].append((max(e["ts"], t0), max(e["end"], t0)))
    for iv in busy.values():
        for s, e in union(iv):
            if e > s:
                edges[s] += 1
                edges[e] -= 1
    starts, states = main_states(spans, t0, t1)
    marks = sorted({t0, t1, *starts, *(t for t in edges if t0 <= t <= t1)})

    level, k = 0, 0
    running = sorted(edges.items())
    at_level = collections.Counter()
    idle_by_state = collections.Counter()
    for t, u in zip(marks, marks[1:]):
        while k < len(running) and running[k][0] <= t:
            level += running[k][1]
            k += 1
        at_level[level] += u - t
        if level < a.cores:
            state = states[max(0, bisect.bisect_right(starts, t) - 1)]
            idle_by_state[state] += (a.cores - level) * (u - t)

    wall = (t1 - t0) / 1e6
    total_busy = sum(n * d for n, d in at_level.items()) / 1e6
    print(f"scoring loop {wall:.3f} s, mean busy threads {total_busy / wall:.2f} on {a.cores} cores")
    print("\n| busy threads | share of the loop's time |\n|---:|---:|")
    for n in sorted(at_level):
        print(f"| {n} | {100 * at_level[n] / (t1 - t0):.1f}% |")
    idle = sum(idle_by_state.values()) / 1e6
    print(f"\nidle core-seconds {idle:.3f} ({100 * idle / (wall * a.cores):.1f}% of the cores' time),"
          " by the main thread's state:")
    print("\n| main thread | idle core-seconds | share |\n|---|---:|---:|")
    for s, v in idle_by_state.most_common():
        print(f"| {s} | {v / 1e6:.3f} | {100 * v / 1e6 / idle if idle else 0:.1f}% |")

    print("\n| span | count | total s | median ms | max ms |\n|---|---:|---:|---:|---:|")
    by_kind = collections.defaultdict(list)
    for e in spans:
        by_kind[kind(e)].append(e["dur"] / 1e3)
    for name, d in sorted(by_kind.items(), key=lambda kv: -sum(kv[1])):
        print(f"| {name} | {len(d)} | {sum(d) / 1e3:.3f} | {statistics.median(d):.2f} | {max(d):.2f} |")


if __name__ == "__main__":
    main()
