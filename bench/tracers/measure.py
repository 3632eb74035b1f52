#!/usr/bin/env python3
"""Per-call cost of erkit's tracers (heap, sync wait, I/O), side by side with heaptrack and with
uninstrumented runs. Prints a Markdown fragment (see bench/README.md, "tracers/run.sh contract").

Costs are CPU time (user + system of the whole process tree: heaptrack's interpreter and
collect included) and wall time, medians of the repetitions; the extra cost per call is the
difference to the baseline named in each row, divided by the number of calls."""
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

BUILD = os.environ.get("ERKIT_BUILD_DIR") or sys.exit("ERKIT_BUILD_DIR is not set")
OUT = os.environ.get("BENCH_OUT") or sys.exit("BENCH_OUT is not set")
QUICK = os.environ.get("BENCH_QUICK") == "1"
HERE = os.path.dirname(os.path.abspath(__file__))
COLLECT = os.path.join(BUILD, "bin", "collect")
REPS = 1 if QUICK else 3


def workload(name, source=None):
    """A built bench workload, or one of ours compiled into BENCH_OUT."""
    built = os.path.join(BUILD, "bench", "workloads", name)
    if os.path.exists(built) and not source:
        return built
    src = source or os.path.join(HERE, "..", "workloads", name + ".c")
    exe = os.path.join(OUT, name)
    subprocess.run(["cc", "-O2", "-g", "-o", exe, src, "-lpthread"], check=True)
    return exe


def run(argv, artifact=None):
    """Runs argv once in BENCH_OUT; returns (cpu s, wall s, bytes of the artifact, removed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(argv, cwd=OUT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({p.returncode}): {p.stderr.decode()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    size = 0
    if artifact:
        path = os.path.join(OUT, artifact + ".er")
        if os.path.isdir(path):
            for root, _, files in os.walk(path):
                size += sum(os.path.getsize(os.path.join(root, f)) for f in files)
            shutil.rmtree(path)
        else:
            for f in os.listdir(OUT):
                if f.startswith(artifact):
                    size += os.path.getsize(os.path.join(OUT, f))
                    os.remove(os.path.join(OUT, f))
    return cpu, wall, size


run_no = 0


def median_run(make_argv, prefix=None):
    """make_argv(artifact name) -> argv; the artifact is removed after each run."""
    global run_no
    results = []
    for _ in range(REPS):
        run_no += 1
        name = f"{prefix}{run_no}" if prefix else None
        results.append(run(make_argv(name), name))
    return (statistics.median(r[0] for r in results), statistics.median(r[1] for r in results),
            statistics.median(r[2] for r in results))


def erkit(opts):
    def make(name, argv):
        return [COLLECT, "-p", "off", "-S", "off", "-A", "off", "-o", name + ".er", *opts, *argv]
    return make


def plain(name, argv):
    return argv


def heaptrack(name, argv):
    return ["heaptrack", "-o", name, *argv]


class Config:
    """One configuration measured at two sizes of the same workload: the slope between them is
    the cost per call, free of start-up and shut-down costs."""

    def __init__(self, label, make, prefix, exe, units, calls_per_unit, baseline=None):
        self.label, self.baseline = label, baseline
        self.calls = (units * calls_per_unit, 2 * units * calls_per_unit)
        self.small = median_run(lambda name: make(name, [exe, str(units)]), prefix)
        self.large = median_run(lambda name: make(name, [exe, str(2 * units)]), prefix)

    def slope(self, i):  # seconds per call, i = 0 (CPU) or 1 (wall)
        return (self.large[i] - self.small[i]) / (self.calls[1] - self.calls[0])


def table(title, call_word, configs, note=""):
    by = {c.label: c for c in configs}
    calls = configs[0].calls
    out = [f"### {title}", "",
           f"Runs of {calls[0]:,} and {calls[1]:,} {call_word}, median of {REPS} run(s) each; the cost "
           "per call is the difference of the two sizes divided by the difference of the calls "
           "(start-up costs cancel), minus the baseline's.", "",
           "| configuration | CPU s | wall s | data | CPU ns / call | wall ns / call | extra CPU ns / call | extra wall ns / call | baseline |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for c in configs:
        cpu, wall, size = c.large
        own = [c.slope(0) * 1e9, c.slope(1) * 1e9]
        if c.baseline:
            b = by[c.baseline]
            extra = [f"{(c.slope(i) - b.slope(i)) * 1e9:.1f}" for i in (0, 1)]
        else:
            extra = ["—", "—"]
        data = f"{size / 1e6:.1f} MB" if size else "—"
        out.append(f"| {c.label} | {cpu:.3f} | {wall:.3f} | {data} | {own[0]:.1f} | {own[1]:.1f} | "
                   f"{extra[0]} | {extra[1]} | {c.baseline or '—'} |")
    return "\n".join(out) + "\n" + (note + "\n" if note else "")


def main():
    os.makedirs(OUT, exist_ok=True)
    mallocs, locks = workload("mallocs"), workload("locks")
    iocalls = workload("iocalls", os.path.join(HERE, "iocalls.c"))
    out = []

    u = 1 if QUICK else 3
    base = "uninstrumented"
    configs = [Config(base, plain, None, mallocs, u, 200000),
               Config("erkit, collector loaded, -H off", erkit([]), "e", mallocs, u, 200000, base),
               Config("erkit -H on", erkit(["-H", "on"]), "e", mallocs, u, 200000, base)]
    if shutil.which("heaptrack"):
        configs.append(Config("heaptrack", heaptrack, "ht", mallocs, u, 200000, base))
    out.append(table("Heap tracing: `mallocs` (one malloc + one free per call)", "malloc/free pairs", configs))

    u = 2 if QUICK else 5
    off = "erkit, collector loaded, -s off"
    configs = [Config(base, plain, None, locks, u, 3000000),
               Config(off, erkit([]), "e", locks, u, 3000000, base),
               Config("erkit -s on (calibrated)", erkit(["-s", "on"]), "e", locks, u, 3000000, off)]
    out.append(table("Sync-wait tracing: `locks` (uncontended lock + unlock per call)", "lock/unlock pairs", configs,
                     "The traced rows compare with a collected run without tracing: the collector's helper thread "
                     "alone makes glibc's mutexes several times slower (a process with a second thread takes the "
                     "atomic paths), which is not the tracer's cost."))
    # Recording every call writes 48 bytes per call: a smaller run.
    configs = [Config(off, erkit([]), "e", locks, 1, 3000000),
               Config("erkit -s all (every call recorded)", erkit(["-s", "all"]), "e", locks, 1, 3000000, off)]
    out.append(table("Sync-wait tracing, every call recorded: `locks`", "lock/unlock pairs", configs))

    u = 1 if QUICK else 5
    off = "erkit, collector loaded, -i off"
    configs = [Config(base, plain, None, iocalls, u, 200000),
               Config(off, erkit([]), "e", iocalls, u, 200000, base),
               Config("erkit -i on", erkit(["-i", "on"]), "e", iocalls, u, 200000, off)]
    out.append(table("I/O tracing: `iocalls` (one 64-byte read(2) or write(2) per call)", "calls", configs))
    print("\n".join(out))


if __name__ == "__main__":
    main()
