"""What the numbers were measured on: hardware, kernel, tool versions, load."""
import os
import platform
import re

import proc


def _first(pattern, text, default="?"):
    m = re.search(pattern, text, re.M)
    return m.group(1).strip() if m else default


def config_hz():
    for path in (f"/boot/config-{platform.release()}", "/proc/config.gz"):
        if path.endswith(".gz") and os.path.exists(path):
            out = proc.text(["zcat", path])
        elif os.path.exists(path):
            out = open(path, errors="replace").read()
        else:
            continue
        m = re.search(r"^CONFIG_HZ=(\d+)", out, re.M)
        if m:
            return m.group(1)
    return "unknown (no kernel config readable)"


def load_average():
    try:
        return open("/proc/loadavg").read().split()[:3]
    except OSError:
        return ["?", "?", "?"]


def describe(ctx):
    lscpu = proc.text(["lscpu"])
    mem = _first(r"^MemTotal:\s+(\d+)", open("/proc/meminfo").read(), "0")
    commit = proc.text(["git", "-C", ctx.root, "rev-parse", "--short", "HEAD"]).strip() or "?"
    dirty = proc.text(["git", "-C", ctx.root, "status", "--porcelain", "--untracked-files=no"]).strip()
    os_name = _first(r'^PRETTY_NAME="?([^"\n]*)', open("/etc/os-release").read())
    gprofng = (proc.text(["gprofng", "--version"]).splitlines() or ["gprofng ?"])[0]
    cc = (proc.text(["cc", "--version"]).splitlines() or ["cc ?"])[0]
    paranoid = proc.text(["cat", "/proc/sys/kernel/perf_event_paranoid"]).strip() or "?"
    lines = [
        f"- CPU: {_first(r'^Model name:(.*)$', lscpu)}, {_first(r'^CPU[(]s[)]:(.*)$', lscpu)} CPUs "
        f"({_first(r'^Thread[(]s[)] per core:(.*)$', lscpu)} thread(s) per core), "
        f"hypervisor {_first(r'^Hypervisor vendor:(.*)$', lscpu, 'none reported')}",
        f"- Memory: {int(mem) // 1024 // 1024} GiB",
        f"- Kernel: `{platform.release()} {platform.version()}`, CONFIG_HZ={config_hz()}, "
        f"perf_event_paranoid={paranoid}",
        f"- OS: {os_name}",
        f"- Tools: {proc.text(['perf', 'version']).strip()}; {gprofng}; "
        f"{proc.text(['heaptrack', '--version']).strip() or 'heaptrack ?'}; {cc}",
        f"- erkit: commit `{commit}`{' (the shared working tree also had uncommitted changes)' if dirty else ''}, "
        f"build `{os.path.relpath(ctx.build, ctx.root)}` ({ctx.build_type})",
    ]
    return "\n".join(lines)
