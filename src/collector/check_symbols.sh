#!/usr/bin/env bash
# Enforces the rules for code that runs inside the target: libcollector.so must not need the
# C++ runtime (exceptions, RTTI, operator new/delete, guarded statics) and must not import
# allocation functions for its own use.
set -euo pipefail
lib=$1
undef=$(nm -D --undefined-only "$lib" | awk '{print $2}')
bad=$(grep -E '^(_Z|__cxa_|__gxx_|_Unwind_)' <<<"$undef" | grep -vE '^__cxa_(finalize|atexit)@' || true)
alloc=$(grep -E '^(malloc|calloc|realloc|free|operator)(@|$)' <<<"$undef" || true)
# The heap tracer defines malloc & co. itself, so a call from collector code would not show as an
# import but as a PLT slot bound to the exported wrapper: none may exist.
alloc+=$(readelf -rW "$lib" | awk '$3 ~ /JUMP_SLOT/ {print $5}' | grep -E '^(malloc|calloc|realloc|free|reallocarray|memalign|posix_memalign|aligned_alloc|valloc|pvalloc|strdup)(@|$)' || true)
needed=$(readelf -d "$lib" | grep NEEDED | grep -E 'libstdc\+\+|libgcc_s' || true)
status=0
if [[ -n "$bad" ]]; then echo "C++ runtime symbols imported:"; echo "$bad"; status=1; fi
if [[ -n "$alloc" ]]; then echo "allocation functions imported:"; echo "$alloc"; status=1; fi
if [[ -n "$needed" ]]; then echo "depends on the C++ runtime library:"; echo "$needed"; status=1; fi
[[ $status -eq 0 ]] && echo "libcollector.so: symbol rules hold ($(wc -l <<<"$undef") imports checked)"
exit $status
