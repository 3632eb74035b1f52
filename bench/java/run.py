#!/usr/bin/env python3
"""Java collection overhead (docs/java.md): a JIT-warm CPU-bound Java program run alone, under
erkit (collect -p on, the JVMTI agent and AsyncGetCallTrace) and under perf (-F 100 -g with
-XX:+PreserveFramePointer and a perf map, the frame-pointer approach), interleaved. Reports the
median CPU time of the timed (warm) part per configuration, erkit's per-sample handler cost
in the JVM and its helper thread's CPU.

usage: bench/java/run.py BUILD_DIR [RUNS]"""
import os, re, shutil, statistics, subprocess, sys, tempfile

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
    configs = {"alone": None, "erkit -p on": "erkit"}
    if have_perf:
        configs["perf -F 100 -g (+PreserveFramePointer)"] = "perf"
    cpu = {k: [] for k in configs}
    costs = []
    for i in range(runs):
        for name, kind in configs.items():
            if kind is None:
                cmd = java
            elif kind == "erkit":
                exp = os.path.join(work, f"b{i}.er")
                cmd = [collect, "-o", exp, "-p", "on"] + java
            else:
                cmd = ["perf", "record", "-q", "-F", "100", "-g", "-o", os.path.join(work, f"p{i}.data"), "java",
                       "-XX:+PreserveFramePointer", "-XX:+UnlockDiagnosticVMOptions", "-XX:+DumpPerfMapAtExit"] + java[1:]
            p = subprocess.run(cmd, capture_output=True, text=True, cwd=work)
            m = re.search(r"cpu_ns (\d+)", p.stdout)
            if not m:
                print(f"{name}: no result (status {p.returncode}): {p.stderr[-300:]}", file=sys.stderr)
                continue
            cpu[name].append(int(m.group(1)))
            if kind == "erkit":
                log = open(os.path.join(exp, "log")).read()
                c = dict(re.findall(r"(cost_\w+|process_cpu_ns)=(\d+)", log))
                costs.append({k: int(v) for k, v in c.items()})
    base = statistics.median(cpu["alone"])
    print(f"| configuration ({runs} runs each, interleaved) | median CPU of the warm part | overhead |")
    print("|---|---|---|")
    for name, v in cpu.items():
        if not v:
            continue
        med = statistics.median(v)
        print(f"| {name} | {med / 1e9:.3f} s | {100 * (med - base) / base:+.1f} % |")
    if costs:
        per = [c["cost_signal_ns"] / c["cost_signals"] for c in costs if c.get("cost_signals")]
        helper = [c["cost_helper_cpu_ns"] / c["process_cpu_ns"] for c in costs if c.get("process_cpu_ns")]
        print()
        print(f"erkit in the JVM: {statistics.median(per) / 1000:.1f} µs per clock-sample signal (handler: machine "
              f"unwind + AsyncGetCallTrace, median of {len(per)} runs); helper thread "
              f"{100 * statistics.median(helper):.2f} % of the process CPU")
    shutil.rmtree(work, ignore_errors=True)
    return 0

if __name__ == "__main__":
    sys.exit(main())
