#!/usr/bin/env python3
"""Decodes a pprof profile.pb.gz with `protoc --decode` and prints, per function, the
exclusive (leaf) and inclusive sums of every sample type, as JSON:
  {"types": [[type, unit], ...], "excl": {name: [..]}, "incl": {name: [..]}, "samples": N,
   "inline_locations": N, "mappings": [[file, build_id], ...], "lines": {name: [line, ...]}}
Usage: pprof_summary.py profile.proto profile.pb.gz"""
import codecs, gzip, json, re, subprocess, sys

proto, path = sys.argv[1], sys.argv[2]
raw = gzip.open(path, "rb").read()
text = subprocess.run(["protoc", "--proto_path", proto.rsplit("/", 1)[0], "--decode",
                       "perftools.profiles.Profile", proto], input=raw, capture_output=True, check=True).stdout.decode()

def blocks(text, name):
    """Top-level `name { ... }` blocks of protoc's text format, as strings."""
    out, depth, cur = [], 0, None
    for line in text.splitlines():
        s = line.strip()
        if depth == 0 and s == name + " {":
            cur, depth = [], 1
            continue
        if cur is not None:
            if s.endswith("{"): depth += 1
            if s == "}":
                depth -= 1
                if depth == 0:
                    out.append("\n".join(cur)); cur = None; continue
            cur.append(s)
    return out

# protoc prints strings C-escaped (octal for non-ASCII bytes).
strings = [codecs.escape_decode(m[1:-1])[0].decode("utf-8", "replace")
           for m in re.findall(r'^string_table: (".*")$', text, re.M)]
def ints(block, key):
    return [int(v) for v in re.findall(r'^' + key + r': (-?\d+)$', block, re.M)]

types = []
for b in blocks(text, "sample_type"):
    t, u = (ints(b, "type") or [0])[0], (ints(b, "unit") or [0])[0]
    types.append([strings[t], strings[u]])
funcs = {}
for b in blocks(text, "function"):
    funcs[ints(b, "id")[0]] = strings[(ints(b, "name") or [0])[0]]
locs, inline_locs, lines = {}, 0, {}
for b in blocks(text, "location"):
    lid = ints(b, "id")[0]
    fl = []
    for lb in re.findall(r'line \{(.*?)\}', b.replace("\n", " ")):
        fid = int(re.search(r'function_id: (\d+)', lb).group(1))
        ln = re.search(r'line: (\d+)', lb)
        fl.append(funcs[fid])
        lines.setdefault(funcs[fid], []).append(int(ln.group(1)) if ln else 0)
    if len(fl) > 1: inline_locs += 1
    locs[lid] = fl  # innermost first
mappings = []
for b in blocks(text, "mapping"):
    mappings.append([strings[(ints(b, "filename") or [0])[0]], strings[(ints(b, "build_id") or [0])[0]]])
excl, incl, n = {}, {}, 0
for b in blocks(text, "sample"):
    n += 1
    ids, vals = ints(b, "location_id"), ints(b, "value")
    frames = [f for lid in ids for f in locs[lid]]  # leaf first
    add = lambda d, f: d.__setitem__(f, [a + v for a, v in zip(d.get(f, [0] * len(vals)), vals)])
    add(excl, frames[0])
    for f in set(frames): add(incl, f)
print(json.dumps({"types": types, "excl": excl, "incl": incl, "samples": n,
                  "inline_locations": inline_locs, "mappings": mappings, "lines": lines}))
