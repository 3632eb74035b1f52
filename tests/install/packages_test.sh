#!/usr/bin/env bash
# packages_test.sh CMAKE BUILD_DIR BINDIR LIBDIR DATADIR MANDIR  (ctest: install_packages)
# What the installed tree gives users beside the tools (issue 26): a program using the collector
# API builds against the installed collectorAPI.h / libcollectorAPI.so through pkg-config and
# through the CMake package (find_package(erkit), erkit::collectorAPI), and under the installed
# collect its collector_sample() label reaches the experiment; the man pages (man -l, no
# warning) and the bash completion are installed.
set -euo pipefail
cmake=$1 build=$2 bindir=$3 libdir=$4 datadir=$5 mandir=$6
src=$(cd "$(dirname "$0")" && pwd)/api_user

fail() {
  echo "install_packages: $*" >&2
  exit 1
}

tmp=$(mktemp -d /tmp/erkit-packages-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; fail "cmake --install failed"; }
unset ERKIT_COLLECTOR_LIB ERKIT_SYSTEM_RC
cd "$tmp"

# pkg-config: found by PKG_CONFIG_PATH, paths relative to where the .pc file lies.
export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig
[[ $(pkg-config --modversion collectorAPI) == [0-9]* ]] || fail "pkg-config does not know collectorAPI"
# shellcheck disable=SC2046
cc -o pc_user "$src/api_user.c" $(pkg-config --cflags --libs collectorAPI) || fail "build with pkg-config failed"
[[ $(pkg-config --variable=includedir collectorAPI) -ef $prefix/include ]] || fail "pkg-config includedir is wrong"

# CMake package.
"$cmake" -S "$src" -B cm -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >cm.log 2>&1 ||
  { cat cm.log >&2; fail "find_package(erkit) failed"; }
"$cmake" --build cm >>cm.log 2>&1 || { cat cm.log >&2; fail "build with the CMake package failed"; }

# Both programs under the installed collect: the API call reaches the experiment.
for prog in ./pc_user ./cm/api_user; do
  label=label_${prog//[^a-z]/_}
  LD_LIBRARY_PATH=$prefix/$libdir "$prefix/$bindir/collect" -o run.1.er "$prog" "$label" >collect.out 2>&1 ||
    { cat collect.out >&2; fail "collect $prog failed"; }
  exp=$(ls -d run.*.er | tail -1)
  "$prefix/$bindir/er_print" -overview "$exp" >overview.out 2>&1 || { cat overview.out >&2; fail "er_print failed"; }
  grep -q " api .* $label\$" overview.out || { cat overview.out >&2; fail "$prog: no API sample labelled $label"; }
done

# Man pages and completion are installed where man and bash-completion look.
for page in man1/collect.1 man1/er_print.1 man3/collectorAPI.3; do
  [[ -f $prefix/$mandir/$page ]] || fail "$mandir/$page is not installed"
done
MANPATH=$prefix/$mandir man -w collect >/dev/null || fail "man does not find collect(1) in the installed tree"
for tool in collect er_print er_src; do
  [[ -f $prefix/$datadir/bash-completion/completions/$tool ]] || fail "no bash completion for $tool"
done
echo "install_packages: OK"
