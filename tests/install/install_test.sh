#!/usr/bin/env bash
# install_test.sh CMAKE BUILD_DIR BINDIR LIBDIR DATADIR PROGRAM  (ctest: install_tree)
# Installs BUILD_DIR into a temporary prefix, profiles PROGRAM (tests/programs/work_ratio: hot
# functions one and two) with <prefix>/BINDIR/collect, and checks that the experiment was
# recorded by <prefix>/LIBDIR/libcollector-clock.so (libcollector.so with -H on) and that
# <prefix>/BINDIR/er_print -functions
# lists the program's functions. Nothing of the build tree may be used once installed.
set -euo pipefail
cmake=$1 build=$2 bindir=$3 libdir=$4 datadir=$5 program=$6

fail() {
  echo "install_tree: $*" >&2
  exit 1
}

tmp=$(mktemp -d /tmp/erkit-install-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "cmake --install failed"; }
for f in "$bindir/collect" "$bindir/er_print" "$libdir/libcollector.so" "$libdir/libcollector-clock.so" \
  "$datadir/erkit/er.rc"; do
  [[ -f $prefix/$f ]] || { cat "$tmp/install.log" >&2; fail "$f is not installed"; }
done

# The program runs from outside the build tree too, and nothing points the tools back to it.
cp "$program" "$tmp/prog"
unset ERKIT_COLLECTOR_LIB ERKIT_SYSTEM_RC
cd "$tmp"
"$prefix/$bindir/collect" -o run.er ./prog 100000000 >collect.out 2>&1 ||
  { cat collect.out >&2; fail "the installed collect failed"; }
[[ -d run.er ]] || { cat collect.out >&2; fail "the installed collect wrote no experiment run.er"; }
# Clock profiling alone preloads the collector without tracing interposers; tracing the full one.
collector="$prefix/$libdir/libcollector-clock.so"
grep -qF "load path=\"$collector\"" run.er/map ||
  { grep -F libcollector run.er/map >&2 || true; fail "run.er/map does not show $collector loaded in the target"; }
"$prefix/$bindir/collect" -o traced.er -H on ./prog 1000 >collect.out 2>&1 ||
  { cat collect.out >&2; fail "the installed collect -H on failed"; }
collector="$prefix/$libdir/libcollector.so"
grep -qF "load path=\"$collector\"" traced.er/map ||
  { grep -F libcollector traced.er/map >&2 || true; fail "traced.er/map does not show $collector loaded in the target"; }

"$prefix/$bindir/er_print" -functions run.er >functions.out 2>&1 ||
  { cat functions.out >&2; fail "the installed er_print failed"; }
cat functions.out
grep -q "^Functions sorted by metric: Exclusive User CPU Time" functions.out || fail "no function list header"
for fn in '<Total>' one two main; do
  grep -qE "^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +$fn\$" functions.out || fail "function $fn is not listed"
done
echo "install_tree: OK ($prefix)"
