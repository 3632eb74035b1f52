#!/usr/bin/env bash
# Tracer micro-benchmarks (bench/README.md, "tracers/run.sh contract"): per-call cost of heap,
# sync-wait and I/O tracing next to uninstrumented runs and heaptrack. Prints Markdown.
# Environment: ERKIT_BUILD_DIR (absolute build directory), BENCH_OUT (empty scratch
# directory), BENCH_QUICK=1 for a short run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${ERKIT_BUILD_DIR:?set ERKIT_BUILD_DIR to the build directory}"
: "${BENCH_OUT:=$(mktemp -d)}"
export ERKIT_BUILD_DIR BENCH_OUT
exec python3 "$here/measure.py"
