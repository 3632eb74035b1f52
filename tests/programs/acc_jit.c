// uses: collectorAPI
/* Issue 15 item 7: JIT and dynamic code. A leaf (no calls, no frame, no absolute addresses) is
   copied twice into fresh executable memory: one copy is described with collector_func_load
   ("dyn_hash", lines 30/31 of dyn_hash.src), the other in a perf jitdump file jit-<pid>.dump
   written in the working directory and mapped while the program runs, as JITs do ("jit_hash",
   lines 20/21 of jit_hash.js). call_dyn() and call_jit() (called from main) run them. Neither
   copy has CFI, so the callers are found only by the unwinder's rule for code without it.
   Writes the 256 code bytes of the jitdump copy to argv[2] (if given) for comparison.
   argv: [cpu-ms per copy] [bytes-file] */
#include <collectorAPI.h>
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__aarch64__)
#define ELF_MACHINE EM_AARCH64
#else
#define ELF_MACHINE EM_X86_64
#endif

static double cpu_thread(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) long hash_template(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i) s = s * 31 + (i ^ (s >> 7));
  return s;
}

static volatile long sink;

__attribute__((noinline)) void call_dyn(long (*fn)(long), int ms) {
  double end = cpu_thread() + ms / 1000.0;
  while (cpu_thread() < end) sink += fn(100000);
}

__attribute__((noinline)) void call_jit(long (*fn)(long), int ms) {
  double end = cpu_thread() + ms / 1000.0;
  while (cpu_thread() < end) sink += fn(100000) + 1;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void put(FILE* f, const void* p, size_t n) { fwrite(p, 1, n, f); }
static void put32(FILE* f, uint32_t v) { put(f, &v, 4); }
static void put64(FILE* f, uint64_t v) { put(f, &v, 8); }

// perf's jitdump: header, JIT_CODE_DEBUG_INFO (2), then JIT_CODE_LOAD (0) with the code.
static int write_jitdump(const char* path, const unsigned char* code, uint64_t size) {
  FILE* f = fopen(path, "w+");
  if (!f) return -1;
  uint32_t pid = (uint32_t)getpid(), tid = (uint32_t)syscall(SYS_gettid);
  put32(f, 0x4A695444), put32(f, 1), put32(f, 40), put32(f, ELF_MACHINE), put32(f, 0), put32(f, pid);
  put64(f, now_ns()), put64(f, 0);
  const char* src = "jit_hash.js";
  uint32_t entry = 8 + 4 + 4 + (uint32_t)strlen(src) + 1;
  put32(f, 2), put32(f, 16 + 16 + 2 * entry), put64(f, now_ns());
  put64(f, (uint64_t)(uintptr_t)code), put64(f, 2);
  put64(f, (uint64_t)(uintptr_t)code), put32(f, 20), put32(f, 0), put(f, src, strlen(src) + 1);
  put64(f, (uint64_t)(uintptr_t)code + 16), put32(f, 21), put32(f, 0), put(f, src, strlen(src) + 1);
  const char* name = "jit_hash";
  put32(f, 0), put32(f, (uint32_t)(16 + 40 + strlen(name) + 1 + size)), put64(f, now_ns());
  put32(f, pid), put32(f, tid), put64(f, (uint64_t)(uintptr_t)code), put64(f, (uint64_t)(uintptr_t)code);
  put64(f, size), put64(f, 1), put(f, name, strlen(name) + 1), put(f, code, size);
  fflush(f);
  // Mapped executable, as perf's JIT agents do, so that a profiler finds the file.
  void* m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fileno(f), 0);
  fclose(f);
  return m == MAP_FAILED ? -1 : 0;
}

int main(int argc, char** argv) {
  int ms = argc > 1 ? atoi(argv[1]) : 300;
  size_t len = 4096;
  unsigned char* mem = mmap(NULL, 2 * len, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return 1;
  memcpy(mem, (void*)hash_template, 256);
  memcpy(mem + len, (void*)hash_template, 256);
  if (argc > 2) {
    FILE* out = fopen(argv[2], "wb");
    if (out) fwrite(mem + len, 1, 256, out), fclose(out);
  }
  Lineno lines[2] = {{0, 30}, {16, 31}};
  collector_func_load("dyn_hash", "copy of hash_template", "dyn_hash.src", mem, 256, 2, lines);
  char path[64];
  snprintf(path, sizeof path, "jit-%d.dump", (int)getpid());
  if (write_jitdump(path, mem + len, 256) != 0) return 2;
  call_dyn((long (*)(long))mem, ms);
  call_jit((long (*)(long))(mem + len), ms);
  return 0;  // the jitdump file stays, as perf's JIT agents leave it
}
