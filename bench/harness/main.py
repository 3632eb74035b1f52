"""bench/run: builds the workloads, runs every section, writes the report."""
import argparse
import os
import pickle
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

import analysis
import document
import machine
import overhead
import proc
import report as rp
import workloads


@dataclass
class Context:
    root: str
    src: str            # bench/
    build: str
    quick: bool
    work: str
    reps: int
    build_type: str = "?"
    run_timeout: int = 180
    analysis_timeout: int = 120
    analysis_mem_mb: int = 8192

    @property
    def collect(self):
        return os.path.join(self.build, "bin", "collect")

    @property
    def er_print(self):
        return os.path.join(self.build, "bin", "er_print")

    @property
    def synth(self):
        return os.path.join(self.build, "bin", "erkit-synth")

    @property
    def workloads(self):
        return os.path.join(self.build, "bench", "workloads")


@dataclass
class Data:
    workloads: list
    results: dict = field(default_factory=dict)
    synth: list = field(default_factory=list)
    synth_cmds: list = field(default_factory=list)
    compare: list = field(default_factory=list)
    cold: list = field(default_factory=list)
    tracers_md: str = None
    unwind_text: str = ""
    machine_md: str = ""     # described when measured, so --report-only keeps it
    measured_at: str = ""


def parse_args(argv, root):
    ap = argparse.ArgumentParser(prog="bench/run", description=__doc__)
    ap.add_argument("--quick", action="store_true", help="tiny sizes, 1 repetition: checks the harness works (CI)")
    ap.add_argument("--build-dir", default=os.path.join(root, "build-bench"))
    ap.add_argument("--no-build", action="store_true", help="use the build directory as it is")
    ap.add_argument("--out", help="work directory (recordings, logs); default <build-dir>/bench/work")
    ap.add_argument("--doc", help="report path; default docs/performance.md, or <out>/performance.md with --quick")
    ap.add_argument("--reps", type=int, help="repetitions per configuration (default 3, quick 1)")
    ap.add_argument("--only", help="comma-separated workloads to run (default all)")
    ap.add_argument("--skip-analysis", action="store_true")
    ap.add_argument("--report-only", action="store_true",
                    help="rewrite the report from the last run's measurements (<out>/results.pickle), measuring nothing")
    return ap.parse_args(argv)


def build(ctx):
    targets = ["erkit_bench_all"]
    if not os.path.exists(os.path.join(ctx.build, "CMakeCache.txt")):
        subprocess.run(["cmake", "-S", ctx.root, "-B", ctx.build, "-G", "Ninja"], check=True, stdout=subprocess.DEVNULL)
    print(f"building {' '.join(targets)} in {ctx.build} (-j2)", file=sys.stderr, flush=True)
    subprocess.run(["ninja", "-C", ctx.build, "-j2", *targets], check=True, stdout=subprocess.DEVNULL)


def _build_type(ctx):
    try:
        with open(os.path.join(ctx.build, "CMakeCache.txt")) as f:
            return next((l.split("=", 1)[1].strip() for l in f if l.startswith("CMAKE_BUILD_TYPE:")), "?")
    except OSError:
        return "?"


def check_prereqs(ctx):
    missing = [p for p in (ctx.collect, ctx.er_print, ctx.synth, os.path.join(ctx.workloads, "cpu1"))
               if not os.path.exists(p)]
    if missing:
        sys.exit(f"bench/run: missing {', '.join(missing)}; build first (drop --no-build)")
    for tool in ("perf", "gprofng", "heaptrack"):
        if not shutil.which(tool):
            print(f"bench/run: '{tool}' is not installed: its configurations are left out", file=sys.stderr)


def unwind_bench(ctx):
    exe = os.path.join(ctx.build, "bin", "unwind_bench")
    if not os.path.exists(exe):
        return ""
    cmd = [exe, "--benchmark_filter=BM_InSignal"]
    if ctx.quick:
        cmd.append("--benchmark_min_time=0.02")
    else:
        cmd += ["--benchmark_min_time=0.2", "--benchmark_repetitions=5", "--benchmark_report_aggregates_only=true"]
    return proc.text(cmd, timeout=120)


def _interrupted(signum, _frame):
    proc.kill_current()
    sys.exit(128 + signum)


def main(argv):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _interrupted)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    a = parse_args(argv, root)
    build_dir = os.path.abspath(a.build_dir)
    work = os.path.abspath(a.out or os.path.join(build_dir, "bench", "work"))
    ctx = Context(root=root, src=os.path.join(root, "bench"), build=build_dir, quick=a.quick, work=work,
                  reps=a.reps or (1 if a.quick else 3))
    if a.quick:
        ctx.run_timeout, ctx.analysis_timeout, ctx.analysis_mem_mb = 60, 30, 4096
    doc = a.doc or (os.path.join(work, "performance.md") if a.quick else os.path.join(root, "docs", "performance.md"))
    if a.report_only:
        with open(os.path.join(work, "results.pickle"), "rb") as f:
            d, elapsed, load_before, load_after = pickle.load(f)
        ctx.build_type = _build_type(ctx)
        return finish(ctx, d, a, doc, elapsed, load_before, load_after)
    if not a.no_build:
        build(ctx)
    check_prereqs(ctx)
    ctx.build_type = _build_type(ctx)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    started, load_before = time.time(), machine.load_average()

    wls = workloads.all_workloads(ctx.workloads, work, ctx.src, ctx.quick)
    if a.only:
        keep = set(a.only.split(","))
        wls = [w for w in wls if w.name in keep or w.name == "noop"]
    d = Data(wls)
    kept = os.path.join(work, "kept")
    phase = lambda name: print(f"--- {name} ({time.time() - started:.0f} s so far)", file=sys.stderr, flush=True)
    phase("collection runs")
    d.results = overhead.run_matrix(ctx, wls, ctx.reps, kept)
    phase("unwind_bench")
    d.unwind_text = unwind_bench(ctx)
    if not a.skip_analysis:
        phase("synthetic experiments")
        d.synth, d.synth_cmds = analysis.run_synthetic(ctx)
        phase("analysis of deep stacks by each tool")
        d.compare = analysis.compare_tools(ctx, kept, d.synth_cmds)
        phase("cold start")
        d.cold = analysis.cold_start(ctx, kept)
    phase("bench/tracers/run.sh")
    d.tracers_md = analysis.run_tracers_script(ctx)
    elapsed, load_after = time.time() - started, machine.load_average()
    d.machine_md = machine.describe(ctx)
    d.measured_at = time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())

    with open(os.path.join(work, "results.pickle"), "wb") as f:
        pickle.dump((d, elapsed, load_before, load_after), f)
    return finish(ctx, d, a, doc, elapsed, load_before, load_after)


def finish(ctx, d, a, doc, elapsed, load_before, load_after):
    text = write_doc(ctx, d, a, elapsed, load_before, load_after)
    os.makedirs(os.path.dirname(doc), exist_ok=True)
    with open(doc, "w") as f:
        f.write(text)
    print(f"wrote {doc} ({elapsed:.0f} s)", file=sys.stderr)
    return check_harness(d)


def check_harness(d):
    """Non-zero when the harness itself is broken: the uninstrumented runs or every erkit run failed,
    or nothing could be read back. Says nothing about speed."""
    problems = []
    for w in d.workloads:
        if not any(s.run.ok for s in d.results.get((w.name, "base"), [])):
            problems.append(f"{w.name}: uninstrumented run failed")
        if not w.extra and not any(s.run.ok for s in d.results.get((w.name, "erkit-on"), [])):
            problems.append(f"{w.name}: erkit -p on failed")
    if not any(s.rec and s.rec.samples for (wl, k), ss in d.results.items() if k == "erkit-on" for s in ss):
        problems.append("no erkit recording could be read back")
    for p in problems:
        print(f"bench/run: {p}", file=sys.stderr)
    return 1 if problems else 0


def write_doc(ctx, d, a, elapsed, load_before, load_after):
    mode = ("--quick mode (a smoke test: sizes are too small for the figures to mean anything)" if ctx.quick
            else "default mode")
    busy = max(float(x) for x in load_before[:1] + load_after[:1] if x != "?") if load_before else 0
    wall_t, cpu_t, ratio_t = rp.overhead_tables(d.results, d.workloads)
    s = []
    s.append("# erkit performance, measured next to perf and gprofng\n")
    s.append(f"Generated by `bench/run` ({mode}, {ctx.reps} repetition(s) per configuration, "
             f"{elapsed / 60:.1f} min) on {d.measured_at}. "
             "Do not edit by hand: re-run `bench/run` (see *How to reproduce*).\n")
    s.append("## Machine\n")
    s.append(d.machine_md + "\n")
    absent = [t for t in ("perf", "gprofng", "heaptrack") if not shutil.which(t)]
    if absent:
        s.append(f"- Not installed, so left out of every table: {', '.join(absent)}.")
    s.append(f"- Load average (1/5/15 min) before: {' '.join(load_before)}, after: {' '.join(load_after)}.")
    if busy > 0.5:
        s.append(f"  **The machine was shared** (other engineers compiling): wall-clock figures carry that noise; "
                 "CPU-time figures (table 2) are less affected, and every figure is a median over interleaved runs.")
    s.append("")
    s.append("## Targets\n")
    s.append(document.targets(d))
    s.append("## Reading\n")
    s.append(document.reading(d))
    s.append(STATIC_NOTES)
    s.append("## 1. Wall-clock overhead vs uninstrumented\n")
    s.append("Median wall time of each configuration over the median uninstrumented wall time, minus one; "
             "the spread is half the min–max range of the uninstrumented runs. `on` = 10 ms, `hi` = 1 ms sampling "
             "period for every tool.\n")
    s.append(wall_t)
    s.append("Ratio of median wall times, erkit / other tool at the same rate (below 1: erkit is faster):\n")
    s.append(ratio_t)
    s.append("## 2. CPU-time overhead (user + system of the whole process tree, tool included)\n")
    s.append(cpu_t)
    s.append("## 2b. erkit's own cost, measured inside every run\n")
    s.append("Every erkit experiment records what recording cost the process (the log's `exit` line, "
             "docs/clock-profiling.md): time inside the clock-profiling signal handler, CPU time of the collector's "
             "threads (the microstate sampler, the periodic-sample thread) and of its start and exit work, against "
             "the process's CPU time. Medians over the repetitions. *+ signal delivery* adds the kernel's cost of "
             "delivering and returning from each signal (unwind_bench's empty handler, "
             f"{'not measured' if document.delivery_ns(d) is None else f'{document.delivery_ns(d) / 1000:.2f} µs'}); "
             "*+ fixed cost of a run* adds collect, the dynamic loader, start, exit and archiving as measured on the "
             "empty program (section 3, CPU), over the workload's CPU time. Their sum is the overhead the "
             "targets use: each part is measured on its own, where the difference of two whole-run medians "
             "(sections 1 and 2) moves by more than 1 % from run to run on this machine. The cross-check is the "
             "kernel's CPU time of the program's own threads (written by the workload, `CLOCK_THREAD_CPUTIME_ID`) "
             "under erkit over the uninstrumented runs: what the handler, its delivery and any indirect cost "
             "(caches, preemption by the collector's threads) cost the program, without the collector's threads "
             "(a difference of medians: ±0.5 % of noise).\n")
    s.append(rp.inside_cost_table(d.results, d.workloads, document.delivery_ns(d)))
    s.append("## 3. Fixed start/stop cost (empty program)\n")
    s.append(fixed_cost_table_doc(d))
    s.append("## 4. Fidelity: samples recorded vs expected, per thread\n")
    s.append("Expected = the thread's CPU time as the kernel counts it (`CLOCK_THREAD_CPUTIME_ID`, written by the "
             "workload itself when the thread ends) / the tool's sampling period, for threads expected to get ≥ 10 "
             "samples; recorded samples are counted over those threads too. For erkit they are the samples its "
             "CPU timers took, read from the experiment's `profile` file; *erkit wait samples* are the clock "
             "samples it also records for threads that were not running (runnable, blocked or sleeping: the "
             "Linux microstates), which `er_print -thread_list` counts among the events. *CPU recorded / kernel* compares the CPU time the tool attributes (erkit: User + System CPU "
             "of `<Total>`; perf: samples × period; gprofng: `<Total>` Total CPU) with the kernel's sum "
             "over all threads. gprofng prints no per-thread sample counts (its `-thread_list` shows only the number "
             "of threads with data), so its samples are its CPU time / period.\n")
    s.append(rp.fidelity_table(d.results, d.workloads))
    s.append("## 5. Experiment size\n")
    s.append("Whole experiment directory (erkit, gprofng) or `perf.data`, apparent bytes; gprofng's `archives/` "
             "(copies of the load objects) is left out. erkit's data files grow in 64 KiB blocks, so short runs are "
             "dominated by block granularity. perf's `-g` walks frame pointers, which these workloads (built like "
             "Debian's packages) do not keep, so its stacks here are incomplete and small; section 8 gives its size "
             "per sample with complete ~100-frame stacks.\n")
    s.append(rp.size_table(d.results, d.workloads))
    s.append("## 6. Tracing cost per call\n")
    s.append("Extra time per allocation (`mallocs-trace`: one malloc + one free, 1 M of them) or per lock/unlock "
             "pair (`locks-trace`: 1.5 M uncontended pairs), over the uninstrumented run of the same size, less the configuration's fixed cost on the empty program, from "
             "median wall and median CPU time. "
             "*events recorded* says whether erkit's trace file received records at all.\n")
    s.append(rp.tracing_table(d.results, d.workloads))
    if d.tracers_md:
        s.append("### Tracer micro-benchmarks (bench/tracers/run.sh)\n")
        s.append(d.tracers_md.rstrip() + "\n")
    if not a.skip_analysis:
        s.append("## 7. Analysis time and peak RSS on synthetic experiments\n")
        s.append("`erkit-synth` writes N clock samples over M distinct stacks of depth D; the frames are real "
                 "functions (1000 of them) of a shared object compiled for the purpose, symbolised through elfutils "
                 "like any experiment. Every stack occurs at least once. Time is wall (median of 3 runs at ≤ 20 k events "
                 f"unless a run takes over 2 s, else one run), memory is peak RSS; commands are stopped at {ctx.analysis_timeout} s or "
                 f"{ctx.analysis_mem_mb // 1024} GB of address space.\n")
        s.append(rp.synth_table(d.synth, d.synth_cmds))
        s.append("## 8. Analysis of deep unique stacks, each tool on its own recording\n")
        s.append("perf cannot read erkit experiments, so each tool analyses a real recording of the `deepstack` "
                 "workload (perf: the frame-pointer build at 4 kHz, so that its default unwinder sees all ~100 "
                 "frames). perf's function list is `perf report --stdio --no-children -g none`, its call tree "
                 "`perf report --stdio --children` (default call-graph settings). Compare per sample. perf recordings "
                 "of 1 M and 10 M samples would take 4 and 40 minutes of recording at 4 kHz here, so the large "
                 "sizes are erkit-only (section 7). gprofng records only a few samples of this workload (its bugs).\n")
        s.append(rp.compare_table(d.compare))
        s.append("## 9. Cold start on a large binary with full debug info\n")
        lib, size, dbg = analysis.libpython_info(workloads.python_with_debug_info())
        s.append(f"Function list of the `python` workload's recording at -p on; the interpreter's library "
                 f"`{lib}` is {size / 1e6:.0f} MB with {dbg / 1e6:.1f} MB of `.debug_info`. No tool keeps a "
                 "symbol cache between runs; the first run also finds the files out of the page cache less often "
                 "than not (they were just used by the recording).\n")
        s.append(rp.cold_table(d.cold))
    s.append(fail_section(d))
    s.append(HOW_TO.format(build=os.path.relpath(ctx.build, ctx.root)))
    return "\n".join(s)


def fixed_cost_table_doc(d):
    return rp.fixed_cost_table(d.results)


def fail_section(d):
    lines = []
    for (wl, key), ss in sorted(d.results.items()):
        for s in ss:
            if not s.run.ok:
                lines.append(f"- {wl} / {key}: {s.run.why_failed()}")
    if not lines:
        return "## Failed runs\n\nNone.\n"
    uniq = sorted(set(lines))
    return "## Failed runs\n\n" + "\n".join(uniq[:40]) + "\n"


STATIC_NOTES = """
Things to know when reading the tables:
- The benchmark machine has 2 vCPUs and `CONFIG_HZ=250`: CPU-time timers (erkit's and gprofng's
  `timer_create(CLOCK_THREAD_CPUTIME_ID)`) expire on scheduler ticks, so at 1 ms a thread gets about
  one signal per 4 ms. erkit weights each sample by the thread CPU time it stands for, so its
  *CPU recorded / kernel* stays near 1 while its sample count at `-p hi` is about 1/4 of
  "expected"; perf's `cpu-clock` is an hrtimer and delivers every period. gprofng credits each
  signal as one nominal period (anchors.md §1).
- gprofng 2.40 on this glibc does not sample threads created with `pthread_create@GLIBC_2.34`,
  and its clock profile of the main thread is ~10× too small (anchors.md §1): its overhead looks
  low partly because it records little. Its rows are what it reports, bugs included.
- perf's fixed cost is its own start-up and the writing/processing of `perf.data` (anchors.md §2).
- `locks` and `mallocs` are single-threaded: erkit's sampler thread makes them multi-threaded, and
  glibc then leaves its single-thread fast paths (locked instructions in `pthread_mutex_lock`,
  malloc's arena locks). Without any profiler, one idle extra thread makes 100 M uncontended
  lock/unlock pairs take 2.21 s of CPU instead of 0.84 s; a program that already has threads
  pays no such cost (docs/clock-profiling.md, Limits). With clock profiling alone collect
  preloads `libcollector-clock.so`, which interposes none of these calls.
"""

HOW_TO = """## How to reproduce

```
bench/run                      # default mode, ≤ 15 min on 2 cores; writes docs/performance.md
bench/run --quick --out /tmp/q # smoke test (also ctest -L bench_quick); writes /tmp/q/performance.md
bench/run --only cpu1,cpu4 --skip-analysis --doc /tmp/p.md   # a subset
```

It builds `erkit_bench_all` in `{build}` (`-j2`), then runs each workload (`bench/workloads/`)
under each configuration, interleaved, and the analysis sections. Commands, with `$W` the
workload command line:

| configuration | command |
|---|---|
| uninstrumented | `$W` |
| erkit -p on / hi | `collect -p on` / `collect -p hi` `-d DIR -o NAME.er $W` (`-F on` for forkexec) |
| perf -c 10ms / 1ms | `perf record -q -g -e cpu-clock -c 10000000` / `-c 1000000` `-o F.data -- $W` |
| gprofng -p on / hi | `gprofng collect app -p on` / `-p hi` `-o NAME.er $W` |
| erkit heap / sync | `collect -p off -H on $W`, `collect -p off -s on` / `-s all $W` |
| gprofng heap / sync | `gprofng collect app -p off -H on $W`, `... -p off -s on $W` |
| heaptrack | `heaptrack -o F $W` |
| analysis | `er_print -functions` / `-callers-callees` / `-calltree EXP`; `perf report --stdio ...`; `gprofng display text -functions` / `-callers-callees` / `-calltree EXP` |

Samples are read back with `er_print -thread_list`, `perf script -F tid`, and
`gprofng display text -header` / `-functions` / `-thread_list`. Timing and peak RSS come from
`wait4()` on the measured command (what `/usr/bin/time -v` reports).
"""
