#!/usr/bin/env python3
"""Analysis at scale (issue 24): time, CPU and peak memory of er_print's reports on erkit-synth
experiments of 1 M and 10 M clock samples (100,000 stacks x 30 frames, 1000 functions, 4
threads: section 7's experiments), printed as a markdown table for docs/performance.md.

    bench/scale/measure.py BUILD_DIR [--events 1000000,10000000] [--work DIR] [--reps N]
                           [--records compact,full]

--records: the clock-sample encodings to write the experiments in (erkit-synth --records):
compact (kind 14, what the collector writes since issue 24) and/or full (the 88-byte records).

Wall time and the CPU time (user + system) of er_print come from wait4(), as /usr/bin/time -v
reports them, with the peak resident set (ru_maxrss). Each report is run --reps times (default
1) and the median wall time is shown; on a shared machine the CPU time moves less than the wall.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

VIEWS = ["functions", "calltree", "callers-callees", "lines"]


def measure(cmd, env=None):
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}: {err.strip()[-400:]}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss // 1024


def tree_bytes(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(root, f))
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--events", default="1000000,10000000")
    ap.add_argument("--work", default="/tmp/erkit-scale")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--views", default=",".join(VIEWS))
    ap.add_argument("--records", default="compact",
                    help="clock-sample encodings, comma-separated: compact, full")
    ap.add_argument("--selected", action="store_true",
                    help="also the function list of two of the four threads (-thread_select) and of the "
                         "first half of the run (a TSTAMP filter): the clock scan's filtered path")
    ap.add_argument("--compare-pass", action="store_true",
                    help="with --selected: the thread selection again with ERKIT_CLOCK_SCAN=off "
                         "(the sample-by-sample pass the scan replaces)")
    a = ap.parse_args()
    synth = os.path.join(a.build, "bin", "erkit-synth")
    er_print = os.path.join(a.build, "bin", "er_print")
    os.makedirs(a.work, exist_ok=True)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)
    print("| events | records | experiment MB | profile bytes / sample | report | wall s | CPU s (user+sys) | peak RSS MB |")
    print("|---|---|---|---|---|---|---|---|")
    for n, rec in [(int(x), r) for x in a.events.split(",") for r in a.records.split(",")]:
        exp = os.path.join(a.work, f"synth-{n}-{rec}.er")
        if not os.path.isdir(exp):
            subprocess.run([synth, "--out", exp, "--events", str(n), "--stacks", str(min(n, 100000)),
                            "--depth", "30", "--records", rec], check=True, stdout=subprocess.DEVNULL)
        mb = tree_bytes(exp) / 1e6
        per = (os.path.getsize(os.path.join(exp, "profile")) - 4096) / n
        pre = f"| {n:,} | {rec} | {mb:.0f} | {per:.1f}"
        for v in a.views.split(","):
            runs = sorted(measure([er_print, f"-{v}", exp]) for _ in range(a.reps))
            wall, cpu, rss = runs[len(runs) // 2]
            print(f"{pre} | -{v} | {wall:.2f} | {cpu:.2f} | {rss} |", flush=True)
        if a.selected and a.compare_pass:
            env = dict(os.environ, ERKIT_CLOCK_SCAN="off")
            runs = sorted(measure([er_print, "-thread_select", "1-2", "-functions", exp], env) for _ in range(a.reps))
            wall, cpu, rss = runs[len(runs) // 2]
            print(f"{pre} | -thread_select 1-2 -functions, ERKIT_CLOCK_SCAN=off | {wall:.2f} | {cpu:.2f} | {rss} |",
                  flush=True)
        if a.selected:
            half = n * 10000000 // 4 // 2  # erkit-synth: 4 threads, one sample per 10 ms each
            for label, args in [("-thread_select 1-2 -functions", ["-thread_select", "1-2", "-functions"]),
                                (f"-filters 'TSTAMP < {half}' -functions", ["-filters", f"TSTAMP < {half}", "-functions"])]:
                runs = sorted(measure([er_print, *args, exp]) for _ in range(a.reps))
                wall, cpu, rss = runs[len(runs) // 2]
                print(f"{pre} | {label} | {wall:.2f} | {cpu:.2f} | {rss} |", flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", file=sys.stderr)


if __name__ == "__main__":
    main()
