#include "collector/java_bridge.h"

#include "collector/runtime.h"
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
  int got = hook(ts->java_env, uc, pcs + n, max);
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

// Where the agent writes its "java" file: this process's experiment (null when inactive).
ERKIT_JAVA_API const char* erkit_java_experiment_dir() { return g_rt.active ? g_rt.config.experiment_dir : nullptr; }
