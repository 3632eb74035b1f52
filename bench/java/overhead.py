#!/usr/bin/env python3
"""What collect -j on (-p on, the default clock profile, Java profiling on) costs a JVM, side by
side and as ratios (docs/java.md *Overhead*, docs/performance.md). Two programs:

  JavaCpu   bench/java/JavaCpu.java: JIT-warm and CPU-bound (2.5 s of CPU on one thread)
  Main      the real-program corpus's Java program (tests/corpus/run_corpus.py JAVA_MAIN: two
            threads building strings; a short run, ~0.2 s of CPU: the JVM's start dominates)

each run alone and under collect, interleaved round by round: for each round the CPU of the
configuration divided by the CPU of the same round's run alone (so that the machine's load,
which drifts, cancels), and the median of those ratios. CPU is the process tree's (user + system
of the JVM and of collect, os.wait4) and, under erkit, the JVM process's own (the collector's
process_cpu_ns on the log's exit line). Then where erkit's cost in the JVM goes (the log's cost_*
keys, medians over the rounds, as shares of the JVM's CPU alone): the clock signal handlers
(machine unwind + AsyncGetCallTrace, and AsyncGetCallTrace alone), the collector's sampler
thread, the JVMTI agent's callbacks (classes, compiled methods, generated code, threads) and the
collector's start and exit.

usage: bench/java/overhead.py BUILD_DIR [RUNS] [--before OTHER_BUILD_DIR] [--program JavaCpu|Main]
  --before: also run the collect (bin/collect, lib/) of another build in the same rounds (a
  before/after comparison on the same machine and load)."""
import argparse, importlib.util, os, re, shutil, statistics, subprocess, sys, tempfile


def timed(cmd, env, cwd):
    """(status, stdout, CPU s of the process tree: user + system, waited-for children included)."""
    p = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    p.stdout.close()
    return os.waitstatus_to_exitcode(status), out, ru.ru_utime + ru.ru_stime


def log_costs(exp):
    """The exit line's cost_* keys and process_cpu_ns of the experiment's (first) process."""
    try:
        log = open(os.path.join(exp, "log")).read()
    except OSError:
        return {}
    return {k: int(v) for k, v in re.findall(r"\b(cost_\w+|process_cpu_ns)=(\d+)", log)}


def programs(root, work, which):
    out = {}
    if which in (None, "JavaCpu"):
        subprocess.run(["javac", "-d", work, os.path.join(root, "bench", "java", "JavaCpu.java")], check=True)
        out["JavaCpu"] = ["java", "-cp", work, "JavaCpu", "200"]
    if which in (None, "Main"):
        spec = importlib.util.spec_from_file_location("run_corpus", os.path.join(root, "tests", "corpus", "run_corpus.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        src = os.path.join(work, "Main.java")
        with open(src, "w") as f:
            f.write(mod.JAVA_MAIN)
        subprocess.run(["javac", "-d", work, src], check=True)
        out["Main"] = ["java", "-cp", work, "Main"]
    return out


def pct(ratio):
    return f"{100 * (ratio - 1):+.1f} %"


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("build")
    ap.add_argument("runs", nargs="?", type=int, default=5)
    ap.add_argument("--before")
    ap.add_argument("--program", choices=["JavaCpu", "Main"])
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    work = tempfile.mkdtemp(prefix="erkit-java-overhead-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ERKIT_")}
    configs = [("alone", None)]
    if a.before:
        configs.append(("erkit -p on, before", os.path.join(os.path.abspath(a.before), "bin", "collect")))
    configs.append(("erkit -p on", os.path.join(os.path.abspath(a.build), "bin", "collect")))
    for prog, java in programs(root, work, a.program).items():
        tree = {c: [] for c, _ in configs}   # per round: process tree CPU / alone's
        jvm = {c: [] for c, _ in configs}    # per round: JVM process CPU / alone's
        costs = {c: [] for c, _ in configs}  # per round: cost keys / alone's CPU
        abs_cpu = {c: [] for c, _ in configs}
        per_signal, per_stack = {c: [] for c, _ in configs}, {c: [] for c, _ in configs}
        for i in range(a.runs):
            alone = None
            for name, collect in configs:
                exp = os.path.join(work, f"{prog}_{i}_{len(tree[name])}.er")
                cmd = java if collect is None else [collect, "-o", exp, "-p", "on"] + java
                status, _, cpu = timed(cmd, env, work)
                if status != 0:
                    print(f"{prog} {name}: status {status}", file=sys.stderr)
                    continue
                if collect is None:
                    alone = cpu
                if alone is None:
                    continue
                abs_cpu[name].append(cpu)
                tree[name].append(cpu / alone)
                if collect is None:
                    jvm[name].append(1.0)
                    continue
                c = log_costs(exp)
                shutil.rmtree(exp, ignore_errors=True)
                if c.get("process_cpu_ns"):
                    jvm[name].append(c["process_cpu_ns"] / 1e9 / alone)
                share = {k: v / 1e9 / alone for k, v in c.items() if k.endswith("_ns") and k != "process_cpu_ns"}
                costs[name].append(share)
                if c.get("cost_signals"):
                    per_signal[name].append(c["cost_signal_ns"] / c["cost_signals"] / 1000)
                if c.get("cost_java_stacks"):
                    per_stack[name].append(c["cost_java_stack_ns"] / c["cost_java_stacks"] / 1000)
        print(f"{prog} ({a.runs} rounds, interleaved; ratios to the same round's run alone, medians)\n")
        print("| configuration | median CPU, process tree | tree / alone | JVM process / alone |")
        print("|---|---|---|---|")
        for name, _ in configs:
            if not tree[name]:
                continue
            j = pct(statistics.median(jvm[name])) if jvm[name] else "–"
            print(f"| {name} | {statistics.median(abs_cpu[name]):.3f} s | {pct(statistics.median(tree[name]))} | {j} |")
        print()
        keys = [("cost_signal_ns", "clock signal handlers"), ("cost_java_stack_ns", "of which AsyncGetCallTrace"),
                ("cost_helper_cpu_ns", "sampler thread"), ("cost_java_agent_cpu_ns", "JVMTI agent callbacks"),
                ("cost_start_cpu_ns", "collector start"), ("cost_exit_cpu_ns", "collector exit")]
        for name, collect in configs:
            if collect is None or not costs[name]:
                continue
            parts = []
            for k, label in keys:
                v = [c[k] for c in costs[name] if k in c]
                if v:
                    parts.append(f"{label} {100 * statistics.median(v):.2f} %")
            line = f"{name}, shares of the JVM's CPU alone: " + ", ".join(parts)
            if per_signal[name]:
                line += f"; {statistics.median(per_signal[name]):.1f} µs per clock signal"
            if per_stack[name]:
                line += f", {statistics.median(per_stack[name]):.1f} µs per AsyncGetCallTrace"
            print(line)
        print()
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
