#!/usr/bin/env python3
"""Turns an experiment directory into a seed for fuzz_reader (the archive format described at
the top of reader_fuzz.cc). Data files keep their records (the header is replaced by the
"valid header" flag) up to --max-data bytes each, so that seeds stay small enough to mutate.
Every load-object path in the map becomes "$OBJ" (the harness's own small object) unless
--keep-paths is given.

  make_reader_seed.py test.1.er fuzz/corpus/reader/work_ratio [--max-data 6000]
"""
import argparse
import os
import re
import struct

TEXT = ["log", "map", "notes"]
DATA = ["stacks", "profile", "overview", "heaptrace", "synctrace", "iotrace", "hwcounters"]
HEADER = 4096


def entries(file_id, flags, payload):
    out = b""
    for i in range(0, max(len(payload), 1), 0xFFFF):
        chunk = payload[i:i + 0xFFFF]
        out += struct.pack("<BBH", file_id, flags, len(chunk)) + chunk
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("experiment")
    ap.add_argument("output")
    ap.add_argument("--max-data", type=int, default=6000)
    ap.add_argument("--keep-paths", action="store_true")
    a = ap.parse_args()
    seed = b""
    for i, name in enumerate(TEXT):
        p = os.path.join(a.experiment, name)
        if os.path.exists(p):
            text = open(p, "rb").read()
            first, _, rest = text.partition(b"\n")  # the harness writes the valid first line
            if name == "map" and not a.keep_paths:
                rest = re.sub(rb'path="[^"]*"', b'path="$OBJ"', rest)
            seed += entries(i, 0, rest)
    for k, name in enumerate(DATA):
        p = os.path.join(a.experiment, name)
        if os.path.exists(p):
            body = open(p, "rb").read()[HEADER:]
            body = body[:a.max_data].rstrip(b"\0")
            body += b"\0" * (-len(body) % 8)
            if body:
                seed += entries(len(TEXT) + k, 1, body)
    with open(a.output, "wb") as f:
        f.write(seed)


if __name__ == "__main__":
    main()
