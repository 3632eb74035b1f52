#include "collector/java_bridge.h"

#include "collector/collector_cost.h"
#include "collector/data_writer.h"
#include "collector/runtime.h"
#include "collector/stack_store.h"
#include "collector/trace_common.h"
#include "format/experiment_format.h"

namespace erkit::collector {
namespace {

// Fills out[0..max) with Java frame words (leaf first) for the thread interrupted at ucontext;
// returns their count, or -(status) (AsyncGetCallTrace's codes, negated) when there are none.
using JavaStackHook = int (*)(void* jni_env, void* ucontext, uint64_t* out, int max);
JavaStackHook g_hook = nullptr;

}  // namespace

bool java_attached() { return __atomic_load_n(&g_hook, __ATOMIC_ACQUIRE) != nullptr; }

int java_append_stack(ThreadState* ts, void* uc, uint64_t* pcs, int n, int cap) {
  JavaStackHook hook = __atomic_load_n(&g_hook, __ATOMIC_ACQUIRE);
  if (!hook || n + 2 > cap) return n;
  pcs[n++] = format::kJavaMarkerPc;
  if (!ts->java_thread || !ts->java_env) {
    pcs[n++] = format::kJavaNotJavaThread;
    return n;
  }
  int max = cap - n;
  if (max > int(format::kJavaMaxFrames)) max = int(format::kJavaMaxFrames);
  uint64_t entered = monotonic_ns();
  int got = hook(ts->java_env, uc, pcs + n, max);
  cost_add_java_stack(monotonic_ns() - entered);
  if (got > 0) return n + got;
  uint64_t code = format::kJavaNoStackBase + uint64_t(-got);
  pcs[n++] = code < format::kJavaNoStackEnd ? code : format::kJavaNoStackEnd - 1;
  return n;
}

int java_machine_limit() {
  return java_attached() ? int(format::kMaxStackFrames - format::kJavaMaxFrames) - 3 : int(format::kMaxStackFrames);
}

bool java_finish_stack(ThreadState* ts, void* uc, uint64_t* pcs, int* n, bool truncated) {
  if (!java_attached()) return truncated;
  // The truncation mark goes where the machine part ends, before the Java part.
  if (truncated) pcs[(*n)++] = format::kTruncatedMarkerPc;
  *n = java_append_stack(ts, uc, pcs, *n, int(format::kMaxStackFrames));
  return false;
}

}  // namespace erkit::collector

using namespace erkit::collector;
namespace format = erkit::format;

#define ERKIT_JAVA_API extern "C" __attribute__((visibility("default")))

// The agent's entry points (found with dlsym: the agent links against no collector).
ERKIT_JAVA_API int erkit_java_attach(JavaStackHook hook) {
  if (!g_rt.active) return 0;
  __atomic_store_n(&g_hook, hook, __ATOMIC_RELEASE);
  return 1;
}

// Called on a thread the JVM runs Java on (JVMTI VMInit, ThreadStart) or stops running it.
// jni_env: the thread's JNIEnv, which AsyncGetCallTrace needs to find the thread.
ERKIT_JAVA_API void erkit_java_thread(int is_java, void* jni_env) {
  if (ThreadState* ts = current_thread()) {
    ts->java_env = is_java ? jni_env : nullptr;
    __atomic_store_n(&ts->java_thread, is_java != 0, __ATOMIC_RELEASE);
  }
}

// CPU time the agent spent in one of its JVMTI callbacks (the exit line's cost_java_agent_cpu_ns).
ERKIT_JAVA_API void erkit_java_cost(uint64_t cpu_ns) { cost_add_java_agent(cpu_ns); }

// Where the agent writes its "java" file: this process's experiment (null when inactive).
ERKIT_JAVA_API const char* erkit_java_experiment_dir() { return g_rt.active ? g_rt.config.experiment_dir : nullptr; }

// Brackets the agent's own JVMTI calls in an allocation callback (GetStackTrace may malloc):
// inside the collector, so that the heap tracer leaves them out of the program's allocations.
ERKIT_JAVA_API void erkit_java_guard(int enter) {
  if (ThreadState* ts = current_thread_if_any()) {
    if (enter) ts->in_collector++;
    else if (ts->in_collector > 0) ts->in_collector--;
  }
}

// Whether the agent should report Java allocations (collect -H on): heap tracing is on.
ERKIT_JAVA_API int erkit_java_heap_trace() { return g_rt.active && g_rt.config.heap_trace ? 1 : 0; }

namespace {

// One Java object as a heap record of kind heap_record_kind(op): its stack is the Java part
// alone (marker + frames); `interval` for kHeapJavaSample (0 otherwise).
void record_java_object(uint32_t op, uint64_t size, uint64_t interval, const uint64_t* words, int n) {
  if (!trace_enabled(kTraceHeap) || !__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED)) return;
  TraceWriter w = trace_enter();
  if (!w.ts) return;
  uint64_t pcs[format::kMaxStackFrames];
  int k = 0;
  pcs[k++] = format::kJavaMarkerPc;
  if (n <= 0) pcs[k++] = format::kJavaNoStackBase;  // no Java frame
  for (int i = 0; i < n && k < int(format::kMaxStackFrames); ++i) pcs[k++] = words[i];
  format::HeapEvent e{};
  e.tstamp_ns = now_ns();
  e.stack_id = stack_intern(w.ts, pcs, k, false);
  e.size = size;
  e.tid = w.ts->tid;
  e.op = op;
  e.interval = interval;
  const uint32_t kind = format::heap_record_kind(op);
  const uint32_t rsize = format::heap_record_size(op);
  void* rec = record_reserve(w.ts, format::DataKind::kHeap, kind, rsize);
  if (rec) {
    format::encode_heap_record(e, rec);
    record_commit(rec, kind, rsize);
  }
  record_release(w.ts);
  trace_exit(w);
}

}  // namespace

// One Java object allocated by the calling thread (JVMTI SampledObjectAlloc at sampling interval
// 0, ERKIT_JAVA_ALLOCS=on; docs/java.md): `size` bytes, the allocating Java stack in words[0..n)
// (frame words, leaf first). A heap record of kind kRecHeapJavaAlloc.
ERKIT_JAVA_API void erkit_java_alloc(uint64_t size, const uint64_t* words, int n) {
  record_java_object(format::kHeapJavaAlloc, size, 0, words, n);
}

// One Java object the JVM's heap sampler picked at mean interval `interval` bytes (collect -H on,
// the default): a heap record of kind kRecHeapJavaSample, weighed by the reader.
ERKIT_JAVA_API void erkit_java_alloc_sampled(uint64_t size, uint64_t interval, const uint64_t* words, int n) {
  record_java_object(format::kHeapJavaSample, size, interval, words, n);
}
