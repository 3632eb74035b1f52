// libcollector-java.so: the JVMTI agent of Java profiling (collect -j on; docs/java.md).
// collect adds -agentpath:<this library> to the java command line. The agent records, in the
// experiment's "java" file, every Java thread (its tid and name) and every method of every
// class prepared (its jmethodID, name, source file and bci-to-line table); it describes each
// compiled method and each piece of generated code (interpreter, stubs) to the collector as a
// dynamic function (code range, code copy, line table), and gives the collector the hook its
// clock signal handler calls on Java threads: AsyncGetCallTrace.
//
// Target-code rules as in libcollector.so (no C++ runtime, no malloc of its own: JVMTI's
// Allocate where memory is needed); the hook is async-signal-safe. Never stops the JVM: without
// the collector or AsyncGetCallTrace it says so on stderr and does nothing.
#include <dlfcn.h>
#include <fcntl.h>
#include <jvmti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "collector/java/java_text.h"
#include "format/experiment_format.h"

namespace {

using erkit::javaagent::Out;

struct AsgctFrame {
  jint bci;  // "lineno" in HotSpot's declaration: the bci of a Java frame, -3 for a native one
  jmethodID method;
};
struct AsgctTrace {
  JNIEnv* env;
  jint num_frames;
  AsgctFrame* frames;
};
using AsgctFn = void (*)(AsgctTrace*, jint, void*);
using HookFn = int (*)(void* env, void* uc, uint64_t* out, int max);
using AttachFn = int (*)(HookFn);
using ThreadFn = void (*)(int, void*);
using DirFn = const char* (*)();
using FuncLoadFn = void (*)(const char*, const char*, const char*, void*, int, int, const void*);
using FuncUnloadFn = void (*)(void*);
using HeapOnFn = int (*)();
using AllocFn = void (*)(uint64_t, const uint64_t*, int);
using SampledFn = void (*)(uint64_t, uint64_t, const uint64_t*, int);
using CostFn = void (*)(uint64_t);

struct DynLine {
  unsigned offset;
  unsigned lineno;
};

AsgctFn g_asgct = nullptr;
ThreadFn g_thread = nullptr;
FuncLoadFn g_func_load = nullptr;
FuncUnloadFn g_func_unload = nullptr;
// collect -H on: Java allocations are recorded, every object (g_alloc, ERKIT_JAVA_ALLOCS=on) or
// those of the JVM's heap sampler at mean interval g_interval bytes (g_sampled, the default).
AllocFn g_alloc = nullptr;
SampledFn g_sampled = nullptr;
jint g_interval = 0;
constexpr jint kDefaultInterval = 512 * 1024;  // JVMTI's default (and JFR's, async-profiler's)
using GuardFn = void (*)(int);
GuardFn g_guard = nullptr;
// The thread primes its heap sampler (on_vm_init): its sampled allocations are not the program's.
__thread int t_priming = 0, t_primed = 0;
jvmtiEnv* g_jvmti = nullptr;
int g_fd = -1;
CostFn g_cost = nullptr;

uint64_t thread_cpu_ns() {
  timespec t;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0;
  return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

// The CPU time of one JVMTI callback, given to the collector (the log's cost_java_agent_cpu_ns).
struct CostScope {
  uint64_t start = g_cost ? thread_cpu_ns() : 0;
  CostScope() = default;
  CostScope(const CostScope&) = delete;
  CostScope& operator=(const CostScope&) = delete;
  ~CostScope() {
    if (g_cost) g_cost(thread_cpu_ns() - start);
  }
};
pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

void say(const char* msg) {
  ssize_t r = write(2, msg, strlen(msg));
  (void)r;
}

// The clock handler's hook: the interrupted thread's Java frames, leaf first.
int java_stack(void* env, void* uc, uint64_t* out, int max) {
  AsgctFrame frames[erkit::format::kJavaMaxFrames];
  if (max > int(erkit::format::kJavaMaxFrames)) max = int(erkit::format::kJavaMaxFrames);
  AsgctTrace t{static_cast<JNIEnv*>(env), 0, frames};
  g_asgct(&t, max, uc);
  if (t.num_frames <= 0) return t.num_frames;
  for (int i = 0; i < t.num_frames; ++i)
    out[i] = erkit::format::java_frame_word(reinterpret_cast<uint64_t>(frames[i].method), frames[i].bci);
  return t.num_frames;
}

void deallocate(void* p) {
  if (p) g_jvmti->Deallocate(static_cast<unsigned char*>(p));
}

// "method <id> <class> <name(args)> <source> <bci:line,...>" for each method of the class.
void record_class(jvmtiEnv* jvmti, jclass klass) {
  char* csig = nullptr;
  if (jvmti->GetClassSignature(klass, &csig, nullptr) != JVMTI_ERROR_NONE) return;
  char* source = nullptr;
  if (jvmti->GetSourceFileName(klass, &source) != JVMTI_ERROR_NONE) source = nullptr;
  jint count = 0;
  jmethodID* methods = nullptr;
  if (jvmti->GetClassMethods(klass, &count, &methods) == JVMTI_ERROR_NONE) {
    pthread_mutex_lock(&g_lock);
    Out o(g_fd);
    o.str("class\t").class_name(csig).str("\t").field(source ? source : "").str("\n");
    for (jint i = 0; i < count; ++i) {
      char *name = nullptr, *msig = nullptr;
      if (jvmti->GetMethodName(methods[i], &name, &msig, nullptr) != JVMTI_ERROR_NONE) continue;
      jint mods = 0;
      jvmti->GetMethodModifiers(methods[i], &mods);
      o.str("method\t").hex(reinterpret_cast<uint64_t>(methods[i])).str("\t").class_name(csig).str("\t");
      o.method_name(csig, name, msig).str("\t").field(source ? source : "").str("\t");
      o.str((mods & 0x0100) ? "native" : "java").str("\t");
      jint nlines = 0;
      jvmtiLineNumberEntry* lines = nullptr;
      if (!(mods & 0x0500) && jvmti->GetLineNumberTable(methods[i], &nlines, &lines) == JVMTI_ERROR_NONE) {
        for (jint k = 0; k < nlines; ++k) {
          if (k) o.str(",");
          o.dec(lines[k].start_location).str(":").dec(lines[k].line_number);
        }
        deallocate(lines);
      }
      o.str("\n");
      // The method's bytecodes (the class file's Code attribute as the JVM holds it), for the
      // bytecode disassembly of user mode: "code <id> <hex>".
      jint ncode = 0;
      unsigned char* code = nullptr;
      if (!(mods & 0x0500) && jvmti->GetBytecodes(methods[i], &ncode, &code) == JVMTI_ERROR_NONE) {
        if (ncode > 0) o.str("code\t").hex(reinterpret_cast<uint64_t>(methods[i])).str("\t").hexbytes(code, size_t(ncode)).str("\n");
        deallocate(code);
      }
      deallocate(name);
      deallocate(msig);
    }
    o.flush();
    pthread_mutex_unlock(&g_lock);
    deallocate(methods);
  }
  deallocate(source);
  deallocate(csig);
}

// AsyncGetCallTrace answers only while ClassLoad events are enabled (HotSpot's forte.cpp:
// ticks_no_class_load otherwise): enabled, with nothing to do.
void JNICALL on_class_load(jvmtiEnv*, JNIEnv*, jthread, jclass) {}

void JNICALL on_class_prepare(jvmtiEnv* jvmti, JNIEnv*, jthread, jclass klass) {
  CostScope cost;
  record_class(jvmti, klass);
}

void thread_begins(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  if (g_thread) g_thread(1, jni);
  jvmtiThreadInfo info;
  memset(&info, 0, sizeof info);
  if (jvmti->GetThreadInfo(thread, &info) != JVMTI_ERROR_NONE) return;
  pthread_mutex_lock(&g_lock);
  Out o(g_fd);
  o.str("thread\t").dec(syscall(SYS_gettid)).str("\t").field(info.name ? info.name : "").str("\n").flush();
  pthread_mutex_unlock(&g_lock);
  deallocate(info.name);
}

// collect -H on: each Java object the JVM reports (every object at heap sampling interval 0, or
// the sampled ones), with the allocating thread's Java stack (JVMTI GetStackTrace: the thread is
// in the JVM, at a safe point of its own stack).
void JNICALL on_object_alloc(jvmtiEnv* jvmti, JNIEnv*, jthread, jobject, jclass, jlong size) {
  if (t_priming) {
    t_primed = 1;
    return;
  }
  jvmtiFrameInfo frames[erkit::format::kJavaMaxFrames];
  jint count = 0;
  if (g_guard) g_guard(1);  // the JVM's own mallocs in GetStackTrace are the profiler's
  if (jvmti->GetStackTrace(nullptr, 0, jint(erkit::format::kJavaMaxFrames), frames, &count) != JVMTI_ERROR_NONE) count = 0;
  if (g_guard) g_guard(0);
  uint64_t words[erkit::format::kJavaMaxFrames];
  for (jint i = 0; i < count; ++i)
    words[i] = erkit::format::java_frame_word(reinterpret_cast<uint64_t>(frames[i].method),
                                               frames[i].location < 0 ? -3 : int32_t(frames[i].location));
  if (g_sampled) g_sampled(uint64_t(size), uint64_t(g_interval), words, count);
  else if (g_alloc) g_alloc(uint64_t(size), words, count);
}

void JNICALL on_thread_start(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  CostScope cost;
  thread_begins(jvmti, jni, thread);
}
void JNICALL on_thread_end(jvmtiEnv*, JNIEnv*, jthread) {
  if (g_thread) g_thread(0, nullptr);
}

// The line of bytecode index bci in a method's line table (entries sorted by start bci).
unsigned line_of(const jvmtiLineNumberEntry* lines, jint n, jlocation bci) {
  unsigned line = 0;
  for (jint k = 0; k < n && lines[k].start_location <= bci; ++k) line = unsigned(lines[k].line_number);
  return line;
}

void JNICALL on_compiled_load(jvmtiEnv* jvmti, jmethodID method, jint size, const void* addr, jint map_length,
                              const jvmtiAddrLocationMap* map, const void*) {
  if (!g_func_load) return;
  CostScope cost;
  char *name = nullptr, *msig = nullptr, *csig = nullptr, *source = nullptr;
  jclass klass = nullptr;
  if (jvmti->GetMethodName(method, &name, &msig, nullptr) != JVMTI_ERROR_NONE) return;
  if (jvmti->GetMethodDeclaringClass(method, &klass) == JVMTI_ERROR_NONE) {
    jvmti->GetClassSignature(klass, &csig, nullptr);
    if (jvmti->GetSourceFileName(klass, &source) != JVMTI_ERROR_NONE) source = nullptr;
  }
  char full[1024];
  erkit::javaagent::format_method(full, sizeof full, csig ? csig : "L?;", name, msig);
  jint nlines = 0;
  jvmtiLineNumberEntry* lines = nullptr;
  if (jvmti->GetLineNumberTable(method, &nlines, &lines) != JVMTI_ERROR_NONE) nlines = 0, lines = nullptr;
  DynLine* dl = nullptr;
  int ndl = 0;
  if (map_length > 0 && lines &&
      jvmti->Allocate(jlong(sizeof(DynLine)) * map_length, reinterpret_cast<unsigned char**>(&dl)) == JVMTI_ERROR_NONE) {
    for (jint i = 0; i < map_length; ++i) {
      const char* pc = static_cast<const char*>(map[i].start_address);
      if (pc < static_cast<const char*>(addr) || pc >= static_cast<const char*>(addr) + size) continue;
      unsigned off = unsigned(pc - static_cast<const char*>(addr));
      if (ndl && dl[ndl - 1].offset >= off) continue;  // keep offsets ascending
      dl[ndl++] = DynLine{off, line_of(lines, nlines, map[i].location)};
    }
  }
  g_func_load(full, nullptr, source ? source : "", const_cast<void*>(addr), size, ndl, dl);
  deallocate(dl);
  deallocate(lines);
  deallocate(source);
  deallocate(csig);
  deallocate(msig);
  deallocate(name);
}

void JNICALL on_compiled_unload(jvmtiEnv*, jmethodID, const void* addr) {
  if (g_func_unload) g_func_unload(const_cast<void*>(addr));
}

void JNICALL on_dynamic_code(jvmtiEnv*, const char* name, const void* addr, jint length) {
  if (!g_func_load) return;
  CostScope cost;
  char full[256];
  erkit::javaagent::bracket_name(full, sizeof full, name);
  g_func_load(full, nullptr, "", const_cast<void*>(addr), length, 0, nullptr);
}

void JNICALL on_vm_init(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  CostScope cost;
  // Classes prepared before the live phase (java.lang.*, the launcher's) get their methods now.
  jint count = 0;
  jclass* classes = nullptr;
  if (jvmti->GetLoadedClasses(&count, &classes) == JVMTI_ERROR_NONE) {
    for (jint i = 0; i < count; ++i) {
      jint status = 0;
      if (jvmti->GetClassStatus(classes[i], &status) == JVMTI_ERROR_NONE && (status & JVMTI_CLASS_STATUS_PREPARED))
        record_class(jvmti, classes[i]);
    }
    deallocate(classes);
  }
  thread_begins(jvmti, jni, thread);
  // The main thread existed before the agent set the sampling interval: HotSpot applies the new
  // interval to a thread after its next sample only, which the old interval (512 KiB on average)
  // puts far off. Allocate garbage until that sample comes (typically a few arrays).
  if (g_alloc || g_sampled) {
    t_priming = 1;
    for (int i = 0; i < 1024 && !t_primed; ++i) {
      jbyteArray a = jni->NewByteArray(64 * 1024);
      if (!a) break;
      jni->DeleteLocalRef(a);
    }
    if (jni->ExceptionCheck()) jni->ExceptionClear();
    t_priming = 0;
  }
  jvmti->GenerateEvents(JVMTI_EVENT_DYNAMIC_CODE_GENERATED);
  jvmti->GenerateEvents(JVMTI_EVENT_COMPILED_METHOD_LOAD);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) jint JNICALL Agent_OnLoad(JavaVM* vm, char*, void*) {
  auto attach = reinterpret_cast<AttachFn>(dlsym(RTLD_DEFAULT, "erkit_java_attach"));
  auto dir = reinterpret_cast<DirFn>(dlsym(RTLD_DEFAULT, "erkit_java_experiment_dir"));
  g_asgct = reinterpret_cast<AsgctFn>(dlsym(RTLD_DEFAULT, "AsyncGetCallTrace"));
  if (!attach || !dir || !dir()) {
    say("erkit java agent: the collector is not in this process (run the JVM under collect): agent inactive\n");
    return 0;
  }
  // JVMTI 11 for sampled allocations (collect -H on); 1.2 is enough for the rest.
  if (vm->GetEnv(reinterpret_cast<void**>(&g_jvmti), JVMTI_VERSION_11) != JNI_OK &&
      vm->GetEnv(reinterpret_cast<void**>(&g_jvmti), JVMTI_VERSION_1_2) != JNI_OK) {
    say("erkit java agent: this JVM offers no JVMTI 1.2: no Java profiling\n");
    return 0;
  }
  g_thread = reinterpret_cast<ThreadFn>(dlsym(RTLD_DEFAULT, "erkit_java_thread"));
  g_cost = reinterpret_cast<CostFn>(dlsym(RTLD_DEFAULT, "erkit_java_cost"));
  g_func_load = reinterpret_cast<FuncLoadFn>(dlsym(RTLD_DEFAULT, "__erkit_collector_func_load"));
  g_func_unload = reinterpret_cast<FuncUnloadFn>(dlsym(RTLD_DEFAULT, "__erkit_collector_func_unload"));
  char path[4200];
  const char* d = dir();
  size_t dl = strlen(d);
  if (dl + 8 < sizeof path) {
    memcpy(path, d, dl);
    memcpy(path + dl, "/", 1);
    strcpy(path + dl + 1, erkit::format::kJavaFile);
    g_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    // Far above the program's descriptors, like the collector's own (fd_owned.cc).
    if (g_fd >= 0) {
      int high = fcntl(g_fd, F_DUPFD_CLOEXEC, 900);
      if (high >= 0) {
        close(g_fd);
        g_fd = high;
      }
    }
  }
  // Version 2: "code" records (the methods' bytecodes); docs/experiment-format.md.
  if (g_fd >= 0) Out(g_fd).str("version\t").dec(erkit::format::kJavaFileVersion).str("\n").flush();
  jvmtiCapabilities caps;
  memset(&caps, 0, sizeof caps);
  caps.can_generate_compiled_method_load_events = 1;
  caps.can_get_line_numbers = 1;
  caps.can_get_source_file_name = 1;
  caps.can_get_bytecodes = 1;
  if (g_jvmti->AddCapabilities(&caps) != JVMTI_ERROR_NONE) say("erkit java agent: JVMTI capabilities refused\n");
  auto heap_on = reinterpret_cast<HeapOnFn>(dlsym(RTLD_DEFAULT, "erkit_java_heap_trace"));
  // Java allocations with -H on: by default sampled (the JVM's heap sampler, mean interval
  // ERKIT_JAVA_ALLOC_INTERVAL bytes, 512 KiB unless set: a callback per interval's worth of bytes,
  // estimates in the analysis); every object with ERKIT_JAVA_ALLOCS=on (a callback and a stack
  // walk each: allocation-heavy programs run many times slower); none with ERKIT_JAVA_ALLOCS=off.
  const char* java_allocs = getenv("ERKIT_JAVA_ALLOCS");
  bool exact = java_allocs && strcmp(java_allocs, "on") == 0;
  bool none = java_allocs && strcmp(java_allocs, "off") == 0;
  if (heap_on && heap_on() && !none) {
    jint interval = 0;
    if (!exact) {
      interval = kDefaultInterval;
      if (const char* v = getenv("ERKIT_JAVA_ALLOC_INTERVAL")) {
        char* end = nullptr;
        long long n = strtoll(v, &end, 10);
        if (end != v && *end == 0 && n > 0 && n <= 0x40000000)
          interval = jint(n);
        else
          say("erkit java agent: ERKIT_JAVA_ALLOC_INTERVAL is not a number of bytes from 1 to 1073741824: 524288 used\n");
      }
    }
    jvmtiCapabilities alloc_caps;
    memset(&alloc_caps, 0, sizeof alloc_caps);
    alloc_caps.can_generate_sampled_object_alloc_events = 1;
    if (g_jvmti->AddCapabilities(&alloc_caps) == JVMTI_ERROR_NONE &&
        g_jvmti->SetHeapSamplingInterval(interval) == JVMTI_ERROR_NONE) {
      g_guard = reinterpret_cast<GuardFn>(dlsym(RTLD_DEFAULT, "erkit_java_guard"));
      if (exact) g_alloc = reinterpret_cast<AllocFn>(dlsym(RTLD_DEFAULT, "erkit_java_alloc"));
      else g_sampled = reinterpret_cast<SampledFn>(dlsym(RTLD_DEFAULT, "erkit_java_alloc_sampled"));
      g_interval = interval;
    } else
      say("erkit java agent: this JVM offers no sampled allocation events (JVMTI 11): Java allocations not recorded\n");
  }
  jvmtiEventCallbacks cb;
  memset(&cb, 0, sizeof cb);
  cb.VMInit = on_vm_init;
  cb.ClassLoad = on_class_load;
  cb.ClassPrepare = on_class_prepare;
  cb.ThreadStart = on_thread_start;
  cb.ThreadEnd = on_thread_end;
  cb.CompiledMethodLoad = on_compiled_load;
  cb.CompiledMethodUnload = on_compiled_unload;
  cb.DynamicCodeGenerated = on_dynamic_code;
  cb.SampledObjectAlloc = on_object_alloc;
  g_jvmti->SetEventCallbacks(&cb, sizeof cb);
  if (g_alloc || g_sampled) g_jvmti->SetEventNotificationMode(JVMTI_ENABLE, JVMTI_EVENT_SAMPLED_OBJECT_ALLOC, nullptr);
  static const jvmtiEvent kEvents[] = {JVMTI_EVENT_VM_INIT, JVMTI_EVENT_CLASS_LOAD, JVMTI_EVENT_CLASS_PREPARE, JVMTI_EVENT_THREAD_START,
                                       JVMTI_EVENT_THREAD_END, JVMTI_EVENT_COMPILED_METHOD_LOAD,
                                       JVMTI_EVENT_COMPILED_METHOD_UNLOAD, JVMTI_EVENT_DYNAMIC_CODE_GENERATED};
  for (jvmtiEvent ev : kEvents) g_jvmti->SetEventNotificationMode(JVMTI_ENABLE, ev, nullptr);
  if (!g_asgct) {
    say("erkit java agent: this JVM has no AsyncGetCallTrace: machine stacks only\n");
    return 0;
  }
  attach(java_stack);
  return 0;
}
