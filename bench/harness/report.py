"""docs/performance.md: the tables of one run, the machine, the commands, the targets next to
the measured values, and a reading generated from the numbers (so it cannot drift from them)."""
import os

import overhead as ov
import tools

CLOCK = ["erkit-on", "perf-on", "gprofng-on", "erkit-hi", "perf-hi", "gprofng-hi"]


def clock_keys(results):
    """The clock configurations that ran (--quick leaves some out)."""
    ran = {k for (_, k) in results}
    return [k for k in CLOCK if k in ran]


def pct(x):
    return "–" if x is None else f"{x * 100:+.1f} %"


def sec(x, digits=3):
    return "–" if x is None else f"{x:.{digits}f}"


def ratio(a, b):
    return "–" if a is None or b is None or b <= 0 else f"{a / b:.2f}"


def mb(kb):
    return "–" if kb is None else f"{kb / 1024:.0f}"


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def cell(results, wl, key, fn):
    fails = ov.failures(results, wl, key)
    v = fn(results, wl, key)
    if v is None and fails:
        return f"failed ({fails[0]})"
    return pct(v) + (f" ({len(fails)} failed)" if fails else "")


def overhead_tables(results, wls):
    label = {c.key: c.label for c in tools.clock_configs()}
    keys = clock_keys(results)
    hdr = ["workload", "uninstrumented s (spread)"] + [label[k] for k in keys]
    rows_w, rows_c, rows_r = [], [], []
    for w in wls:
        if w.name == "noop" or w.extra:
            continue
        base = [s.run.wall for s in results.get((w.name, "base"), []) if s.run.ok]
        spread = f"{sec(ov.median(base))} (±{(max(base) - min(base)) / 2 / ov.median(base) * 100:.0f} %)" if base else "–"
        rows_w.append([w.name, spread] + [cell(results, w.name, k, ov.overhead) for k in keys])
        cbase = ov.med_cpu(results, w.name, "base")
        rows_c.append([w.name, sec(cbase)] + [cell(results, w.name, k, lambda r, a, b: ov.overhead(r, a, b, ov.med_cpu))
                                              for k in keys])
        m = lambda k: ov.med_wall(results, w.name, k)
        rows_r.append([w.name, ratio(m("erkit-on"), m("perf-on")), ratio(m("erkit-on"), m("gprofng-on")),
                       ratio(m("erkit-hi"), m("perf-hi")), ratio(m("erkit-hi"), m("gprofng-hi"))])
    return (table(hdr, rows_w), table(["workload", "uninstrumented CPU s"] + [label[k] for k in keys], rows_c),
            table(["workload", "erkit/perf on", "erkit/gprofng on", "erkit/perf hi", "erkit/gprofng hi"], rows_r))


def inside_cost_table(results, wls, delivery_ns):
    """Section 2b: what erkit measured inside each run, and the overhead assembled from it."""
    rows = []
    for w in wls:
        if w.name == "noop" or w.extra:
            continue
        for k in ("erkit-on", "erkit-hi"):
            ic = ov.inside_cost(results, w.name, k)
            a = ov.attributable(results, w.name, k, delivery_ns)
            if ic is None:
                continue
            per = "–" if ic["ns_per_signal"] is None else f"{ic['ns_per_signal'] / 1000:.1f}"
            rows.append([w.name, k, f"{ic['signals']:.0f}", per, pct(ic["handler"]), pct(ic["threads"]),
                         pct(ic["startexit"]), pct(ic["total"]), "–" if a is None else pct(a["delivery"]),
                         "–" if a is None else pct(a["fixed"]), "–" if a is None else pct(a["total"]),
                         pct(ov.thread_cpu_delta(results, w.name, k))])
    return table(["workload", "config", "signals", "µs in handler per signal", "handler", "collector threads",
                  "start + exit", "inside total", "+ signal delivery", "+ fixed cost of a run", "= overhead",
                  "cross-check: program threads' CPU (kernel)"], rows)


def fixed_cost_table(results):
    rows = []
    base = ov.med_wall(results, "noop", "base")
    for c in tools.clock_configs() + tools.heap_configs() + tools.sync_configs():
        if c.key != "base" and not results.get(("noop", c.key)):
            continue
        v = ov.med_wall(results, "noop", c.key)
        fails = ov.failures(results, "noop", c.key)
        extra = "–" if v is None or base is None else f"{(v - base) * 1000:.0f}"
        rows.append([c.label, "–" if v is None else f"{v * 1000:.1f}", extra, f"{len(fails)} failed" if fails else ""])
    return table(["configuration", "wall ms (median)", "added ms", ""], rows)


def fidelity_table(results, wls):
    label = {c.key: c.label for c in tools.clock_configs()}
    rows = []
    for w in wls:
        if not w.truth:
            continue
        for k in clock_keys(results):
            f = ov.fidelity(results, w.name, k)
            if f is None:
                rows.append([w.name, label[k], "no data"] + [""] * 5)
                continue
            per = ("n/a" if f["thread_min"] is None
                   else f"{f['thread_min']:.2f}–{f['thread_max']:.2f}")
            rows.append([w.name, label[k], f"{f['threads_data']:.0f} / {f['threads_busy']:.0f}",
                         f"{f['recorded']:.0f} / {f['expected']:.0f}", sec(f["total_ratio"], 2), per,
                         sec(f["cpu_ratio"], 2), f"{f['other']:.0f}" if k.startswith("erkit") else ""])
    return table(["workload", "tool", "threads with samples / busy threads", "CPU-timer samples recorded / expected",
                  "ratio", "per-thread ratio (min–max)", "CPU recorded / kernel", "erkit wait samples"], rows)


def size_table(results, wls):
    label = {c.key: c.label for c in tools.clock_configs()}
    rows = []
    for w in wls:
        if w.name not in ("cpu1", "cpu4", "deepstack", "python"):
            continue
        for k in clock_keys(results):
            bps, size, n = ov.bytes_per_sample(results, w.name, k)
            rows.append([w.name, label[k], "–" if size is None else f"{size / 1024:.0f}",
                         "–" if n is None else f"{n:.0f}", "–" if bps is None else f"{bps:.0f}"])
    return table(["workload", "tool", "experiment KiB", "samples", "bytes / sample"], rows)


def tracing_table(results, wls):
    rows = []
    for w in wls:
        if not w.extra:
            continue
        cfgs = ov.configs_for(w)
        for c in cfgs:
            if c.key in ("base",) or c.key in CLOCK:
                continue
            rec = ov.trace_recorded(results, w.name, c.key)
            rec_s = {True: "yes", False: "**no records**", None: "–"}[rec]
            rows.append([w.name, c.label, sec(ov.per_call_ns(results, w.name, c.key), 1),
                         sec(ov.per_call_ns(results, w.name, c.key, ov.med_cpu), 1), cell(results, w.name, c.key, ov.overhead),
                         rec_s])
    return table(["workload", "tracer", "added ns per call (wall)", "added ns per call (CPU)", "wall overhead",
                  "events recorded"], rows)


def timing_cell(t):
    if t is None:
        return "–"
    if t.wall is None:
        return t.failure
    return f"{t.wall:.2f} s / {t.maxrss_kb / 1024:.0f} MB"


def synth_table(cases, cmds):
    hdr = ["experiment", "events", "stacks × depth", "size MB", "generate s"] + [f"er_print -{c}" for c in cmds]
    rows = []
    for c in cases:
        rows.append([c.name, f"{c.events:,}", f"{c.stacks:,} × {c.depth}", f"{c.bytes / 1e6:.0f}", sec(c.gen_wall, 2)]
                    + [timing_cell(c.timings.get(k)) for k in cmds])
    return table(hdr, rows)


def compare_table(rows):
    out = []
    for a in rows:
        bps = f"{a.bytes / a.samples:,.0f}" if a.samples else "–"
        if a.samples and a.payload:
            bps += f" ({a.payload / a.samples:,.0f} in records)"
        out.append([a.tool, a.source, f"{a.samples:,}", bps] +
                   [timing_cell(a.timings.get(k)) for k in ("functions", "callers-callees", "calltree")])
    return table(["tool", "recording", "samples", "bytes / sample", "function list", "callers-callees", "call tree"], out)


def cold_table(rows):
    return table(["tool", "first function list", "repeated (median of 3)"],
                 [[t, timing_cell(a), timing_cell(b)] for t, a, b in rows])
