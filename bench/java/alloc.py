#!/usr/bin/env python3
"""Java allocation tracing cost (docs/java.md, docs/performance.md): the real-program corpus's
Java program (tests/corpus/run_corpus.py, JAVA_MAIN: two threads building strings, Long.toString
and hashCode, about 1.9 M short-lived objects each of a few kinds) run alone and under collect
-p on with -H on in each Java allocation mode, interleaved. Reports the median wall time and the
median CPU time of the whole run (user + system of the process tree, collect included) per
configuration, and the Java objects each mode saw (records) and estimated.

  alone                              java -cp classes Main
  -p on                              collect -p on ... (clock profiling alone: the reference)
  -H on, Java allocs off             ERKIT_JAVA_ALLOCS=off collect -p on -H on ... (malloc only)
  -H on, sampled (512 KiB, default)  collect -p on -H on ...
  -H on, sampled 64 KiB              ERKIT_JAVA_ALLOC_INTERVAL=65536 collect -p on -H on ...
  -H on, every object                ERKIT_JAVA_ALLOCS=on collect -p on -H on ...

usage: bench/java/alloc.py BUILD_DIR [RUNS]"""
import importlib.util, json, os, resource, shutil, statistics, subprocess, sys, tempfile, time


def corpus_main(root):
    spec = importlib.util.spec_from_file_location("run_corpus", os.path.join(root, "tests", "corpus", "run_corpus.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.JAVA_MAIN


def timed(cmd, env, cwd):
    """(status, wall s, CPU s of the process tree: user + system of the command and its children)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, wall, ru.ru_utime + ru.ru_stime


def java_objects(er_print, exp):
    """The Java objects an experiment holds (estimated in sampled mode): the exclusive
    Allocations of the Java methods in expert mode (a Java object's stack is Java frames alone,
    the JVM's mallocs end in malloc)."""
    out = subprocess.run([er_print, "-json", "-viewmode", "expert", "-metrics", "e.alloc", "-limit", "0",
                          "-functions", exp], capture_output=True, text=True).stdout
    total = 0

    def walk(v):
        nonlocal total
        if isinstance(v, dict):
            name = v.get("name")
            if isinstance(name, str) and isinstance(v.get("values"), list) and v["values"]:
                head = name.split("(")[0]
                if "(" in name and "." in head and " " not in head and "::" not in head and not name.startswith("<"):
                    total += v["values"][0]
                return
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for line in out.splitlines():
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        if doc.get("command") == "functions":
            walk(doc)
    return total


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    build = os.path.abspath(sys.argv[1])
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    work = tempfile.mkdtemp(prefix="erkit-java-alloc-bench-")
    with open(os.path.join(work, "Main.java"), "w") as f:
        f.write(corpus_main(root))
    subprocess.run(["javac", "-d", os.path.join(work, "classes"), os.path.join(work, "Main.java")], check=True)
    java = ["java", "-cp", os.path.join(work, "classes"), "Main"]
    collect = os.path.join(build, "bin", "collect")
    er_print = os.path.join(build, "bin", "er_print")
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("ERKIT_JAVA_ALLOC")}
    configs = [
        ("alone", None, {}),
        ("-p on", ["-p", "on"], {}),
        ("-p on -H on, Java allocs off (malloc only)", ["-p", "on", "-H", "on"], {"ERKIT_JAVA_ALLOCS": "off"}),
        ("-p on -H on, sampled 512 KiB (default)", ["-p", "on", "-H", "on"], {}),
        ("-p on -H on, sampled 64 KiB", ["-p", "on", "-H", "on"], {"ERKIT_JAVA_ALLOC_INTERVAL": "65536"}),
        ("-p on -H on, every object (ERKIT_JAVA_ALLOCS=on)", ["-p", "on", "-H", "on"], {"ERKIT_JAVA_ALLOCS": "on"}),
    ]
    wall = {c[0]: [] for c in configs}
    cpu = {c[0]: [] for c in configs}
    objects = {c[0]: None for c in configs}
    for i in range(runs):
        for name, opts, extra in configs:
            env = dict(base_env, **extra)
            exp = os.path.join(work, f"r{i}_{len(wall[name])}_{configs.index((name, opts, extra))}.er")
            cmd = java if opts is None else [collect, "-o", exp] + opts + java
            status, w, c = timed(cmd, env, work)
            if status != 0:
                print(f"{name}: status {status}", file=sys.stderr)
                continue
            wall[name].append(w)
            cpu[name].append(c)
            if opts is not None and "-H" in opts and objects[name] is None:
                objects[name] = java_objects(er_print, exp)
            if opts is not None:
                shutil.rmtree(exp, ignore_errors=True)
    base_w, base_c = statistics.median(wall["alone"]), statistics.median(cpu["alone"])
    print(f"| configuration ({runs} runs each, interleaved) | median wall | median CPU (process tree) | CPU vs alone | Java objects (estimated) |")
    print("|---|---|---|---|---|")
    for name, _, _ in configs:
        if not cpu[name]:
            continue
        w, c = statistics.median(wall[name]), statistics.median(cpu[name])
        o = objects[name]
        print(f"| {name} | {w:.2f} s | {c:.2f} s | {100 * (c - base_c) / base_c:+.1f} % | "
              f"{'' if o is None else f'{o:,.0f}'} |")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
