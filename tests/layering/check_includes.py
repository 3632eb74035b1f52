#!/usr/bin/env python3
"""The module diagram of docs/architecture.md ("Which module may include which"), enforced.

Every `#include "module/..."` in src/ is checked against RULES: a module's files may include
headers of the modules listed for it (and their own). FORBIDDEN pairs hold for every file,
tests included. Prints each violation as file:line and exits 1; exits 0 when there is none.
Usage: check_includes.py [SRC_DIR]   (default: the src/ beside this script's tests/ folder)
"""
import os
import re
import sys

# module -> modules its non-test files may include (besides itself).
RULES = {
    "format": set(),
    "common": set(),
    "symbols": set(),
    # Optimisation records, read with common/json.h (issue 18: the one JSON parser).
    "commentary": {"common"},
    "collectorapi": set(),
    "collector": {"format"},
    "disasm": {"symbols"},
    # Experiment files (issue 18: renamed from exptools, which keeps forwarding headers only).
    "expfiles": {"common", "format"},
    "exptools": {"expfiles"},
    "reader": {"common", "format"},
    "collect": {"common", "format", "reader", "exptools", "expfiles"},
    "kernel": {"common", "format", "symbols"},
    # Object code and source files as the annotated listings read them (issue 18, from views/).
    "source": {"common", "symbols", "disasm"},
    # The model: the only reader of experiments for the analysis side.
    "model": {"common", "format", "reader", "symbols", "exptools", "expfiles"},
    # Reports and exports: pure functions of the model's results, never of reader/.
    "views": {"common", "format", "model", "symbols", "disasm", "commentary", "source", "dataspace"},
    "exporters": {"common", "format", "model", "views", "symbols", "exptools", "expfiles"},
    # Dataspace (issue 19): data-address decoding, DWARF data objects and their aggregation over
    # hwc records, an analysis module beside model/; its reports are views/dataspace_views.*
    # (issue 18), so it may not include views/ (nor erprint/, the exporters or a front end).
    "dataspace": {"common", "format", "reader", "model", "symbols", "disasm"},
    "erprint": {"common", "format", "model", "reader", "symbols", "views", "commentary", "exptools", "expfiles", "dataspace",
                "source"},
    "tools": {"common", "format", "model", "reader", "symbols", "views", "exporters", "exptools", "expfiles", "kernel",
              "collect", "disasm", "erprint", "commentary", "dataspace", "source"},
    "docgen": {"common", "collect", "erprint", "model"},
    # The web GUI (issue 17): through the model's query API and the views, not reader/.
    "analyzer": {"common", "format", "model", "symbols", "views", "exporters", "exptools", "expfiles", "erprint",
                 "commentary", "disasm", "source"},
}
# (module, included module) pairs refused in every file, tests included.
FORBIDDEN = {("views", "reader"), ("exporters", "reader"), ("analyzer", "reader")}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_0-9]+)/')


def is_test(path):
    base = os.path.basename(path)
    return base.endswith("_test.cc") or base.endswith("_test_util.h") or "/testing/" in path


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "src")
    src = os.path.normpath(src)
    if not os.path.isdir(src):
        print(f"check_includes: {src}: not a directory", file=sys.stderr)
        return 2
    problems = []
    for module in sorted(os.listdir(src)):
        mdir = os.path.join(src, module)
        if not os.path.isdir(mdir):
            continue
        allowed = RULES.get(module)
        if allowed is None:
            problems.append(f"src/{module}: no rule in tests/layering/check_includes.py (add the module to RULES "
                            "and to the diagram in docs/architecture.md)")
            continue
        for root, _, files in os.walk(mdir):
            for f in sorted(files):
                if not f.endswith((".cc", ".h", ".c", ".inc", ".def")):
                    continue
                path = os.path.join(root, f)
                rel = os.path.relpath(path, os.path.dirname(src))
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        dep = m.group(1)
                        if dep == module or not os.path.isdir(os.path.join(src, dep)):
                            continue  # own headers; generated or test-support folders
                        if (module, dep) in FORBIDDEN:
                            problems.append(f"{rel}:{n}: src/{module} may not include {dep}/ (not even in tests)")
                        elif dep not in allowed and not is_test(path):
                            problems.append(f"{rel}:{n}: src/{module} may not include {dep}/ "
                                            f"(allowed: {', '.join(sorted(allowed)) or 'none'})")
    for p in problems:
        print(p)
    if problems:
        print(f"check_includes: {len(problems)} include(s) break the module diagram of docs/architecture.md",
              file=sys.stderr)
        return 1
    print("check_includes: every #include follows the module diagram")
    return 0


if __name__ == "__main__":
    sys.exit(main())
