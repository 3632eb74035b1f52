"""Analysis side: time and peak RSS of er_print on synthetic experiments of 10 k, 1 M and 10 M
events, of perf report and gprofng display on comparable real recordings, and the cold start
of each on a program with a large shared library carrying full DWARF (libpython)."""
import os
import re
import shutil
import sys
from dataclasses import dataclass, field

import proc
import tools


@dataclass
class Timing:
    label: str
    wall: float = None
    maxrss_kb: int = None
    failure: str = ""
    runs: list = field(default_factory=list)


@dataclass
class SynthCase:
    name: str
    events: int
    stacks: int
    depth: int
    gen_wall: float = None
    bytes: int = 0
    timings: dict = field(default_factory=dict)   # command -> Timing


def synth_cases(quick):
    if quick:
        return [SynthCase("1k", 1000, 1000, 100), SynthCase("3k", 3000, 1000, 30)]
    return [SynthCase("10k", 10_000, 10_000, 100), SynthCase("1M", 1_000_000, 100_000, 30),
            SynthCase("10M", 10_000_000, 100_000, 30)]


def timed(ctx, label, cmd, reps=1, cwd=None, long_s=2.0):
    """Median over up to reps runs of a successful command. A run longer than long_s is not
    repeated (its noise is small next to its length); the first failure stops the repetitions."""
    t = Timing(label)
    if ctx.quick:
        reps = 1
    for _ in range(reps):
        if t.runs and t.runs[-1].wall > long_s:
            break
        r = proc.measure(cmd, timeout=ctx.analysis_timeout, mem_limit_mb=ctx.analysis_mem_mb, cwd=cwd,
                         scratch=ctx.work)
        if not r.ok:
            if r.rc < 0 or "memory" in r.err.lower() or "bad_alloc" in r.err:
                t.failure = f"failed: {r.why_failed()} (limit {ctx.analysis_mem_mb // 1024} GB address space)"
            else:
                t.failure = f"failed: {r.why_failed()}"
            if r.timed_out:
                t.failure = f"> {ctx.analysis_timeout} s (stopped)"
            break
        t.runs.append(r)
    if t.runs:
        walls = sorted(r.wall for r in t.runs)
        t.wall = walls[len(walls) // 2]
        t.maxrss_kb = max(r.maxrss_kb for r in t.runs)
    print(f"  analysis {label}: " + (f"{t.wall:.3f} s, {t.maxrss_kb / 1024:.0f} MB" if t.runs else t.failure),
          file=sys.stderr, flush=True)
    return t


def erprint_commands(ctx, probe_exp):
    """The er_print commands to time; the call tree only once er_print has one."""
    cmds = ["functions", "callers-callees"]
    out = proc.text([ctx.er_print, "-calltree", probe_exp], timeout=60)
    if out and "unknown command" not in out:
        cmds.append("calltree")
    return cmds


def run_synthetic(ctx):
    cases = synth_cases(ctx.quick)
    d = os.path.join(ctx.work, "synth")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    cmds = None
    for c in cases:
        exp = os.path.join(d, f"synth-{c.name}.er")
        g = proc.measure([ctx.synth, "--out", exp, "--events", c.events, "--stacks", c.stacks, "--depth", c.depth],
                         timeout=600, scratch=ctx.work)
        if not g.ok:
            c.timings["generate"] = Timing("generate", failure=g.why_failed())
            continue
        c.gen_wall, c.bytes = g.wall, proc.tree_bytes(exp)
        if cmds is None:
            cmds = erprint_commands(ctx, exp)
        reps = 3 if c.events <= 20_000 else 1
        for cmd in cmds:
            c.timings[cmd] = timed(ctx, f"er_print -{cmd} {c.name}", [ctx.er_print, f"-{cmd}", exp], reps)
        shutil.rmtree(exp, ignore_errors=True)
        shutil.rmtree(exp + ".src", ignore_errors=True)
    return cases, cmds or []


@dataclass
class ToolAnalysis:
    tool: str
    source: str
    samples: int = 0
    bytes: int = 0
    payload: int = 0   # erkit: bytes of records alone (no block padding)
    timings: dict = field(default_factory=dict)   # view -> Timing


def perf_deep_recording(ctx):
    """perf needs frame pointers to see ~100-frame stacks with its default unwinder: record the
    frame-pointer build at 4 kHz, about 10 k samples in the default mode."""
    data = os.path.join(ctx.work, "deep-perf4k.data")
    units = "10" if ctx.quick else "250"
    r = proc.measure(["perf", "record", "-q", "-g", "-e", "cpu-clock", "-c", "250000", "-o", data, "--",
                      os.path.join(ctx.workloads, "deepstack_fp"), units], timeout=300, scratch=ctx.work)
    return data if r.ok else None


def compare_tools(ctx, kept, cmds):
    """Function list, callers-callees and call tree of deep unique stacks in each tool."""
    rows = []
    exp = os.path.join(kept, "deepstack-erkit-hi.er")
    if os.path.isdir(exp):
        a = ToolAnalysis("erkit", "deepstack, collect -p hi (rep 0)")
        rec = tools.read_erkit(ctx, exp)
        a.samples, a.bytes, a.payload = rec.samples, rec.bytes, tools.erkit_payload_bytes(exp)
        for cmd in cmds:
            a.timings[cmd] = timed(ctx, f"erkit {cmd} deepstack", [ctx.er_print, f"-{cmd}", exp], 3)
        rows.append(a)
    data = perf_deep_recording(ctx)
    if data:
        a = ToolAnalysis("perf", "deepstack_fp, perf record -g -c 250000 (4 kHz)")
        rec = tools.read_perf(data, 250000)
        a.samples, a.bytes = rec.samples, rec.bytes
        base = ["perf", "report", "-i", data, "--stdio"]
        a.timings["functions"] = timed(ctx, "perf functions", base + ["--no-children", "-g", "none"])
        a.timings["callers-callees"] = Timing("callers-callees", failure="no equivalent view")
        a.timings["calltree"] = timed(ctx, "perf call tree", base + ["--children"])
        rows.append(a)
        os.unlink(data)
    exp = os.path.join(kept, "deepstack-gprofng-hi.er")
    if os.path.isdir(exp):
        a = ToolAnalysis("gprofng", "deepstack, gprofng collect app -p hi (rep 0)")
        rec = tools.read_gprofng(exp)
        a.samples, a.bytes = rec.samples, rec.bytes
        base = ["gprofng", "display", "text"]
        for cmd in ("functions", "callers-callees", "calltree"):
            a.timings[cmd] = timed(ctx, f"gprofng {cmd}", base + [f"-{cmd}", exp])
        rows.append(a)
    return rows


def libpython_info(py):
    """(path, size, .debug_info size) of the libpython the interpreter loads, or None."""
    out = proc.text(["ldd", py])
    m = re.search(r"(\S*libpython[^ ]*\.so[^ ]*) => (\S+)", out)
    lib = m.group(2) if m else py
    secs = proc.text(["readelf", "-S", "-W", lib])
    m = re.search(r"\.debug_info\s+PROGBITS\s+\S+\s+\S+\s+([0-9a-f]+)", secs)
    return lib, os.path.getsize(lib), int(m.group(1), 16) if m else 0


def cold_start(ctx, kept):
    """First and repeated function lists of the Python recordings: the analysis must read
    libpython's symbols and DWARF from nothing each time (no tool keeps a cache between runs)."""
    rows = []
    cases = [
        ("erkit", os.path.join(kept, "python-erkit-on.er"), lambda p: [ctx.er_print, "-functions", p]),
        ("perf", os.path.join(kept, "python-perf-on.data"),
         lambda p: ["perf", "report", "-i", p, "--stdio", "--no-children", "-g", "none"]),
        ("gprofng", os.path.join(kept, "python-gprofng-on.er"),
         lambda p: ["gprofng", "display", "text", "-functions", p]),
    ]
    for tool, path, cmd in cases:
        if not os.path.exists(path):
            continue
        first = timed(ctx, f"{tool} cold functions (first)", cmd(path), 1)
        again = timed(ctx, f"{tool} functions (repeat)", cmd(path), 3)
        rows.append((tool, first, again))
    return rows


def run_tracers_script(ctx):
    """bench/tracers/run.sh (the tracer engineer's per-call benchmarks), when present: its stdout
    is a Markdown section placed into the report as it is."""
    script = os.path.join(ctx.src, "tracers", "run.sh")
    if not os.path.exists(script):
        return None
    out = os.path.join(ctx.work, "tracers")
    os.makedirs(out, exist_ok=True)
    env = {"ERKIT_BUILD_DIR": ctx.build, "BENCH_OUT": out, "BENCH_QUICK": "1" if ctx.quick else "0"}
    r = proc.measure(["bash", script], env=env, timeout=300 if not ctx.quick else 60, capture=True,
                     scratch=ctx.work)
    if not r.ok:
        return f"_bench/tracers/run.sh failed ({r.why_failed()})._\n"
    return r.out
