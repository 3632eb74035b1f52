#!/usr/bin/env python3
"""Java collection overhead (docs/java.md): a JIT-warm CPU-bound Java program run alone, under
erkit (collect -p on, the JVMTI agent and AsyncGetCallTrace) with the microstate sampler in the
JVM (a collector thread, the default) and in collect (ERKIT_SAMPLER=collect, issue 16), and
under perf (-F 100 -g with -XX:+PreserveFramePointer and a perf map, the frame-pointer approach),
interleaved. Reports per configuration the median CPU time of the timed (warm) part of the
program's thread, the median CPU of the whole run (user + system of the process tree: the
JVM, and collect or perf) and of the JVM process alone (erkit: the collector's process_cpu_ns), erkit's per-sample handler cost in the JVM, its sampler thread's CPU
and, with the sampler in collect, collect's sampling CPU.

usage: bench/java/run.py BUILD_DIR [RUNS]"""
import os, re, shutil, statistics, subprocess, sys, tempfile


def timed(cmd, env, cwd):
    """(status, stdout, CPU seconds of the process tree: user + system, waited-for children included)."""
    p = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    p.stdout.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, out, ru.ru_utime + ru.ru_stime


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    build = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    here = os.path.dirname(os.path.abspath(__file__))
    work = tempfile.mkdtemp(prefix="erkit-java-bench-")
    subprocess.run(["javac", "-d", work, os.path.join(here, "JavaCpu.java")], check=True)
    java = ["java", "-cp", work, "JavaCpu", "200"]
    collect = os.path.join(build, "bin", "collect")
    have_perf = shutil.which("perf") is not None
    env = {k: v for k, v in os.environ.items() if k != "ERKIT_SAMPLER"}
    configs = {"alone": None, "erkit -p on (sampler thread)": "erkit",
               "erkit -p on, ERKIT_SAMPLER=collect": "erkit-outside"}
    if have_perf:
        configs["perf -F 100 -g (+PreserveFramePointer)"] = "perf"
    cpu = {k: [] for k in configs}
    tree = {k: [] for k in configs}
    jvm = {k: [] for k in configs}  # the JVM process's own CPU: its log's process_cpu_ns under erkit
    costs = {"erkit": [], "erkit-outside": []}
    for i in range(runs):
        for name, kind in configs.items():
            run_env = env
            if kind is None:
                cmd = java
            elif kind.startswith("erkit"):
                exp = os.path.join(work, f"b{i}_{kind}.er")
                cmd = [collect, "-o", exp, "-p", "on"] + java
                if kind == "erkit-outside":
                    run_env = dict(env, ERKIT_SAMPLER="collect")
            else:
                cmd = ["perf", "record", "-q", "-F", "100", "-g", "-o", os.path.join(work, f"p{i}.data"), "java",
                       "-XX:+PreserveFramePointer", "-XX:+UnlockDiagnosticVMOptions", "-XX:+DumpPerfMapAtExit"] + java[1:]
            status, out, tree_cpu = timed(cmd, run_env, work)
            m = re.search(r"cpu_ns (\d+)", out)
            if status != 0 or not m:
                print(f"{name}: no result (status {status})", file=sys.stderr)
                continue
            cpu[name].append(int(m.group(1)))
            tree[name].append(tree_cpu)
            if kind is None:
                jvm[name].append(tree_cpu)
            if kind and kind.startswith("erkit"):
                log = open(os.path.join(exp, "log")).read()
                c = {k: int(v) for k, v in re.findall(r"(cost_\w+|process_cpu_ns)=(\d+)", log)}
                s = re.search(r"sampler where=collect .*?cpu_ns=(\d+)", log)
                if s:
                    c["collect_sampler_cpu_ns"] = int(s.group(1))
                costs[kind].append(c)
                if c.get("process_cpu_ns"):
                    jvm[name].append(c["process_cpu_ns"] / 1e9)
                shutil.rmtree(exp, ignore_errors=True)
    base = statistics.median(cpu["alone"])
    base_tree = statistics.median(tree["alone"])
    print(f"| configuration ({runs} runs each, interleaved) | median CPU of the warm part | overhead | "
          f"median CPU of the whole run (process tree) | overhead | median CPU of the JVM process | overhead |")
    print("|---|---|---|---|---|---|---|")
    for name, v in cpu.items():
        if not v:
            continue
        med, t = statistics.median(v), statistics.median(tree[name])
        j = f"{statistics.median(jvm[name]):.3f} s | {100 * (statistics.median(jvm[name]) - base_tree) / base_tree:+.1f} %" \
            if jvm[name] else "– | –"
        print(f"| {name} | {med / 1e9:.3f} s | {100 * (med - base) / base:+.1f} % | {t:.3f} s | "
              f"{100 * (t - base_tree) / base_tree:+.1f} % | {j} |")
    print()
    for kind, label in (("erkit", "sampler thread"), ("erkit-outside", "ERKIT_SAMPLER=collect")):
        cs = costs[kind]
        if not cs:
            continue
        per = [c["cost_signal_ns"] / c["cost_signals"] for c in cs if c.get("cost_signals")]
        helper = [c.get("cost_helper_cpu_ns", 0) / c["process_cpu_ns"] for c in cs if c.get("process_cpu_ns")]
        line = (f"erkit in the JVM ({label}): {statistics.median(per) / 1000:.1f} µs per clock-sample signal "
                f"(handler: machine unwind + AsyncGetCallTrace, median of {len(per)} runs); collector threads "
                f"{100 * statistics.median(helper):.2f} % of the JVM's CPU")
        outside = [c["collect_sampler_cpu_ns"] / c["process_cpu_ns"] for c in cs
                   if c.get("collect_sampler_cpu_ns") is not None and c.get("process_cpu_ns")]
        if outside:
            line += f"; collect's sampling {100 * statistics.median(outside):.2f} % of it (outside the JVM)"
        print(line)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
