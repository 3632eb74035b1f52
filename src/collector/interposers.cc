// Expands interposers.def into the exported wrappers, the pointers to the real functions and
// their resolution. The shape of every wrapper:
//
//   pre;                                      (bootstrap checks, va_arg)
//   fn = real pointer, resolved on first use  (or the row's fallback while resolving)
//   if tracing of the category is off, or the call is the collector's own: return fn(args)
//   traced_pre; t.start_ns = now   (heap calls: only those that release a block, in traced_pre)
//   r = fn(args); t.end_ns = now   (not for heap calls: the allocation recorders read the clock)
//   event (the category's recorder)
//   return r
//
// The off path is one load of the pointer, one load of the category flag and an indirect call
// (plus the frame-pointer setup __builtin_frame_address asks for).
#include "collector/interposer_support.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "collector/fd_owned.h"
#include "collector/heap_trace.h"
#include "collector/io_trace.h"
#include "collector/runtime.h"
#include "collector/sync_trace.h"
#include "collector/trace_common.h"
#include "format/experiment_format.h"

namespace erkit::collector {

using namespace format;  // HeapOp, SyncOp, IoOp names in the table

namespace {

// Ends a va_list on every return path of a variadic wrapper (see ERKIT_IO_PRINTF).
struct VaEnd {
  va_list* ap;
  ~VaEnd() { va_end(*ap); }
};

struct RealSymbol {
  const char* name;
  const char* version;  // "" (default version), "@@V" or "@V"
  void** slot;
};

}  // namespace

namespace real {
#define ERKIT_INTERPOSE(cat, ret, name, vtag, ver, params, args, rtype, rname, pre, traced_pre, \
                        fallback, event)                                                      \
  FnPtr<rtype> name##_##vtag = nullptr;
#include "collector/interposers.def"
#undef ERKIT_INTERPOSE
}  // namespace real

namespace {

const RealSymbol g_symbols[] = {
#define ERKIT_INTERPOSE(cat, ret, name, vtag, ver, params, args, rtype, rname, pre, traced_pre, \
                        fallback, event)                                                      \
  {rname, ver, reinterpret_cast<void**>(&real::name##_##vtag)},
#include "collector/interposers.def"
#undef ERKIT_INTERPOSE
};
static_assert(sizeof g_symbols / sizeof g_symbols[0] == kInterposerCount);

enum : int { kUnresolved = 0, kResolving = 1, kResolved = 2 };
int g_state = kUnresolved;
long g_resolver_tid = 0;

void* lookup(const RealSymbol& s) {
  if (!*s.version) return dlsym(RTLD_NEXT, s.name);
  const char* v = s.version;
  while (*v == '@') ++v;
  return dlvsym(RTLD_NEXT, s.name, v);
}

void resolve_all() {
  // The allocator first: dlsym's own allocations then reach the real malloc, not the arena.
  for (const RealSymbol& s : g_symbols) {
    if (strcmp(s.name, "malloc") && strcmp(s.name, "calloc") && strcmp(s.name, "realloc") &&
        strcmp(s.name, "free"))
      continue;
    __atomic_store_n(s.slot, lookup(s), __ATOMIC_RELEASE);
  }
  for (const RealSymbol& s : g_symbols) {
    if (!__atomic_load_n(s.slot, __ATOMIC_ACQUIRE)) __atomic_store_n(s.slot, lookup(s), __ATOMIC_RELEASE);
  }
}

}  // namespace

void* interposer_resolve(int id) {
  void* fn = __atomic_load_n(g_symbols[id].slot, __ATOMIC_ACQUIRE);
  if (fn) return fn;
  int expected = kUnresolved;
  if (__atomic_compare_exchange_n(&g_state, &expected, kResolving, false, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE)) {
    g_resolver_tid = syscall(SYS_gettid);
    resolve_all();
    __atomic_store_n(&g_state, kResolved, __ATOMIC_RELEASE);
    // The program's first interposed call may come before the collector's constructor (another
    // library's constructor allocating): start the collector now, so it is traced too.
    trace_start_early();
  } else if (expected == kResolving) {
    if (g_resolver_tid == syscall(SYS_gettid)) return nullptr;  // dlsym re-entered a wrapper
    while (__atomic_load_n(&g_state, __ATOMIC_ACQUIRE) != kResolved) sched_yield();
  }
  return __atomic_load_n(g_symbols[id].slot, __ATOMIC_ACQUIRE);
}

}  // namespace erkit::collector

#ifndef ERKIT_COLLECTOR_NO_TRACERS
// Per version tag: the wrapper's symbol. Unversioned rows carry the public name as their
// assembler name; versioned rows keep an internal name (local by interposers.map) and are
// bound to "name@VERSION" by .symver.
#define ERKIT_LABEL_any(name) __asm__(#name)
#define ERKIT_LABEL_GLIBC_2_3_2(name)
#define ERKIT_LABEL_GLIBC_2_2_5(name)
#define ERKIT_SYMVER_any(name, internal, ver)
#define ERKIT_SYMVER_GLIBC_2_3_2(name, internal, ver) __asm__(".symver " #internal ", " #name ver);
#define ERKIT_SYMVER_GLIBC_2_2_5(name, internal, ver) __asm__(".symver " #internal ", " #name ver);

#define ERKIT_INTERPOSE(cat, ret, name, vtag, ver, params, args, rtype, rname, pre, traced_pre,  \
                        fallback, event)                                                       \
  extern "C" __attribute__((visibility("default"))) ret erkit_wrap_##name##_##vtag params     \
      ERKIT_LABEL_##vtag(name);                                                                \
  ERKIT_SYMVER_##vtag(name, erkit_wrap_##name##_##vtag, ver)                                   \
  extern "C" ret erkit_wrap_##name##_##vtag params {                     \
    using namespace erkit::collector;                                                          \
    pre                                                                                        \
    FnPtr<rtype> fn = __atomic_load_n(&real::name##_##vtag, __ATOMIC_ACQUIRE);                 \
    if (__builtin_expect(fn == nullptr, 0)) {                                                  \
      fn = reinterpret_cast<FnPtr<rtype>>(interposer_resolve(kInterpose_##name##_##vtag));     \
      if (!fn) return fallback;                                                                \
    }                                                                                          \
    if (__builtin_expect(!trace_enabled(cat), 1) || !trace_admit(__builtin_return_address(0))) \
      return fn args;                                                                          \
    TraceCall t{0, 0, __builtin_frame_address(0),                                             \
                reinterpret_cast<uint64_t>(&erkit_wrap_##name##_##vtag)};                      \
    traced_pre                                                                                 \
    if constexpr (cat != kTraceHeap) t.start_ns = now_ns();                                    \
    auto r = invoke_real<ret>([&]() __attribute__((always_inline)) { return fn args; });       \
    if constexpr (cat != kTraceHeap) t.end_ns = now_ns();                                      \
    event;                                                                                     \
    return result_of<ret>(r);                                                                  \
  }
#include "collector/interposers.def"
#undef ERKIT_INTERPOSE
#endif  // ERKIT_COLLECTOR_NO_TRACERS: libcollector-clock.so exports no tracing wrapper
