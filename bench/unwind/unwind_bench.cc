// Cost of erkit's unwinder for 30 frames of -O2 -fomit-frame-pointer code: called directly
// (tracers) and from a signal handler (the sampling collector), with a warm and a cold row
// cache; glibc's backtrace() and bare signal delivery for reference.
// The benchmark loop runs at the bottom of a 40-deep chain and unwinds at most 30 frames, so
// every measured unwind decodes 30 frames of our chain plus one step to detect truncation.
#include <execinfo.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <benchmark/benchmark.h>

#include "collector/unwind/unwind.h"

extern "C" int bench_recurse(int depth, void (*leaf)(void*), void* arg);

namespace {

using erkit::unwind::StackBounds;
using erkit::unwind::UnwindStatus;

constexpr int kFrames = 30;
constexpr int kChainDepth = 40;

StackBounds g_bounds;
bool g_flush;
bool g_do_unwind;
uint64_t g_handler_ns;
int g_frames;

StackBounds thread_stack() {
  pthread_attr_t attr;
  void* addr = nullptr;
  size_t size = 0;
  pthread_getattr_np(pthread_self(), &attr);
  pthread_attr_getstack(&attr, &addr, &size);
  pthread_attr_destroy(&attr);
  return {reinterpret_cast<uintptr_t>(addr), reinterpret_cast<uintptr_t>(addr) + size};
}

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

void on_signal(int, siginfo_t*, void* uc) {
  if (!g_do_unwind) return;
  if (g_flush) erkit::unwind::flush_cache();
  uint64_t pcs[kFrames];
  UnwindStatus st;
  const uint64_t t0 = now_ns();
  g_frames = erkit::unwind::unwind_from_ucontext(uc, g_bounds, pcs, kFrames, &st);
  g_handler_ns += now_ns() - t0;
  benchmark::DoNotOptimize(pcs);
}

template <typename Body>
void run_deep(benchmark::State& state, Body body) {
  struct Arg {
    benchmark::State* s;
    Body* b;
  } arg{&state, &body};
  bench_recurse(kChainDepth, [](void* p) {
    auto* a = static_cast<Arg*>(p);
    (*a->b)(*a->s);
  }, &arg);
}

void BM_FromHere(benchmark::State& state, bool flush, bool unknown_bounds) {
  erkit::unwind::refresh();
  const StackBounds b = unknown_bounds ? StackBounds{0, 0} : thread_stack();
  run_deep(state, [&](benchmark::State& s) {
    uint64_t pcs[kFrames];
    UnwindStatus st;
    int n = 0;
    for (auto _ : s) {
      if (flush) erkit::unwind::flush_cache();
      n = erkit::unwind::unwind_from_here(0, b, pcs, kFrames, &st);
      benchmark::DoNotOptimize(pcs);
    }
    if (n != kFrames || !st.truncated) s.SkipWithError("unexpected stack");
  });
}
BENCHMARK_CAPTURE(BM_FromHere, warm, false, false);
BENCHMARK_CAPTURE(BM_FromHere, cold, true, false);
BENCHMARK_CAPTURE(BM_FromHere, warm_unknown_bounds, false, true);

void BM_GlibcBacktrace(benchmark::State& state) {
  run_deep(state, [](benchmark::State& s) {
    void* pcs[kFrames];
    for (auto _ : s) benchmark::DoNotOptimize(backtrace(pcs, kFrames));
  });
}
BENCHMARK(BM_GlibcBacktrace);

// Signal sent to the calling thread at the bottom of the chain; the handler unwinds from the
// interrupted context. Time per iteration includes delivery; "in_handler_ns" is the unwind
// alone (clock_gettime around it, ~20 ns of which is the clock itself).
void BM_InSignal(benchmark::State& state, bool unwind, bool flush) {
  erkit::unwind::refresh();
  struct sigaction sa {}, old{};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGPROF, &sa, &old);
  g_bounds = thread_stack();
  g_do_unwind = unwind;
  g_flush = flush;
  g_handler_ns = 0;
  g_frames = 0;
  const pid_t pid = getpid(), tid = pid_t(syscall(SYS_gettid));
  run_deep(state, [&](benchmark::State& s) {
    for (auto _ : s) syscall(SYS_tgkill, pid, tid, SIGPROF);
  });
  sigaction(SIGPROF, &old, nullptr);
  if (unwind && g_frames != kFrames) state.SkipWithError("unexpected stack");
  state.counters["in_handler_ns"] =
      benchmark::Counter(double(g_handler_ns), benchmark::Counter::kAvgIterations);
}
BENCHMARK_CAPTURE(BM_InSignal, delivery_only, false, false);
BENCHMARK_CAPTURE(BM_InSignal, warm, true, false);
BENCHMARK_CAPTURE(BM_InSignal, cold, true, true);

// refresh(): dl_iterate_phdr plus publishing (this binary maps ~8 objects).
void BM_Refresh(benchmark::State& state) {
  for (auto _ : state) erkit::unwind::refresh();
  state.counters["objects"] = erkit::unwind::registered_object_count();
}
BENCHMARK(BM_Refresh);

}  // namespace

BENCHMARK_MAIN();
