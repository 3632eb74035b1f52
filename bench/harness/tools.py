"""The profilers being compared: how each one is run around a workload, and how the samples,
CPU time and bytes it recorded are read back from its output.

Rates are matched: "on" is a 10 ms sampling period and "hi" 1 ms for every tool. perf uses the
cpu-clock software event with a fixed period in ns (-c), the only clock event on machines without
a PMU and the one that samples correctly here (anchors.md section 2).
"""
import os
import re
import shutil
import struct
from collections import Counter
from dataclasses import dataclass, field

import proc

PERF_PERIOD_NS = {"on": 10_000_000, "hi": 1_000_000}


@dataclass
class Recording:
    """What a tool says it recorded."""
    samples_by_tid: dict = field(default_factory=dict)  # tid -> samples (None: tool has no per-thread list)
    samples: int = 0
    interval_ns: float = 0.0       # the sampling period the tool used
    cpu_ns: float = 0.0            # CPU time the tool attributes to the program
    threads_with_data: int = 0
    bytes: int = 0
    trace_events: int = -1         # heap/sync records, -1 when not a tracing config
    other_samples: int = 0         # erkit: clock samples of waiting threads (not from the CPU timer)
    cost: dict = None              # erkit: what recording cost the process, measured inside it (log exit line)
    note: str = ""


@dataclass
class Config:
    key: str          # e.g. "erkit-on"
    tool: str         # none, erkit, perf, gprofng, heaptrack
    rate: str = ""    # on, hi, or "" for tracing configs
    label: str = ""
    flags: tuple = ()  # extra options for this config (tracing)

    def artifact(self, outdir, tag):
        ext = {"erkit": ".er", "gprofng": ".er", "perf": ".data", "heaptrack": ""}.get(self.tool, "")
        return os.path.join(outdir, f"{tag}{ext}")

    def command(self, ctx, wl, argv, artifact):
        if self.tool == "none":
            return list(argv)
        if self.tool == "erkit":
            d, name = os.path.split(artifact)
            rate = ["-p", self.rate] if self.rate else []
            return [ctx.collect, *rate, *self.flags, *wl.erkit_flags, "-d", d, "-o", name, *argv]
        if self.tool == "perf":
            return ["perf", "record", "-q", "-g", "-e", "cpu-clock", "-c", str(PERF_PERIOD_NS[self.rate]),
                    "-o", artifact, "--", *argv]
        if self.tool == "gprofng":
            rate = ["-p", self.rate] if self.rate else []
            return ["gprofng", "collect", "app", *rate, *self.flags, "-o", artifact, *argv]
        if self.tool == "heaptrack":
            return ["heaptrack", "-o", artifact, *argv]
        raise ValueError(self.tool)

    def read(self, ctx, artifact):
        if self.tool == "erkit":
            return read_erkit(ctx, artifact)
        if self.tool == "perf":
            return read_perf(artifact, PERF_PERIOD_NS[self.rate])
        if self.tool == "gprofng":
            return read_gprofng(artifact)
        if self.tool == "heaptrack":
            path = artifact + ".zst" if os.path.exists(artifact + ".zst") else artifact + ".gz"
            return Recording(bytes=proc.tree_bytes(path), trace_events=-1)
        return Recording()


def installed(tool):
    """perf, gprofng and heaptrack are optional: their configurations are left out when missing."""
    return tool in ("none", "erkit") or shutil.which(tool) is not None


def clock_configs():
    return [
        Config("base", "none", label="uninstrumented"),
        Config("erkit-on", "erkit", "on", "erkit -p on"),
        Config("perf-on", "perf", "on", "perf -c 10ms"),
        Config("gprofng-on", "gprofng", "on", "gprofng -p on"),
        Config("erkit-hi", "erkit", "hi", "erkit -p hi"),
        Config("perf-hi", "perf", "hi", "perf -c 1ms"),
        Config("gprofng-hi", "gprofng", "hi", "gprofng -p hi"),
    ]


def heap_configs():
    return [
        Config("erkit-heap", "erkit", "off", "erkit -p off -H on", ("-H", "on")),
        Config("gprofng-heap", "gprofng", "off", "gprofng -p off -H on", ("-H", "on")),
        Config("heaptrack", "heaptrack", label="heaptrack"),
    ]


def sync_configs():
    return [
        Config("erkit-sync-on", "erkit", "off", "erkit -p off -s on", ("-s", "on")),
        Config("erkit-sync-all", "erkit", "off", "erkit -p off -s all", ("-s", "all")),
        Config("gprofng-sync", "gprofng", "off", "gprofng -p off -s on", ("-s", "on")),
    ]


# ---- reading each tool's output ------------------------------------------------------------

def _data_records(path):
    """Bytes past the 4 KiB header of an erkit data file (0 when nothing was recorded)."""
    try:
        return max(0, os.path.getsize(path) - 4096)
    except OSError:
        return 0


def read_erkit(ctx, exp):
    rec = Recording(bytes=proc.tree_bytes(exp))
    try:
        with open(os.path.join(exp, "log")) as f:
            log = f.read()
            m = re.search(r"clock_interval_ns=(\d+)", log)
            rec.interval_ns = float(m.group(1)) if m else 0.0
            rec.cost = read_erkit_cost(log)
    except OSError:
        rec.note = "no log"
        return rec
    samples = parse_thread_list(proc.text([ctx.er_print, "-thread_list", exp]))
    if samples is None:
        rec.note = "er_print -thread_list: no LWP table"
        return rec
    rec.samples = sum(samples.values())
    rec.threads_with_data = sum(1 for n in samples.values() if n > 0)
    # er_print counts every clock event of a thread; the fidelity figure wants those its CPU timer
    # took, not the wall-clock samples erkit also records for threads that wait (kClockFlagBlockedSample).
    timer, other = read_erkit_clock_records(os.path.join(exp, "profile"))
    rec.samples_by_tid = timer if timer or other else samples
    rec.other_samples = sum(other.values())
    # CPU time = User + System CPU of <Total> (the kernel's thread CPU clock counts both).
    out = proc.text([ctx.er_print, "-metrics", "e.user:e.system", "-limit", "1", "-functions", exp])
    m = re.search(r"^\s*([\d.]+)\s+([\d.]+)\s+<Total>", out, re.M)
    if m:
        rec.cpu_ns = (float(m.group(1)) + float(m.group(2))) * 1e9
    traced = _data_records(os.path.join(exp, "heaptrace")) + _data_records(os.path.join(exp, "synctrace"))
    rec.trace_events = traced  # bytes of trace records; > 0 means the tracer recorded something
    return rec


COST_KEYS = ("cost_signals", "cost_signal_ns", "cost_helper_cpu_ns", "cost_start_cpu_ns", "cost_exit_cpu_ns",
             "process_cpu_ns")


def read_erkit_cost(log):
    """The cost_* fields of the founder's exit line ({} if the run did not write them)."""
    m = re.search(r"^\d+ exit .*$", log, re.M)
    if not m:
        return {}
    fields = dict(re.findall(r"(\w+)=(\d+)", m.group(0)))
    return {k: int(fields[k]) for k in COST_KEYS if k in fields} if "cost_signals" in fields else {}


def _records(data):
    """(record word, offset) of every complete record of an erkit data file (format version 1)."""
    if len(data) < 24 or data[:8] != b"ERKITDAT":
        return
    version, header_size, block_size = struct.unpack_from("<III", data, 8)
    if version != 1 or not header_size or not block_size:
        return
    for block in range(header_size, len(data), block_size):
        pos, end = block, min(block + block_size, len(data))
        while pos + 4 <= end:
            word = struct.unpack_from("<I", data, pos)[0]
            size = word & 0xFFFF
            if word == 0 or size < 8 or pos + size > end:
                break
            if not word & 0x80000000:
                yield word, pos
            pos += size


def erkit_payload_bytes(exp):
    """Bytes of complete records in an experiment's data files, without headers and the unused
    tails of 64 KiB blocks: what the experiment costs per sample once it is large."""
    total = 0
    for name in ("stacks", "profile", "overview", "heaptrace", "synctrace", "iotrace", "hwcounters", "mpitrace"):
        try:
            with open(os.path.join(exp, name), "rb") as f:
                total += sum(w & 0xFFFF for w, _ in _records(f.read()))
        except OSError:
            pass
    return total


def read_erkit_clock_records(path):
    """({tid: CPU-timer samples}, {tid: other clock samples}) straight from an erkit "profile"
    file, laid out as src/format/experiment_format.h defines (format version 1)."""
    timer, other = Counter(), Counter()
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return timer, other
    block, expect, tid, slots, valid = None, None, 0, {}, True
    for word, pos in _records(data):
        kind = (word >> 16) & 0x7FFF
        b = (pos - 4096) // 65536
        if b != block:  # compact samples decode against the previous one of their block
            block, tid, slots, valid = b, 0, {}, True
        elif pos != expect:  # an incomplete record was skipped: the rest of the block is lost
            valid = False
        expect = pos + (word & 0xFFFF)
        if kind == 2 and pos + 32 <= len(data):  # kRecClockSample
            t, = struct.unpack_from("<I", data, pos + 4)
            f, = struct.unpack_from("<I", data, pos + 28)
            (other if f & 2 else timer)[t] += 1  # 2 = kClockFlagBlockedSample
        elif kind == 14 and valid:  # kRecClockCompact (src/format/clock_compact.h)
            tid, flags = _compact_tid_flags(data, pos, tid, slots)
            (other if flags & 2 else timer)[tid] += 1
    return dict(timer), dict(other)


def _varint(data, pos):
    value, shift = 0, 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos


def _compact_tid_flags(data, pos, tid, slots):
    """(tid, flags) of a compact clock sample (src/format/clock_compact.h), given the previous
    record's tid and the block's per-thread slots {tid % 8: (tid, flags)}, which it updates."""
    present = data[pos + 4]
    p = pos + 6  # the fields present follow; the time comes last
    if present & 1:
        tid, p = _varint(data, p)
    prev = slots.get(tid % 8)
    flags = prev[1] if prev and prev[0] == tid else 0
    if present & 2:
        p += 8
    if present & 4:
        p = _varint(data, p)[1]
    if present & 8:
        flags, p = _varint(data, p)
    slots[tid % 8] = (tid, flags)
    return tid, flags


def parse_thread_list(out):
    """{LWP: samples} from er_print -thread_list, whatever its column order: the table whose header
    names an LWP column, samples from its "Samples" or "Events" column. None if there is none."""
    lines = out.splitlines()
    for i, line in enumerate(lines):
        hdr = line.replace("User CPU", "User_CPU").replace("(s)", "").split()
        if "LWP" not in hdr:
            continue
        col = next((hdr.index(c) for c in ("Samples", "Events") if c in hdr), None)
        if col is None:
            continue
        lwp, res = hdr.index("LWP"), {}
        for row in lines[i + 1:]:
            f = row.split()
            if not f or set(row.strip()) <= set("= "):
                if res:
                    break
                continue
            if len(f) <= max(lwp, col) or not f[lwp].isdigit() or not f[col].isdigit():
                break
            res[int(f[lwp])] = res.get(int(f[lwp]), 0) + int(f[col])
        return res
    return None


def read_perf(path, period_ns):
    rec = Recording(bytes=proc.tree_bytes(path), interval_ns=float(period_ns))
    out = proc.text(["perf", "script", "-F", "tid", "-i", path], timeout=300)
    counts = Counter(int(t) for t in out.split() if t.isdigit())
    rec.samples_by_tid = dict(counts)
    rec.samples = sum(counts.values())
    rec.cpu_ns = rec.samples * float(period_ns)  # every cpu-clock sample stands for one period
    rec.threads_with_data = len(counts)
    return rec


def read_gprofng(exp):
    """gprofng has no per-thread sample count in text form; its thread list here shows only how
    many threads have data. Samples are derived from the CPU it reports, which it credits as one
    nominal period per signal (anchors.md section 1, bug 3)."""
    # archives/ holds copies of the load objects (28 MB for libpython); erkit's -A on copies none
    # by default, so the comparison is of the recorded data alone.
    rec = Recording(bytes=proc.tree_bytes(exp) - proc.tree_bytes(os.path.join(exp, "archives")), samples_by_tid=None)
    hdr = proc.text(["gprofng", "display", "text", "-header", exp])
    m = re.search(r"Clock-profiling, interval = (\d+) microsecs", hdr)
    rec.interval_ns = float(m.group(1)) * 1000 if m else 0.0
    funcs = proc.text(["gprofng", "display", "text", "-functions", exp])
    m = re.search(r"^\s*([\d.]+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+<Total>", funcs, re.M)
    rec.cpu_ns = float(m.group(1)) * 1e9 if m else 0.0
    rec.samples = round(rec.cpu_ns / rec.interval_ns) if rec.interval_ns else 0
    tl = proc.text(["gprofng", "display", "text", "-thread_list", exp])
    m = re.search(r"^\s*\d+\s+\S+\s+(\d+)\s*$", tl, re.M)
    rec.threads_with_data = int(m.group(1)) if m else 0
    if "Warning" in hdr:
        w = re.search(r"\*\*\* Collector Warning: ([^\n]+)", hdr)
        rec.note = w.group(1).strip() if w else ""
    return rec
