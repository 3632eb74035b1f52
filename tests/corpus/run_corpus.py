#!/usr/bin/env python3
"""Real-program corpus (issue 11): programs nobody here wrote, from Debian packages, run once
without erkit and once under `collect` with every data kind collect accepts. For each program:

  * the exit status, stdout (and stderr, and any files it writes) must be the same both times;
  * er_print must open the founder experiment and every descendant experiment without a
    problem, its header must say how the program ended, and
  * the program's known hot functions must hold their share of the profile.

Inputs are generated at run time (deterministically) under the work directory. Usage:

  run_corpus.py --bin-dir build/bin [--work DIR] [--only REGEX] [--keep] [--list]

Exit status 0 when every case that could run passed and at least --min-programs ran.
"""
import argparse
import hashlib
import os
import random
import re
import shutil
import subprocess
import sys
import time

# ---- Checks on er_print's function list ---------------------------------------------------


class Hot:
    """A share of the profile that rows matching `pattern` must hold.

    kind "incl": the largest inclusive time of one matching row, "excl": the sum of the
    exclusive times of every matching row. Times are user + system CPU; the share is of
    <Total>. Patterns are searched in the function name as er_print shows it, e.g.
    r"^lzma_code$" or r"\\(<gzip>\\)" (a stripped object's unnamed code)."""

    def __init__(self, kind, pattern, share, on="name"):
        self.kind, self.pattern, self.share, self.on = kind, re.compile(pattern), share, on

    def measure(self, rows, total):
        vals = [(r["e"] if self.kind == "excl" else r["i"]) for name, r in rows.items()
                if name != "<Total>" and r.get("obj") not in COLLECTOR_OBJECTS and
                self.pattern.search(name if self.on == "name" else r.get("obj", ""))]
        if not vals or total <= 0:
            return 0.0
        return (sum(vals) if self.kind == "excl" else max(vals)) / total

    def __str__(self):
        return f"{self.kind} {'object ' if self.on == 'obj' else ''}/{self.pattern.pattern}/ >= {self.share:.0%}"


def incl(pattern, share):
    return Hot("incl", pattern, share)


def excl(pattern, share):
    return Hot("excl", pattern, share)


def excl_in(object_pattern, share):
    """The exclusive time of every function of the matching load objects."""
    return Hot("excl", object_pattern, share, on="obj")


class Case:
    """One program of the corpus.

    argv: the command; "{in}" is replaced by the shared input directory.
    needs: executables that must exist (the case is skipped otherwise).
    prepare(run_dir, in_dir): per-run setup (both runs get identical inputs).
    hot: checks on the founder's profile; descendant_hot: checks that some descendant
    experiment must pass (only when collect follows descendants).
    outputs: files (relative to the run directory) whose contents must match.
    sort_stdout: compare stdout as a sorted list of lines, or of bytes where writers interleaved
    within a line (parallel ranks)."""

    def __init__(self, name, argv, needs=None, prepare=None, hot=(), descendant_hot=(), outputs=(),
                 sort_stdout=False, compare_stderr=True, note=""):
        self.name, self.argv = name, argv
        self.needs = needs if needs is not None else [argv[0]]
        self.prepare, self.hot, self.descendant_hot = prepare, list(hot), list(descendant_hot)
        self.outputs, self.sort_stdout, self.compare_stderr, self.note = outputs, sort_stdout, compare_stderr, note


# ---- Inputs ---------------------------------------------------------------------------------

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
         "sigma tau upsilon phi chi psi omega profile sample stack thread collect experiment").split()


def make_inputs(d):
    """Shared inputs: text, numbered lines, a directory tree, scripts, a C file, Java sources."""
    rng = random.Random(11)
    os.makedirs(d, exist_ok=True)
    lines = []
    for i in range(60000):
        lines.append(" ".join(rng.choice(WORDS) for _ in range(8)) + f" {rng.randrange(10**9)}")
    text = "\n".join(lines) + "\n"
    write(d, "text.txt", text)  # ~4 MB of compressible text
    write(d, "numbers.txt", "".join(f"{rng.choice(WORDS)} {rng.randrange(10**6)} {i}\n" for i in range(150000)))
    tree = os.path.join(d, "tree")
    for i in range(30):
        for j in range(60):
            write(tree, f"d{i:02}/f{j:02}.txt", text[(i * 60 + j) * 997:(i * 60 + j) * 997 + 2000 + 37 * j])
    for i in range(4):
        write(d, f"part{i}.txt", text[i * 400000:(i + 1) * 400000])
    write(d, "fib.py", PY_SCRIPT)
    write(d, "words.pl", PERL_SCRIPT)
    write(d, "query.sql", SQL_SCRIPT)
    write(d, "stats.awk", AWK_SCRIPT)
    write(d, "subshells.sh", BASH_SCRIPT)
    write(d, "gen.c", c_source(rng))
    write(d, "Makefile", MAKEFILE)
    write(d, "Main.java", JAVA_MAIN)
    write(d, "Tool.java", JAVA_TOOL)


def write(d, rel, content):
    p = os.path.join(d, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(content)


PY_SCRIPT = """
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
words = {}
with open(__import__('sys').argv[1]) as f:
    for line in f:
        for w in line.split():
            words[w] = words.get(w, 0) + 1
print(fib(25), len(words), sorted(words.items(), key=lambda kv: -kv[1])[:3])
"""

PERL_SCRIPT = r"""
my %count; my $n = 0;
while (my $line = <>) {
  for my $w (split /\s+/, $line) { $count{$w}++; $n++ if $w =~ /^[a-m]\w*a$/; }
}
my @top = (sort { $count{$b} <=> $count{$a} || $a cmp $b } keys %count)[0..2];
print "$n @top\n";
"""

SQL_SCRIPT = """
CREATE TABLE t(a INTEGER, b TEXT);
WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 80000)
  INSERT INTO t SELECT x, hex(x * 7919) FROM c;
CREATE INDEX tb ON t(b);
SELECT count(*), sum(a), max(b) FROM t WHERE b LIKE '%A%';
SELECT substr(b, 1, 2) AS k, count(*) FROM t GROUP BY k ORDER BY 2 DESC, 1 LIMIT 3;
"""

AWK_SCRIPT = """
{ n[$1]++; s[$1] += $2; len += length($0) }
END { for (k in n) out = out sprintf("%s %d %.3f\\n", k, n[k], s[k] / n[k]); printf "%s", out | "sort"; print len }
"""

BASH_SCRIPT = """
s=0
for i in $(seq 1 150); do x=$( echo $((i * i)) ); s=$((s + ${#x})); done
for ((i = 0; i < 60000; i++)); do s=$(( (s + i * 7) % 1000003 )); done
words=( $(head -c 200000 "$1") ); echo "$s ${#words[@]}"
"""

MAKEFILE = """
PARTS := $(wildcard part*.txt)
all: all.sum
%.gz: %.txt
\tgzip -9 -n -c $< > $@
all.sum: $(PARTS:.txt=.gz)
\tcat $^ | sha256sum > $@
"""

JAVA_MAIN = """
public class Main {
  static long work(int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += Long.toString(i * 31L).hashCode() % 7;
    return s;
  }
  public static void main(String[] a) throws Exception {
    Thread t = new Thread(() -> System.out.println("thread " + work(400000)));
    t.start();
    System.out.println("main " + work(1500000));
    t.join();
  }
}
"""

JAVA_TOOL = """
import java.util.*;
public class Tool {
  public static void main(String[] a) {
    Map<String, Integer> m = new TreeMap<>();
    for (int i = 0; i < 100000; i++) m.merge("k" + (i % 977), i, Integer::sum);
    System.out.println(m.size() + " " + m.get("k5"));
  }
}
"""


def c_source(rng):
    """A C file with enough work for cc1 at -O2 (~0.5 s)."""
    out = ["#include <stdio.h>\n#include <string.h>\n"]
    for i in range(60):
        a, b = rng.randrange(1, 97), rng.randrange(1, 89)
        out.append(f"""
static int f{i}(const int *v, int n) {{
  int s = {a};
  for (int k = 0; k < n; k++) {{
    if (v[k] % {b} == {i % 7}) s += v[k] * {a}; else s ^= v[k] << (k % 5);
    switch (v[k] & 7) {{ case 0: s += {i}; break; case 1: s -= {b}; break; case 3: s *= 3; break; default: s++; }}
  }}
  return s;
}}""")
    out.append("\nint main(void) {\n  int v[64]; for (int i = 0; i < 64; i++) v[i] = i * 37;\n  long t = 0;\n")
    out += [f"  t += f{i}(v, 64);\n" for i in range(60)]
    out.append('  printf("%ld\\n", t);\n  return 0;\n}\n')
    return "".join(out)


def git_prepare(run_dir, in_dir):
    repo = os.path.join(run_dir, "repo")
    subprocess.run(["git", "init", "-q", repo], check=True, env=ENV)
    shutil.copy(os.path.join(in_dir, "text.txt"), repo)


def copy_inputs(*names):
    def prepare(run_dir, in_dir):
        for n in names:
            shutil.copy(os.path.join(in_dir, n), run_dir)
    return prepare


MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-np", "2"]

CASES = [
    Case("python3", ["/usr/bin/python3", "{in}/fib.py", "{in}/text.txt"],
         hot=[incl(r"^_PyEval_EvalFrameDefault$", 0.5)]),
    Case("perl", ["perl", "{in}/words.pl", "{in}/text.txt"],
         hot=[incl(r"^Perl_runops_standard$", 0.5), excl_in(r"^libperl\.so|^perl$", 0.3)]),
    Case("xz", ["xz", "-6", "-T1", "-c", "{in}/part0.txt"],
         hot=[incl(r"^lzma_code$", 0.8), excl_in(r"^liblzma\.so", 0.6)]),
    Case("gzip", ["gzip", "-9", "-c", "{in}/text.txt"], hot=[excl_in(r"^gzip$", 0.6)],
         note="gzip is stripped: its deflate/longest_match show as <gzip> code"),
    Case("bzip2", ["bzip2", "-9", "-c", "{in}/text.txt"],
         hot=[incl(r"^BZ2_compressBlock$", 0.6), excl_in(r"^libbz2\.so", 0.6)]),
    Case("sort", ["sort", "-k2,2n", "-k1,1", "{in}/numbers.txt"],
         hot=[excl_in(r"^sort$|^libc\.so", 0.6)]),
    Case("gcc", ["gcc", "-O2", "-c", "-o", "gen.o", "{in}/gen.c"], outputs=["gen.o"],
         hot=[], descendant_hot=[excl_in(r"^cc1$", 0.5)],
         note="the driver only waits: the work is in the cc1 and as descendants"),
    Case("make", ["make", "-s", "-j2", "-f", "{in}/Makefile", "all.sum"], needs=["make", "gzip"],
         prepare=copy_inputs("part0.txt", "part1.txt", "part2.txt", "part3.txt"),
         outputs=["all.sum", "part0.gz", "part3.gz"], descendant_hot=[excl_in(r"^gzip$", 0.5)]),
    Case("bash", ["bash", "{in}/subshells.sh", "{in}/text.txt"], hot=[incl(r"^execute_command_internal$", 0.5)],
         note="bash mallocs constantly: with -H on the collector's own time dominates"),
    Case("sqlite3", ["sqlite3", ":memory:", ".read {in}/query.sql"],
         hot=[incl(r"^sqlite3VdbeExec$", 0.5), incl(r"^sqlite3_step$", 0.5)]),
    Case("git", ["git", "-C", "repo", "-c", "core.compression=9", "hash-object", "-w", "text.txt"],
         prepare=git_prepare, hot=[incl(r"^deflate$", 0.3)]),
    Case("gawk", ["gawk", "-f", "{in}/stats.awk", "{in}/numbers.txt"], needs=["gawk", "sort"],
         hot=[excl_in(r"^gawk$", 0.3)]),
    # /usr/share as a whole: ~0.3 s of CPU (with only /usr/share/perl, 50 ms gave too few samples
    # for the share check to be stable).
    Case("find", ["find", "/usr/include", "/usr/share", "/usr/lib/python3", "-regex", r".*/[a-m][a-z_]*\.\(h\|pm\)$"],
         hot=[incl(r"re_search|getdents|readdir|fstatat|openat|^__GI___close", 0.2)]),
    # 512-byte records (-b1) over all of /usr/include: ~0.3 s of CPU. tar of the input alone took
    # ~10 ms, one or two samples under load, and the share check failed when one landed elsewhere.
    Case("tar", ["tar", "-b1", "-cf", "out.tar", "-C", "/usr/include", "."], outputs=["out.tar"],
         hot=[incl(r"libc_write$|libc_read$|^read$|^write$", 0.15)]),
    Case("grep", ["grep", "-c", "-E", r"(a|e)[a-z]+ [a-z]+\1 [a-z]+\1 ", "{in}/part0.txt"],
         hot=[incl(r"^re_search_internal$|^check_matching$|^regexec", 0.5)],
         note="grep -P would run JIT code (<Unknown>): -E with back-references runs glibc's regex"),
    Case("openssl", ["openssl", "enc", "-aes-256-cbc", "-pbkdf2", "-iter", "100000", "-S", "0011223344556677",
                     "-pass", "pass:corpus", "-in", "{in}/part0.txt", "-out", "enc.bin"],
         outputs=["enc.bin"], hot=[incl(r"^PKCS5_PBKDF2_HMAC$", 0.8)]),
    # Its two threads print in a racy order (seen flipped under load): compared as sorted lines.
    Case("java", ["java", "-cp", "{in}/classes", "Main"], sort_stdout=True,
         hot=[incl(r"^Main\.work\(int\)$", 0.05), incl(r"^<JVM-System>$", 0.02)],
         note="Java profiling is on for a java target: the user view mode shows Java methods by name "
              "(docs/java.md); the JVM's own threads are <JVM-System>"),
    Case("javac", ["javac", "-d", "out", "{in}/Tool.java"], outputs=["out/Tool.class"],
         hot=[incl(r"^CompileBroker::compiler_thread_loop", 0.05)],
         note="time in interpreted and JIT-compiled Java code cannot be unwound to JavaMain"),
    Case("mpirun", MPIRUN + ["/usr/bin/python3", "{in}/fib.py", "{in}/text.txt"], needs=["mpirun"],
         sort_stdout=True, compare_stderr=False, hot=[incl(r"^orte_init$|^orte_submit_init$", 0.05)],
         descendant_hot=[incl(r"^_PyEval_EvalFrameDefault$", 0.5)],
         note="mpirun (orterun) forks the ranks; stderr may carry Open MPI notices"),
    Case("node", ["node", "-e", "let s = 0; for (let i = 0; i < 1e7; i++) s += i % 7; console.log(s)"],
         hot=[incl(r"^node::Start|^node::NodeMainInstance::Run|^v8::", 0.5)]),
]

ENV = dict(os.environ, LC_ALL="C", LANG="C", TZ="UTC", GIT_CONFIG_NOSYSTEM="1", OMPI_MCA_plm_rsh_agent="",
           OMPI_MCA_rmaps_base_oversubscribe="1")
ENV.pop("LD_PRELOAD", None)


# ---- Running -------------------------------------------------------------------------------


def which(prog):
    return prog if os.path.isabs(prog) and os.access(prog, os.X_OK) else shutil.which(prog, path=ENV["PATH"])


def run(argv, cwd, timeout=300):
    t0 = time.monotonic()
    p = subprocess.run(argv, cwd=cwd, env=ENV, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    return p, time.monotonic() - t0


def detect_collect_flags(collect):
    """`-p hi` plus every data kind `collect -n` accepts today."""
    flags = ["-p", "hi"]
    for extra in (["-s", "all"], ["-H", "on"], ["-i", "on"], ["-F", "all"]):
        p = subprocess.run([collect, "-n"] + flags + extra + ["/bin/true"], env=ENV, capture_output=True)
        if p.returncode == 0:
            flags += extra
    return flags


COLLECTOR_OBJECTS = ("libcollector.so", "libcollector-clock.so")


def function_rows(er_print, exp, cwd):
    """{name: {"e": excl user+sys, "i": incl user+sys, "obj": load object}} and the er_print
    result. Names are shown with their object ("name (libfoo.so)") so that the collector's own
    time (tracing, unwinding inside the target) can be told apart from the program's."""
    p, _ = run([er_print, "-name", "long:soname", "-metrics", "e.user:i.user:e.system:i.system:name",
                "-sort", "i.user", "-functions", exp], cwd)
    rows = {}
    for line in p.stdout.decode(errors="replace").splitlines():
        toks, vals = line.split(), []
        while toks:
            try:
                vals.append(float(toks[0]))
                toks.pop(0)
            except ValueError:
                break
        if len(vals) == 4 and toks:
            name, obj = line.split(None, 4)[4].lstrip(" *"), ""
            m = re.match(r"^(.*) \(([^()]+)\)$", name)  # objects: libfoo.so, <JAVA_CLASSES>
            if m:
                name, obj = m.group(1), m.group(2)
            rows[name] = {"e": vals[0] + vals[2], "i": vals[1] + vals[3], "obj": obj}
    return rows, p


def program_total(rows):
    """<Total> less the collector's own exclusive time: the program's share of the profile."""
    total = rows.get("<Total>", {}).get("i", 0.0)
    return total - sum(r["e"] for r in rows.values() if r["obj"] in COLLECTOR_OBJECTS)


def descendants(exp_dir):
    out = []
    for root, dirs, _ in os.walk(exp_dir):
        for d in sorted(dirs):
            if d.startswith("_") and d.endswith(".er"):
                out.append(os.path.join(root, d))
    return out


def strip_collect_lines(b):
    return b"\n".join(l for l in b.split(b"\n") if not l.startswith(b"collect: "))


def digest(path):
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        return f"<{e.strerror}>"


def check_experiment(er_print, exp, cwd, problems, label):
    """Opens one experiment: header and function list must come without warnings."""
    h, _ = run([er_print, "-header", exp], cwd)
    if h.returncode != 0 or b"warning" in h.stderr:
        problems.append(f"{label}: er_print -header failed ({h.returncode}): {h.stderr.decode(errors='replace')[:400]}")
    rows, f = function_rows(er_print, exp, cwd)
    if f.returncode != 0 or b"warning" in f.stderr:
        problems.append(f"{label}: er_print -functions failed ({f.returncode}): {f.stderr.decode(errors='replace')[:400]}")
    return h.stdout.decode(errors="replace"), rows


def run_case(case, args, flags, in_dir, work):
    """Returns (status, message): status "ok", "FAIL" or "skip"."""
    missing = [n for n in case.needs if not which(n)]
    if missing:
        return "skip", f"not installed: {' '.join(missing)}"
    argv = [a.replace("{in}", in_dir) for a in case.argv]
    argv[0] = which(argv[0])
    dirs = {}
    for kind in ("plain", "collect"):
        d = os.path.join(work, case.name, kind)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        if case.prepare:
            case.prepare(d, in_dir)
        dirs[kind] = d
    plain, t_plain = run(argv, dirs["plain"])
    coll, t_coll = run([args.collect] + flags + argv, dirs["collect"])
    problems = []
    if plain.returncode != coll.returncode:
        problems.append(f"exit status {coll.returncode} under collect, {plain.returncode} without")
    out_p, out_c = plain.stdout, coll.stdout
    if case.sort_stdout:
        out_p, out_c = sorted(out_p.split(b"\n")), sorted(out_c.split(b"\n"))
        if out_p != out_c:
            # Writers that share the stream (ranks forwarded by mpirun) can interleave within a
            # line under load, with or without collect (seen in CI: 142 bytes each, one line
            # split): the same bytes in another order are the same output.
            out_p, out_c = sorted(plain.stdout), sorted(coll.stdout)
    if out_p != out_c:
        problems.append(f"stdout differs ({len(plain.stdout)} bytes without, {len(coll.stdout)} with collect)")
    if case.compare_stderr and plain.stderr != strip_collect_lines(coll.stderr):
        problems.append("stderr differs: without: %r, with: %r" % (plain.stderr[:300], coll.stderr[:300]))
    for o in case.outputs:
        if digest(os.path.join(dirs["plain"], o)) != digest(os.path.join(dirs["collect"], o)):
            problems.append(f"output file {o} differs")
    exp = os.path.join(dirs["collect"], "test.1.er")
    if not os.path.isdir(exp):
        problems.append("no experiment was recorded")
        return "FAIL", "; ".join(problems)
    header, rows = check_experiment(args.er_print, exp, dirs["collect"], problems, "founder")
    if plain.returncode >= 0 and f"exited with status {plain.returncode}" not in header:
        problems.append("the header does not say 'exited with status %d': %r" % (plain.returncode, header[-300:]))
    total = program_total(rows)
    collector_share = 1 - total / rows["<Total>"]["i"] if rows.get("<Total>", {}).get("i") else 0
    shares = []
    for h in case.hot:
        share = h.measure(rows, total)
        shares.append(f"{h.pattern.pattern} {share:.0%}")
        if share < h.share:
            top = sorted(rows.items(), key=lambda kv: -kv[1]["e"])[:6]
            problems.append(f"founder: {h} not met ({share:.0%}); top: " +
                            ", ".join(f"{n} {r['e']:.3f}" for n, r in top))
    descs = descendants(exp)
    # Every descendant must open: their headers in batches (one er_print per descendant would
    # cost more than the programs); function lists only where descendants have hot checks.
    for i in range(0, len(descs), 100):
        batch = descs[i:i + 100]
        h, _ = run([args.er_print, "-header"] + batch, dirs["collect"])
        opened = h.stdout.count(b"Experiment: ")
        if h.returncode != 0 or b"warning" in h.stderr or opened != len(batch):
            problems.append(f"descendants: er_print -header opened {opened} of {len(batch)} ({h.returncode}): "
                            f"{h.stderr.decode(errors='replace')[:400]}")
    desc_rows = []
    for d in descs if case.descendant_hot else []:
        _, r = check_experiment(args.er_print, d, dirs["collect"], problems, os.path.relpath(d, exp))
        desc_rows.append((d, r))
    if "-F" in flags:
        for h in case.descendant_hot:
            best = max((h.measure(r, program_total(r)) for _, r in desc_rows), default=0.0)
            shares.append(f"descendant {h.pattern.pattern} {best:.0%}")
            if best < h.share:
                problems.append(f"descendants ({len(descs)}): {h} not met (best {best:.0%})")
    summary = (f"{t_plain:5.2f}s plain {t_coll:5.2f}s collect, {total:.3f}s CPU in the program "
               f"(+{collector_share:.0%} in the collector), "
               f"{len(descs)} descendants; " + ", ".join(shares))
    if problems:
        return "FAIL", summary + "\n      " + "\n      ".join(problems)
    if not args.keep:
        shutil.rmtree(os.path.join(work, case.name), ignore_errors=True)
    return "ok", summary


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin-dir", required=True, help="directory holding collect and er_print")
    ap.add_argument("--work", default="/tmp/erkit_corpus", help="work directory (recreated)")
    ap.add_argument("--only", help="regex: run only the matching cases")
    ap.add_argument("--keep", action="store_true", help="keep every case's directories and experiments")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--min-programs", type=int, default=15, help="fail if fewer cases could run")
    args = ap.parse_args()
    if args.list:
        for c in CASES:
            print(f"{c.name:9} {' '.join(c.argv)}")
        return 0
    args.bin_dir = os.path.abspath(args.bin_dir)
    args.collect = os.path.join(args.bin_dir, "collect")
    args.er_print = os.path.join(args.bin_dir, "er_print")
    for tool in (args.collect, args.er_print):
        if not os.access(tool, os.X_OK):
            print(f"run_corpus: {tool} is not built", file=sys.stderr)
            return 2
    shutil.rmtree(args.work, ignore_errors=True)
    in_dir = os.path.join(args.work, "inputs")
    make_inputs(in_dir)
    if which("javac"):
        subprocess.run(["javac", "-d", os.path.join(in_dir, "classes"), os.path.join(in_dir, "Main.java")],
                       check=True, env=ENV)
    flags = detect_collect_flags(args.collect)
    print(f"collect flags: {' '.join(flags)}", flush=True)
    counts = {"ok": 0, "FAIL": 0, "skip": 0}
    for case in CASES:
        if args.only and not re.search(args.only, case.name):
            continue
        try:
            status, msg = run_case(case, args, flags, in_dir, args.work)
        except subprocess.TimeoutExpired as e:
            status, msg = "FAIL", f"timed out: {e.cmd}"
        counts[status] += 1
        print(f"{status:4} {case.name:9} {msg}", flush=True)
    ran = counts["ok"] + counts["FAIL"]
    print(f"corpus: {counts['ok']} passed, {counts['FAIL']} failed, {counts['skip']} skipped")
    if counts["FAIL"]:
        return 1
    if not args.only and ran < args.min_programs:
        print(f"corpus: only {ran} programs could run (at least {args.min_programs} expected)")
        return 1
    if not args.keep:
        shutil.rmtree(args.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
