#!/usr/bin/env python3
"""er_kernel's overhead (docs/er_kernel.md, "Overhead"): a fixed amount of work run alone and
while `er_kernel -p <rate>` profiles every CPU, interleaved, N times each; reports the median
wall and CPU time of the work with and without, er_kernel's own CPU time while recording as a
share of all CPUs' time, and the CPU time of its end (reading the symbols, writing the ELF
files). Needs the privileges er_kernel needs (root). Prints Markdown.

  bench/kernel/measure.py --build build [--runs 9] [--rate on] [--units 40]
"""
import argparse
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time


def run_work(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def proc_cpu(pid):
    """utime + stime of a live process, in seconds (/proc/<pid>/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--rate", default="on")
    ap.add_argument("--units", type=int, default=40, help="cpu4 units a thread (about 10 ms each)")
    a = ap.parse_args(argv)
    build = os.path.abspath(a.build)
    er_kernel = os.path.join(build, "bin", "er_kernel")
    works = {
        "cpu4 (user code, 4 threads)": [os.path.join(build, "bench", "workloads", "cpu4"), str(a.units)],
        "kernel_syscall_mix (system calls)": [os.path.join(build, "tests", "programs", "kernel_syscall_mix"),
                                              "/dev/null", str(a.units * 10), "0"],
    }
    ncpu = os.cpu_count()
    out = []
    scratch = tempfile.mkdtemp(prefix="er_kernel_bench_")
    for name, cmd in works.items():
        base, prof, kcpu, kspan, kend = [], [], [], [], []
        for i in range(a.runs):
            base.append(run_work(cmd))
            exp = os.path.join(scratch, f"k{len(kcpu)}_{i}.er")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.monotonic()
            rec = subprocess.Popen([er_kernel, "-p", a.rate, "-o", exp], stderr=subprocess.DEVNULL)
            time.sleep(0.3)  # recording has started
            w = run_work(cmd)
            recording = proc_cpu(rec.pid)  # er_kernel's CPU while recording
            span = time.monotonic() - t0
            rec.send_signal(signal.SIGINT)
            rec.wait()
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            prof.append(w)
            kcpu.append(recording)
            kend.append(total - w[1] - recording)  # the end: symbols, ELF files, log
            kspan.append(span)
            subprocess.run(["rm", "-rf", exp])
        bw = statistics.median(x[0] for x in base)
        bc = statistics.median(x[1] for x in base)
        pw = statistics.median(x[0] for x in prof)
        pc = statistics.median(x[1] for x in prof)
        share = statistics.median(k / (s * ncpu) for k, s in zip(kcpu, kspan))
        end = statistics.median(kend)
        out.append(f"| {name} | {bw:.3f} | {pw:.3f} | {100 * (pw / bw - 1):+.1f} % | {bc:.3f} | {pc:.3f} | "
                   f"{100 * (pc / bc - 1):+.1f} % | {100 * share:.2f} % | {end:.2f} s |")
    print(f"er_kernel -p {a.rate}, {a.runs} interleaved runs a configuration, {ncpu} CPUs, medians:\n")
    print("| work | wall alone s | wall profiled s | wall | CPU alone s | CPU profiled s | CPU "
          "| er_kernel's CPU while recording / all CPUs | er_kernel's end (symbols) |")
    print("|---|---|---|---|---|---|---|---|---|")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
