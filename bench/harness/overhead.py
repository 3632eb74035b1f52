"""Collection side: every workload under every profiler configuration, interleaved, repeated.

Runs alternate between configurations inside each repetition (and the order rotates from one
repetition to the next), so a burst of load from other users of the machine spreads over all
configurations instead of landing on one. Figures are medians over the repetitions.
"""
import os
import re
import shutil
import statistics
import sys
from dataclasses import dataclass, field

import proc
import tools


@dataclass
class Sample:
    run: proc.Run
    rec: tools.Recording = None
    truth: dict = field(default_factory=dict)   # tid -> thread CPU ns, from the workload itself
    count: int = 0                               # operations the workload reports (per-call costs)


def read_truth(path):
    truth, count = {}, 0
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r"tid=(\d+) cpu_ns=(\d+)", line)
                if m:
                    truth[int(m.group(1))] = int(m.group(2))
                m = re.match(r"count=(\d+)", line)
                if m:
                    count += int(m.group(1))
    except OSError:
        pass
    return truth, count


def configs_for(wl, quick=False):
    # --quick runs every tool and parser once; perf and gprofng at 1 ms add no new code path.
    skip = ("perf-hi", "gprofng-hi") if quick else ()
    return [c for c in _configs_for(wl) if tools.installed(c.tool) and c.key not in skip]


def _configs_for(wl):
    if wl.extra == "heap":
        return tools.clock_configs()[:1] + tools.heap_configs()
    if wl.extra == "sync":
        return tools.clock_configs()[:1] + tools.sync_configs()
    if wl.name == "noop":  # the fixed cost of every configuration, subtracted from per-call costs
        return tools.clock_configs() + tools.heap_configs() + tools.sync_configs()
    return tools.clock_configs()


def run_matrix(ctx, workloads, reps, keep_dir):
    """Returns {(workload, config key): [Sample]} and keeps repetition 0's recordings in keep_dir
    (the analysis section reads some of them)."""
    results = {}
    plan = []
    factor = (lambda w: 1) if ctx.quick else (lambda w: w.reps_factor)
    for rep in range(max(reps * factor(w) for w in workloads)):
        for wi, wl in enumerate(workloads):
            if rep >= reps * factor(wl):
                continue
            cfgs = configs_for(wl, ctx.quick)
            k = (rep + wi) % len(cfgs)
            plan += [(rep, wl, c) for c in cfgs[k:] + cfgs[:k]]
    scratch = os.path.join(ctx.work, "runs")
    os.makedirs(scratch, exist_ok=True)
    for i, (rep, wl, cfg) in enumerate(plan, 1):
        outdir = keep_dir if rep == 0 else scratch
        os.makedirs(outdir, exist_ok=True)
        tag = f"{wl.name}-{cfg.key}"
        artifact = cfg.artifact(outdir, tag)
        truth_path = os.path.join(scratch, tag + ".truth")
        for p in (artifact, truth_path, artifact + ".zst", artifact + ".gz"):
            _remove(p)
        argv = wl.quick_argv if ctx.quick else wl.argv
        cmd = cfg.command(ctx, wl, argv, artifact)
        run = proc.measure(cmd, env={"BENCH_THREAD_REPORT": truth_path}, timeout=ctx.run_timeout, scratch=scratch)
        s = Sample(run)
        s.truth, s.count = read_truth(truth_path)
        if cfg.tool != "none" and run.ok:
            s.rec = cfg.read(ctx, artifact)
        results.setdefault((wl.name, cfg.key), []).append(s)
        status = f"{run.wall:7.3f} s" if run.ok else f"FAILED ({run.why_failed()})"
        print(f"[{i:3}/{len(plan)}] rep {rep} {wl.name:10} {cfg.key:15} {status}", file=sys.stderr, flush=True)
        if rep != 0:
            for p in (artifact, artifact + ".zst", artifact + ".gz"):
                _remove(p)
    return results


def _remove(path):
    if os.path.isdir(path):
        shutil.rmtree(path, ignore_errors=True)
    elif os.path.exists(path):
        os.unlink(path)


# ---- figures --------------------------------------------------------------------------------

def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def med_wall(results, wl, key):
    return median([s.run.wall for s in results.get((wl, key), []) if s.run.ok])


def med_cpu(results, wl, key):
    return median([s.run.cpu for s in results.get((wl, key), []) if s.run.ok])


def failures(results, wl, key):
    return [s.run.why_failed() for s in results.get((wl, key), []) if not s.run.ok]


def overhead(results, wl, key, metric=med_wall):
    base, v = metric(results, wl, "base"), metric(results, wl, key)
    if base is None or v is None or base <= 0:
        return None
    return v / base - 1.0


def fidelity(results, wl, key, min_expected=10):
    """Per repetition: per-thread recorded/expected samples (threads expected to get at least
    min_expected samples), total recorded/expected, recorded CPU / kernel CPU, threads with data
    vs threads that worked. Medians over repetitions."""
    per_rep = []
    for s in results.get((wl, key), []):
        if not s.run.ok or not s.rec or not s.truth or not s.rec.interval_ns:
            continue
        iv = s.rec.interval_ns
        busy = {t: ns for t, ns in s.truth.items() if ns / iv >= min_expected}
        expected = sum(ns / iv for ns in busy.values())
        true_cpu = sum(s.truth.values())
        # Over the busy threads when the tool has per-thread counts: an idle main thread may carry
        # samples taken while it was blocked (erkit records those for wall-clock microstates).
        recorded = (sum(s.rec.samples_by_tid.get(t, 0) for t in busy) if s.rec.samples_by_tid is not None
                    else s.rec.samples)
        r = {
            "threads_busy": len(busy),
            "threads_data": s.rec.threads_with_data,
            "expected": expected,
            "recorded": recorded,
            "other": s.rec.other_samples,
            "total_ratio": recorded / expected if expected else None,
            "cpu_ratio": s.rec.cpu_ns / true_cpu if true_cpu else None,
            "per_thread": None,
        }
        if s.rec.samples_by_tid is not None and busy:
            r["per_thread"] = [s.rec.samples_by_tid.get(t, 0) / (ns / iv) for t, ns in busy.items()]
        per_rep.append(r)
    if not per_rep:
        return None
    out = {k: median([r[k] for r in per_rep]) for k in ("threads_busy", "threads_data", "expected", "recorded",
                                                         "other", "total_ratio", "cpu_ratio")}
    pts = [r["per_thread"] for r in per_rep if r["per_thread"]]
    out["thread_min"] = median([min(p) for p in pts]) if pts else None
    out["thread_max"] = median([max(p) for p in pts]) if pts else None
    return out


def bytes_per_sample(results, wl, key):
    vals = [s.rec.bytes / s.rec.samples for s in results.get((wl, key), [])
            if s.run.ok and s.rec and s.rec.samples]
    sizes = [s.rec.bytes for s in results.get((wl, key), []) if s.run.ok and s.rec]
    samples = [s.rec.samples for s in results.get((wl, key), []) if s.run.ok and s.rec]
    return median(vals), median(sizes), median(samples)


def per_call_ns(results, wl, key, metric=med_wall):
    """Extra time per counted operation (allocation, lock call) over the uninstrumented run, less
    the configuration's fixed start/stop cost measured on the empty program."""
    counts = [s.count for s in results.get((wl, "base"), []) if s.count]
    base, v = metric(results, wl, "base"), metric(results, wl, key)
    if not counts or base is None or v is None:
        return None
    n0, f0 = metric(results, "noop", "base"), metric(results, "noop", key)
    fixed = f0 - n0 if n0 is not None and f0 is not None else 0.0
    return (v - base - fixed) / median(counts) * 1e9


def trace_recorded(results, wl, key):
    """True/False whether the tracer wrote any records (erkit), None when unknown."""
    vals = [s.rec.trace_events for s in results.get((wl, key), []) if s.rec and s.rec.trace_events >= 0]
    return (max(vals) > 0) if vals else None


def inside_cost(results, wl, key):
    """What erkit measured inside the process (the exit line's cost_* fields), as fractions of the
    process's CPU time: medians over repetitions of handler, collector threads, start + exit, total,
    and the signals and nanoseconds per signal. None when no run recorded it."""
    reps = []
    for s in results.get((wl, key), []):
        c = s.rec.cost if s.run.ok and s.rec else None
        if not c or not c.get("process_cpu_ns"):
            continue
        cpu = c["process_cpu_ns"]
        startexit = c.get("cost_start_cpu_ns", 0) + c.get("cost_exit_cpu_ns", 0)
        reps.append({
            "handler": c.get("cost_signal_ns", 0) / cpu,
            "threads": c.get("cost_helper_cpu_ns", 0) / cpu,
            "startexit": startexit / cpu,
            "total": (c.get("cost_signal_ns", 0) + c.get("cost_helper_cpu_ns", 0) + startexit) / cpu,
            "signals": c.get("cost_signals", 0),
            "signals_per_cpu_s": c.get("cost_signals", 0) / (cpu / 1e9),
            "ns_per_signal": c.get("cost_signal_ns", 0) / c["cost_signals"] if c.get("cost_signals") else None,
        })
    if not reps:
        return None
    return {k: median([r[k] for r in reps]) for k in reps[0]}


def fixed_cpu_ns(results, key):
    """Extra CPU time of the configuration on the empty program (collect, loader, start, exit,
    archiving): what every run pays once."""
    n0, f0 = med_cpu(results, "noop", "base"), med_cpu(results, "noop", key)
    return None if n0 is None or f0 is None else max(0.0, f0 - n0) * 1e9


def attributable(results, wl, key, delivery_ns):
    """The overhead assembled from parts each measured on its own: in-process cost of every signal
    and collector thread (inside_cost), the kernel's delivery of each signal (unwind_bench's empty
    handler), and the fixed cost of a run (fixed_cpu_ns) over the workload's CPU. Robust where the
    difference of two noisy medians is not."""
    ic = inside_cost(results, wl, key)
    base = med_cpu(results, wl, "base")
    fixed = fixed_cpu_ns(results, key)
    if ic is None or base is None or fixed is None or delivery_ns is None:
        return None
    delivery = ic["signals_per_cpu_s"] * delivery_ns / 1e9
    parts = {"handler": ic["handler"], "threads": ic["threads"], "delivery": delivery, "fixed": fixed / (base * 1e9)}
    parts["total"] = sum(parts.values())
    return parts


def thread_cpu_delta(results, wl, key):
    """The program's own threads' CPU time (the kernel's, written by the workload) under the
    configuration over the uninstrumented runs, minus one: the signal handler, its delivery and any
    indirect cost (caches, preemption by the collector's threads) as the program's threads paid it,
    without the collector's threads, collect or the loader. None without per-thread truth."""
    def sums(k):
        return [sum(s.truth.values()) for s in results.get((wl, k), []) if s.run.ok and s.truth]
    b, v = median(sums("base")), median(sums(key))
    return None if not b or v is None else v / b - 1.0
