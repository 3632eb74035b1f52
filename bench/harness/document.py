"""Assembles docs/performance.md: targets, reading, tables, machine, commands."""
import re

import overhead as ov
import report as rp

CPU_BOUND = ["cpu1", "cpu4", "deepstack", "xz", "python"]


def unwind_figures(text):
    """{"warm"|"cold"|"delivery_only": (CPU ns per signal, in-handler wall ns)} from unwind_bench's
    InSignal benchmarks (medians when run with repetitions). The in-handler figure is wall time
    and grows when the benchmark thread is preempted on a busy machine; the CPU time per signal
    minus that of an empty handler (delivery_only) is the robust cost of the unwind itself."""
    out = {}
    scale = {"": 1.0, "k": 1e3, "M": 1e6}
    # "BM_InSignal/cold_median  5927 ns  1945 ns  3 in_handler_ns=3.32772k": wall, CPU, iterations, counter.
    pat = r"^BM_InSignal/(warm|cold|delivery_only)(_median)?\s+[\d.]+ ns\s+([\d.]+) ns\s+\d+\s+in_handler_ns=([\d.]+)([kM]?)"
    for m in re.finditer(pat, text, re.M):
        out[m.group(1)] = (float(m.group(3)), float(m.group(4)) * scale[m.group(5)])
    return out


def _range(vals):
    vals = [v for v in vals if v is not None]
    if not vals:
        return "–"
    lo, hi = min(vals), max(vals)
    return rp.pct(lo) if abs(hi - lo) < 1e-9 else f"{rp.pct(lo)} … {rp.pct(hi)}"


def _verdict(ok):
    return {True: "met", False: "**not met**", None: "not measurable yet"}[ok]


def delivery_ns(d):
    """CPU of one signal delivered to an empty handler (unwind_bench), None when not measured."""
    u = unwind_figures(d.unwind_text or "")
    return u["delivery_only"][0] if "delivery_only" in u else None


def targets(d):
    r, rows = d.results, []
    for rate, limit in (("on", 0.01), ("hi", 0.03)):
        w = ov.overhead(r, "cpu4", f"erkit-{rate}")
        c = ov.overhead(r, "cpu4", f"erkit-{rate}", ov.med_cpu)
        a = ov.attributable(r, "cpu4", f"erkit-{rate}", delivery_ns(d))
        # Verdict on the overhead assembled from parts measured one by one (section 2b): on a shared
        # 2-core VM the medians of whole runs move by more than the target (see the spread in table 1).
        x = ov.thread_cpu_delta(r, "cpu4", f"erkit-{rate}")
        measured = f"program threads' CPU by the kernel {rp.pct(x)}; whole-run medians: CPU {rp.pct(c)}, wall {rp.pct(w)}"
        if a:
            measured = (f"parts measured in each run: {rp.pct(a['total'])} (collector threads {rp.pct(a['threads'])}, "
                        f"signal handler {rp.pct(a['handler'])}, signal delivery {rp.pct(a['delivery'])}, fixed cost of a "
                        f"run {rp.pct(a['fixed'])}); " + measured)
        rows.append([f"clock profiling overhead, -p {rate}, 4-thread CPU-bound (issue 3)", f"≤ {limit * 100:.0f} %",
                     measured, _verdict(None if a is None else a["total"] <= limit)])
    f = ov.fidelity(r, "cpu4", "erkit-on")
    fh = ov.fidelity(r, "cpu4", "erkit-hi")
    vals = [x["cpu_ratio"] for x in (f, fh) if x and x["cpu_ratio"]]
    rows.append(["per-thread User CPU vs kernel, 4 threads, -p on and hi (issue 3)", "within ±3 %",
                 " / ".join(f"{v:.3f}" for v in vals) or "–",
                 _verdict(None if not vals else all(abs(v - 1) <= 0.03 for v in vals))])
    u = unwind_figures(d.unwind_text or "")
    if all(k in u for k in ("cold", "warm", "delivery_only")):
        cold, warm = u["cold"][0] - u["delivery_only"][0], u["warm"][0] - u["delivery_only"][0]
        rows.append(["unwind 30 frames inside the signal handler (issue 3)", "≤ 2 µs",
                     f"CPU per signal minus an empty handler's: cold cache {cold / 1000:.2f} µs, warm {warm / 1000:.2f} µs "
                     f"(wall inside the handler, inflated by preemption: {u['cold'][1] / 1000:.2f} / {u['warm'][1] / 1000:.2f} µs; "
                     f"signal delivery alone {u['delivery_only'][0] / 1000:.2f} µs)",
                     _verdict(cold <= 2000)])
    else:
        rows.append(["unwind 30 frames inside the signal handler (issue 3)", "≤ 2 µs", "unwind_bench not built", _verdict(None)])
    c10k = next((c for c in d.synth if c.events == 10_000), None)
    if c10k:
        t = c10k.timings.get("calltree")
        alt = c10k.timings.get("callers-callees")
        if t and t.wall is not None:
            rows.append(["call tree, 10 k samples, unique 100-frame stacks (issue 5)", "≤ 0.5 s",
                         rp.timing_cell(t), _verdict(t.wall <= 0.5)])
        else:
            rows.append(["call tree, 10 k samples, unique 100-frame stacks (issue 5)", "≤ 0.5 s",
                         "er_print has no call tree yet; callers-callees of the same experiment: " + rp.timing_cell(alt),
                         _verdict(None)])
    # Per-call verdicts use CPU time (whole process tree, heaptrack's interpreter process included):
    # on a shared machine wall time also counts waiting for a CPU.
    heap_c, ht_c = ov.per_call_ns(r, "mallocs-trace", "erkit-heap", ov.med_cpu), ov.per_call_ns(r, "mallocs-trace", "heaptrack", ov.med_cpu)
    heap_w, ht_w = ov.per_call_ns(r, "mallocs-trace", "erkit-heap"), ov.per_call_ns(r, "mallocs-trace", "heaptrack")
    recorded = ov.trace_recorded(r, "mallocs-trace", "erkit-heap")
    rows.append(["heap tracing cost per allocation vs heaptrack (issue 8)", "≥ 2× cheaper",
                 f"CPU: erkit {rp.sec(heap_c, 0)} ns, heaptrack {rp.sec(ht_c, 0)} ns; wall: erkit {rp.sec(heap_w, 0)} ns, "
                 f"heaptrack {rp.sec(ht_w, 0)} ns" + _why_none(r, "mallocs-trace", "erkit-heap", recorded),
                 _verdict(None if not recorded or heap_c is None or ht_c is None else heap_c * 2 <= ht_c)])
    lk_c, lk_w = ov.per_call_ns(r, "locks-trace", "erkit-sync-on", ov.med_cpu), ov.per_call_ns(r, "locks-trace", "erkit-sync-on")
    rec_all = ov.trace_recorded(r, "locks-trace", "erkit-sync-all")
    rows.append(["uncontended lock tracing cost per lock+unlock, -s on (issue 8)", "≤ 50 ns",
                 f"CPU {rp.sec(lk_c, 1)} ns, wall {rp.sec(lk_w, 1)} ns" + _why_none(r, "locks-trace", "erkit-sync-all", rec_all),
                 _verdict(None if not rec_all or lk_c is None else lk_c <= 50)])
    return (rp.table(["target", "goal", "measured", "verdict"], rows) +
            "\nVerdicts on clock-profiling overhead use the parts erkit measures inside every run (section 2b) plus "
            "the kernel's signal delivery and the fixed cost of a run; verdicts on per-call cost use CPU time (user + "
            "system of the whole process tree). On this shared machine wall-clock medians move by more than the "
            "targets.\n")


def reading(d):
    r, out, behind = d.results, [], []
    names = [w.name for w in d.workloads if w.name in CPU_BOUND]
    for rate in ("on", "hi"):
        e = [ov.overhead(r, n, f"erkit-{rate}") for n in names]
        p = [ov.overhead(r, n, f"perf-{rate}") for n in names]
        g = [ov.overhead(r, n, f"gprofng-{rate}") for n in names]
        ec = [ov.overhead(r, n, f"erkit-{rate}", ov.med_cpu) for n in names]
        pc = [ov.overhead(r, n, f"perf-{rate}", ov.med_cpu) for n in names]
        out.append(f"- **Overhead at -p {rate}** on the CPU-bound workloads ({', '.join(names)}): wall erkit {_range(e)}, "
                   f"perf {_range(p)}, gprofng {_range(g)}; CPU time erkit {_range(ec)}, perf {_range(pc)}.")
        for n in names:
            if _worse(ov.med_wall(r, n, f"erkit-{rate}"), ov.med_wall(r, n, f"perf-{rate}")):
                behind.append(f"wall time at -p {rate} on {n}: erkit {rp.sec(ov.med_wall(r, n, f'erkit-{rate}'), 2)} s, "
                              f"perf {rp.sec(ov.med_wall(r, n, f'perf-{rate}'), 2)} s")
    for n in ("mallocs", "locks", "forkexec"):
        if any(w.name == n for w in d.workloads):
            out.append(f"- **Clock profiling on {n}** (no tracing asked for): wall erkit -p on "
                       f"{rp.pct(ov.overhead(r, n, 'erkit-on'))}, perf {rp.pct(ov.overhead(r, n, 'perf-on'))}, "
                       f"gprofng {rp.pct(ov.overhead(r, n, 'gprofng-on'))}; CPU erkit "
                       f"{rp.pct(ov.overhead(r, n, 'erkit-on', ov.med_cpu))}, perf "
                       f"{rp.pct(ov.overhead(r, n, 'perf-on', ov.med_cpu))}.")
            if _worse(ov.med_cpu(r, n, "erkit-on"), ov.med_cpu(r, n, "perf-on"), 0.1):
                behind.append(f"CPU time at -p on on {n}: erkit {rp.pct(ov.overhead(r, n, 'erkit-on', ov.med_cpu))}, "
                              f"perf {rp.pct(ov.overhead(r, n, 'perf-on', ov.med_cpu))}")
    base = ov.med_wall(r, "noop", "base")
    fixed = {k: ov.med_wall(r, "noop", k) for k in ("erkit-on", "perf-on", "gprofng-on")}
    if base is not None and all(v is not None for v in fixed.values()):
        out.append("- **Fixed cost** of profiling an empty program: " + ", ".join(
            f"{k.split('-')[0]} {(v - base) * 1000:.0f} ms" for k, v in fixed.items()) + ".")
        if fixed["erkit-on"] > min(fixed["perf-on"], fixed["gprofng-on"]) * 1.1:
            behind.append("fixed start/stop cost")
    for n in ("cpu1", "cpu4"):
        parts = []  # CPU-timer samples / expected
        for k in rp.clock_keys(r):
            f = ov.fidelity(r, n, k)
            if f:
                parts.append(f"{k} {rp.sec(f['total_ratio'], 2)} samples / {rp.sec(f['cpu_ratio'], 2)} CPU")
        if parts:
            out.append(f"- **Fidelity on {n}** (recorded/expected samples, recorded/kernel CPU): " + "; ".join(parts) + ".")
    for k in ("erkit-on", "erkit-hi"):
        f = ov.fidelity(r, "cpu4", k)
        if f and f["cpu_ratio"] is not None and abs(f["cpu_ratio"] - 1) > 0.03:
            behind.append(f"CPU time recorded on cpu4 at {k}: {f['cpu_ratio']:.3f} of the kernel's")
    # Complete stacks only: perf's -g on the no-frame-pointer builds records truncated stacks.
    sizes = {a.tool: (a.bytes / a.samples, a.samples) for a in d.compare if a.samples}
    if "erkit" in sizes and "perf" in sizes:
        out.append("- **Bytes per sample** with complete, unique ~100-frame stacks (section 8): " +
                   ", ".join(f"{t} {b:,.0f} ({n:,} samples)" for t, (b, n) in sizes.items()) +
                   ". erkit's files grow in 64 KiB blocks per data kind, which dominates below a few thousand samples.")
        erk = next(a for a in d.compare if a.tool == "erkit")
        if erk.payload:
            out.append(f"  Counting erkit's records alone (what each further sample costs): {erk.payload / erk.samples:,.0f} "
                       "bytes per sample.")
        if sizes["erkit"][0] > sizes["perf"][0] * 1.1:
            behind.append(f"experiment size: {sizes['erkit'][0]:,.0f} bytes per deep-stack sample, perf {sizes['perf'][0]:,.0f}")
    c10k = next((c for c in d.synth if c.events == 10_000), None)
    perf = next((a for a in d.compare if a.tool == "perf"), None)
    if c10k and perf:
        for view, pview in (("functions", "functions"), ("calltree", "calltree")):
            e, p = c10k.timings.get(view), perf.timings.get(pview)
            if e and p and e.wall is not None and p.wall is not None:
                out.append(f"- **{view} of ~10 k samples with unique ~100-frame stacks**: erkit {e.wall:.2f} s / "
                           f"{e.maxrss_kb / 1024:.0f} MB (synthetic, 10,000 samples), perf {p.wall:.2f} s / "
                           f"{p.maxrss_kb / 1024:.0f} MB (real recording, {perf.samples:,} samples).")
                if e.wall > p.wall * 1.1 or e.maxrss_kb > p.maxrss_kb * 1.1:
                    behind.append(f"{view} on deep unique stacks vs perf report")
    if len(d.synth) >= 2:
        first, last = d.synth[0], d.synth[-1]
        tf, tl = first.timings.get("functions"), last.timings.get("functions")
        if tf and tl and tf.wall and tl.wall:
            out.append(f"- **Analysis scaling**: the function list takes {tf.wall:.2f} s at {first.name} events and "
                       f"{tl.wall:.2f} s / {tl.maxrss_kb / 1024:.0f} MB at {last.name}.")
    cold = {t: a for t, a, _ in d.cold if a.wall is not None}
    if "erkit" in cold:
        out.append("- **Cold start** (function list of the Python recording): " +
                   ", ".join(f"{t} {a.wall:.2f} s" for t, a in cold.items()) + ".")
        if any(cold["erkit"].wall > a.wall * 1.1 for t, a in cold.items() if t != "erkit"):
            behind.append("cold start of the function list on the Python recording")
    if behind:
        out.append("- **Where erkit is behind** in this run: " + "; ".join(behind) + ".")
    return "\n".join(out) + "\n"


def _why_none(r, wl, key, recorded):
    if recorded:
        return ""
    fails = ov.failures(r, wl, key)
    if fails:
        return f" (erkit: {fails[0]})"
    return " (erkit recorded no trace events)"


def _worse(a, b, margin=0.01):
    return a is not None and b is not None and a > b * (1 + margin)
