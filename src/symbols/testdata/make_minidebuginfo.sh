#!/bin/sh
# make_minidebuginfo.sh IN OUT: OUT = IN stripped, with its local function symbols kept
# in an xz-compressed .gnu_debugdata section (the MiniDebugInfo layout gdb documents).
set -e
in=$1
out=$2
tmp=$out.tmp
nm -D "$in" --format=posix --defined-only | awk '{ print $1 }' | sort > "$tmp.dynsyms"
nm "$in" --format=posix --defined-only | awk '{ if ($2 == "T" || $2 == "t") print $1 }' | sort > "$tmp.funcsyms"
comm -13 "$tmp.dynsyms" "$tmp.funcsyms" > "$tmp.keep"
objcopy --only-keep-debug "$in" "$tmp.debug"
objcopy -S --remove-section .gdb_index --remove-section .comment --keep-symbols="$tmp.keep" "$tmp.debug" "$tmp.mini"
rm -f "$tmp.mini.xz"
xz "$tmp.mini"
objcopy --strip-all --remove-section .comment --remove-section .gnu_debuglink "$in" "$tmp.stripped"
objcopy --add-section .gnu_debugdata="$tmp.mini.xz" "$tmp.stripped" "$out"
rm -f "$tmp".*
