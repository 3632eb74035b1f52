"""The workloads: what each one stresses, how it is started, and how much work it does.

Every workload does a fixed amount of work (never "run for N seconds"), so instrumented and
uninstrumented runs are comparable. Default sizes aim at ~1 s uninstrumented on the 2-core
benchmark VM; --quick shrinks them ~20x (the harness is exercised, the figures mean little).
"""
import os
import random
import shutil
import sys
from dataclasses import dataclass, field


@dataclass
class Workload:
    name: str
    title: str
    argv: list                 # default run
    quick_argv: list           # --quick run
    truth: bool = False        # writes per-thread CPU time to $BENCH_THREAD_REPORT
    threads: int = 1           # threads that do the work (fidelity table)
    erkit_flags: list = field(default_factory=list)
    count_label: str = ""      # operations counted by the workload (per-call costs)
    reps_factor: int = 1       # tiny workloads get more repetitions
    extra: str = ""            # which extra config group applies: heap, sync
    stdout_null: bool = True


def make_xz_input(path, size):
    """Deterministic text (random words): xz -9 works hard on it but it is not incompressible."""
    if os.path.exists(path) and os.path.getsize(path) >= size:
        return
    r = random.Random(1)
    words = ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randint(2, 9))) for _ in range(5000)]
    parts, n = [], 0
    while n < size:
        line = " ".join(r.choice(words) for _ in range(12)) + "\n"
        parts.append(line)
        n += len(line)
    with open(path, "w") as f:
        f.write("".join(parts))


def python_with_debug_info():
    """The interpreter running this harness when its libpython carries DWARF (pyenv builds do):
    that makes the Python workload also the 'large binary with full debug info' case."""
    return os.path.realpath(sys.executable)


def all_workloads(wl_dir, work_dir, src_dir, quick):
    xz_in = os.path.join(work_dir, "xz-input.txt")
    make_xz_input(xz_in, 200_000 if quick else 1_500_000)
    w = lambda name: os.path.join(wl_dir, name)
    xz = shutil.which("xz")
    py = python_with_debug_info()
    script = os.path.join(src_dir, "workloads", "cpu_script.py")
    wls = [
        Workload("noop", "empty program (fixed start/stop cost)", [w("noop")], [w("noop")], reps_factor=2),
        Workload("cpu1", "CPU-bound, 1 thread", [w("cpu1"), "100"], [w("cpu1"), "8"], truth=True),
        Workload("cpu4", "CPU-bound, 4 threads on 2 cores", [w("cpu4"), "50"], [w("cpu4"), "4"], truth=True, threads=4,
                 reps_factor=3),  # the overhead targets are judged on it: 9 runs a configuration
        Workload("deepstack", "random call chains, ~100 frames, unique stacks", [w("deepstack"), "100"],
                 [w("deepstack"), "8"], truth=True),
        Workload("mallocs", "malloc/free heavy, 20 M allocations", [w("mallocs"), "100"],
                 [w("mallocs"), "5"], truth=True, count_label="allocations"),
        Workload("locks", "uncontended mutex lock/unlock heavy, 150 M pairs", [w("locks"), "50"], [w("locks"), "3"],
                 truth=True, count_label="lock_calls"),
        # Tracing runs record every call: smaller sizes keep experiments to ~100 MB. They run
        # only next to their own uninstrumented run (per-call cost = extra time / calls).
        Workload("mallocs-trace", "heap tracing: 1 M allocations", [w("mallocs"), "5"], [w("mallocs"), "1"],
                 count_label="allocations", extra="heap"),
        Workload("locks-trace", "sync tracing: 1.5 M uncontended lock/unlock pairs", [w("locks"), "3", "500000"],
                 [w("locks"), "1", "200000"], count_label="lock_calls", extra="sync"),
        Workload("forkexec", "fork+exec of 100 short children", [w("forkexec"), "100"], [w("forkexec"), "5"],
                 erkit_flags=["-F", "on"], count_label="children"),
    ]
    if xz and not quick:  # python is the real program of --quick
        wls.append(Workload("xz", "real program: xz -9 -T1 on 1.5 MB of text", [xz, "-9", "-T1", "-c", xz_in],
                            [xz, "-9", "-T1", "-c", xz_in]))
    wls.append(Workload("python", "real program: CPython running a CPU-bound script", [py, script, "150"],
                        [py, script, "10"]))
    return wls
