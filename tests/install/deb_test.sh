#!/usr/bin/env bash
# deb_test.sh CPACK BUILD_DIR PROGRAM  (ctest: install_deb)
# The Debian package (cmake/Packaging.cmake): `cpack -G DEB` builds it, its dependencies are
# the shared libraries the binaries need, `dpkg -i` installs it, and then `collect` found on
# PATH profiles PROGRAM (tests/programs/work_ratio), `er_print` prints its functions, `man`
# finds the pages, the completion and pkg-config file are in place; `dpkg -P` (remove and purge) leaves nothing.
# Needs root and dpkg; skipped (77) otherwise, or when an erkit package is installed already
# (it is never replaced). Runs of several build trees on one machine take turns (flock).
set -euo pipefail
cpack=$1 build=$2 program=$3

fail() {
  echo "install_deb: $*" >&2
  exit 1
}
skip() {
  echo "install_deb: skipped: $*"
  exit 77
}

[[ $(id -u) -eq 0 ]] || skip "needs root for dpkg -i"
command -v dpkg >/dev/null && command -v dpkg-shlibdeps >/dev/null || skip "needs dpkg and dpkg-dev"

tmp=$(mktemp -d /tmp/erkit-deb-test.XXXXXX)
installed=0
cleanup() {
  if ((installed)); then dpkg -P erkit >"$tmp/remove.log" 2>&1 || cat "$tmp/remove.log" >&2; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

exec 9>/tmp/erkit-deb-test.lock
flock -w 600 9 || fail "another install_deb test holds /tmp/erkit-deb-test.lock"
if dpkg-query -W -f='${Status}' erkit 2>/dev/null | grep -q "install ok installed"; then
  skip "an erkit package is installed on this machine; not replacing it"
fi

"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/pkg" >"$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log" >&2; fail "cpack -G DEB failed"; }
deb=$(ls "$tmp"/pkg/erkit_*.deb 2>/dev/null | head -1)
[[ -f $deb ]] || { cat "$tmp/cpack.log" >&2; fail "cpack wrote no erkit_*.deb"; }

# Dependencies come from the binaries (dpkg-shlibdeps): the C++ runtime and the libraries
# er_print links (elfutils, capstone, libedit).
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libc6 libstdc++6 libdw1 libelf1 libcapstone4 libedit2; do
  [[ $depends == *"$lib "* || $depends == *"$lib," || $depends == *"$lib" ]] || fail "Depends lacks $lib: $depends"
done
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/collect ./usr/bin/er_print ./usr/share/man/man1/collect.1 ./usr/share/man/man3/collectorAPI.3 \
  ./usr/share/bash-completion/completions/er_print ./usr/include/collectorAPI.h; do
  grep -qF " $f" <<<"$contents" || fail "the package lacks $f"
done

dpkg -i "$deb" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; dpkg -P erkit >/dev/null 2>&1 || true; fail "dpkg -i failed"; }
installed=1

cp "$program" "$tmp/prog"
cd "$tmp"
unset ERKIT_COLLECTOR_LIB ERKIT_SYSTEM_RC
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
[[ $(command -v collect) == /usr/bin/collect ]] || fail "collect on PATH is $(command -v collect), not /usr/bin/collect"
collect -o run.er ./prog 100000000 >collect.out 2>&1 || { cat collect.out >&2; fail "collect from PATH failed"; }
grep -qF 'load path="/usr/lib' run.er/map || fail "the collector was not loaded from /usr/lib"
er_print -functions run.er >functions.out 2>&1 || { cat functions.out >&2; fail "er_print from PATH failed"; }
for fn in one two main; do
  grep -qE "^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +$fn\$" functions.out || { cat functions.out >&2; fail "$fn not listed"; }
done
[[ $(man -w collect) == /usr/share/man/man1/collect.1* ]] || fail "man does not find collect(1)"
[[ $(man -w 3 collectorAPI) == /usr/share/man/man3/collectorAPI.3* ]] || fail "man does not find collectorAPI(3)"
pkg-config --exists collectorAPI || fail "pkg-config does not find collectorAPI"

dpkg -P erkit >"$tmp/remove.log" 2>&1 || { cat "$tmp/remove.log" >&2; fail "dpkg -P failed"; }
installed=0
[[ ! -e /usr/bin/collect ]] || fail "/usr/bin/collect is left after dpkg -P"
echo "install_deb: OK ($(basename "$deb"), Depends: $depends)"
