#!/usr/bin/env python3
"""erkit next to perf on real programs (issue 15): function shares and the user/system split.

Usage: bench/accuracy/compare_perf.py BUILD_DIR [WORKDIR]

For each program: `collect` (-p on) and `perf record -e cpu-clock -c 10000000 -g` (kernel
samples included, run as root). Compared:
  - function shares of the user-code time: erkit's exclusive User CPU per function over the
    total User CPU; perf's user-mode samples per symbol over all user-mode samples;
  - the system share of the run: erkit's System / (User + System); perf's kernel samples
    over all samples;
  - where system time goes: erkit's exclusive System per function over total System; perf's
    kernel samples by the first user-code frame of their call chain.
Prints one line per comparison and, last, the largest difference in percentage points.
"""
import collections
import os
import re
import subprocess
import sys


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=True, check=True, capture_output=True, text=True, **kw).stdout


def norm(name):
    """One spelling for both tools: code without symbols by its start address alone (the
    object's name differs: liblzma.so.5 vs liblzma.so.5.4.1), no leading underscores
    (erkit shows the public alias strcoll_l, perf __strcoll_l)."""
    if name.startswith("<static>@"):
        return name.split(" ")[0]
    return name.lstrip("_")


def erkit_rows(build, exp):
    out = sh(f"{build}/bin/er_print -metrics e.user:e.system -functions {exp}")
    rows = {}
    for line in out.splitlines():
        m = re.match(r"\s*([\d.]+)\s+([\d.]+)\s+(\S.*)$", line)
        if m:
            name = m.group(3).strip()
            key = name if name == "<Total>" else norm(name)
            old = rows.get(key, (0.0, 0.0))
            rows[key] = (old[0] + float(m.group(1)), old[1] + float(m.group(2)))
    return rows


_fdes = {}


def fde_name(dso, ip):
    """erkit's name for code without symbols: the .eh_frame FDE around ip."""
    if dso not in _fdes:
        out = subprocess.run(f"readelf -wf {dso} 2>/dev/null", shell=True, capture_output=True, text=True).stdout
        _fdes[dso] = [(int(a, 16), int(b, 16)) for a, b in re.findall(r"FDE .*pc=([0-9a-f]+)\.\.([0-9a-f]+)", out)]
    for lo, hi in _fdes[dso]:
        if lo <= ip < hi:
            return f"<static>@{lo:#x} (<{os.path.basename(dso)}>)"
    return "[unknown]"


def perf_samples(data):
    """(user leaf symbol or None, first user symbol for kernel samples) per sample."""
    out = subprocess.run(f"perf script -i {data} -F ip,sym,dso 2>/dev/null", shell=True,
                         capture_output=True, text=True).stdout
    samples, frames = [], []
    for line in out.splitlines() + [""]:
        if line.strip():
            m = re.match(r"\s*([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$", line)
            if m:
                sym, dso = m.group(2).split("+")[0], m.group(3)
                if sym == "[unknown]" and dso.startswith("/"):
                    sym = fde_name(dso, int(m.group(1), 16))
                frames.append((sym, dso))
            continue
        if frames:
            kernel = "kernel" in frames[0][1] or frames[0][1].startswith("[")
            user = next((s for s, d in frames if not ("kernel" in d or d.startswith("["))), "[unknown]")
            samples.append((kernel, norm(user)))
            frames = []
    return samples


def compare(build, work, name, cmd):
    exp, data = f"{work}/{name}.er", f"{work}/{name}.data"
    sh(f"rm -rf {exp} {data}")
    sh(f"{build}/bin/collect -o {exp} {cmd} > /dev/null")
    sh(f"perf record -q -e cpu-clock -c 10000000 -g -o {data} {cmd} > /dev/null 2>&1")
    rows = erkit_rows(build, exp)
    tu, ts = rows.get("<Total>", (0, 0))
    samples = perf_samples(data)
    n = len(samples)
    nk = sum(1 for k, _ in samples if k)
    user_by = collections.Counter(u for k, u in samples if not k)
    sys_by = collections.Counter(u for k, u in samples if k)
    diffs = []
    top = sorted(((v[0], f) for f, v in rows.items() if f != "<Total>"), reverse=True)[:5]
    for _, f in top:
        e = 100 * rows[f][0] / tu if tu else 0
        p = 100 * user_by.get(f, 0) / (n - nk) if n > nk else 0
        diffs.append((abs(e - p), f"{name}: {f} share of user time: erkit {e:.1f} %, perf {p:.1f} %"))
    e_sys = 100 * ts / (tu + ts) if tu + ts else 0
    p_sys = 100 * nk / n if n else 0
    diffs.append((abs(e_sys - p_sys), f"{name}: system share of the run: erkit {e_sys:.1f} %, perf {p_sys:.1f} %"))
    for _, f in sorted(((v[1], f) for f, v in rows.items() if f != "<Total>"), reverse=True)[:2]:
        e = 100 * rows[f][1] / ts if ts else 0
        p = 100 * sys_by.get(f, 0) / nk if nk else 0
        diffs.append((abs(e - p), f"{name}: {f} share of system time: erkit {e:.1f} %, perf {p:.1f} %"))
    for _, text in diffs:
        print(text)
    return max(diffs)


def main():
    build = os.path.abspath(sys.argv[1])
    work = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "/tmp/erkit_compare_perf")
    os.makedirs(work, exist_ok=True)
    big = f"{work}/big.bin"
    if not os.path.exists(big):
        sh(f"head -c 300000000 /dev/urandom > {big}")
    text = f"{work}/words.txt"
    if not os.path.exists(text):
        sh(f"seq 1 6000000 | sed 's/$/ lorem ipsum/' > {text}")
    programs = [
        ("sha256sum", f"sha256sum {big}"),
        ("gzip", f"gzip -c -6 {text}"),
        ("xz", f"xz -c -1 -T1 {text}"),
        ("sort", f"sort -r {text}"),
    ]
    worst = max(compare(build, work, n, c) for n, c in programs)
    print(f"largest difference: {worst[0]:.1f} points ({worst[1]})")


if __name__ == "__main__":
    main()
