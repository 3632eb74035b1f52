// What the wrappers generated from interposers.def need: the per-call record, the pointers to
// the real functions (one per table row, declared from the same table), their resolution, and
// small helpers that let one wrapper template serve void and non-void functions.
#pragma once
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>

namespace erkit::collector {

// One traced call: what the recorders need from before the real call.
struct TraceCall {
  uint64_t start_ns;  // now_ns() just before the real call (heap: only where a recorder needs it)
  uint64_t end_ns;    // now_ns() just after it (not for heap calls: their recorders read it)
  // The wrapper's frame (its frame pointer) and entry address: the call stack is unwound from
  // the wrapper's caller, whose registers the frame holds, without stepping through the
  // collector's own frames (trace_common.cc).
  const void* frame;
  uint64_t function;
};

template <class F>
using FnPtr = F*;

// Index of every table row, and the pointer to its real function.
enum InterposerId : int {
#define ERKIT_INTERPOSE(cat, ret, name, vtag, ver, params, args, rtype, rname, pre, traced_pre, \
                        fallback, event)                                                      \
  kInterpose_##name##_##vtag,
#include "collector/interposers.def"
#undef ERKIT_INTERPOSE
  kInterposerCount
};

namespace real {
#define ERKIT_INTERPOSE(cat, ret, name, vtag, ver, params, args, rtype, rname, pre, traced_pre, \
                        fallback, event)                                                      \
  extern FnPtr<rtype> name##_##vtag;
#include "collector/interposers.def"
#undef ERKIT_INTERPOSE
}  // namespace real

// Resolves every real function (first call of any wrapper), then starts the collector if it has
// not started yet, so tracing covers calls made before the library's constructor ran. Returns
// the real function of row `id`, or nullptr while this thread is itself resolving (dlsym
// re-entering malloc): the wrapper then uses its row's fallback. Not signal-safe on the first
// call of the process (dlsym), which happens in a normal context in practice.
void* interposer_resolve(int id);

// Statements in the table that need a no-op.
#define ERKIT_NOTHING

// ---- helpers for the generated code --------------------------------------------------------
struct Unit {};
template <class T>
struct IsVoid {
  static constexpr bool value = false;
};
template <>
struct IsVoid<void> {
  static constexpr bool value = true;
};
template <class T>
struct IsPointer {
  static constexpr bool value = false;
};
template <class T>
struct IsPointer<T*> {
  static constexpr bool value = true;
};

// Calls f(), turning a void result into Unit so that the wrapper can hold "the result".
// Always inlined, like the lambda passed to it: the real function is called from the wrapper's
// own frame, so the program's stack seen by a nested traced call (fopen's malloc) is unchanged.
template <class R, class F>
__attribute__((always_inline)) inline auto invoke_real(F f) {
  if constexpr (IsVoid<R>::value) {
    f();
    return Unit{};
  } else {
    return f();
  }
}
template <class R, class T>
inline R result_of(T v) {
  if constexpr (!IsVoid<R>::value) return v;
}

// The error result of a function whose real definition could not be found.
template <class R>
inline R fail_unresolved() {
  errno = ENOSYS;
  if constexpr (IsVoid<R>::value) {
    return;
  } else if constexpr (IsPointer<R>::value) {
    return nullptr;
  } else if constexpr (R(-1) < R(0)) {
    return R(-1);
  } else {
    return R(0);
  }
}

}  // namespace erkit::collector
