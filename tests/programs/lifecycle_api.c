// uses: collectorAPI
// Exercises the collector API (seed-spec §4.1). Each phase burns CPU in its own function, so a
// test can tell which phases were recorded. Writes the phases' measured CPU seconds to the file
// named by argv[1] (if given): "<function> <seconds>" per line, and the dynamic function's
// 256 bytes of code to argv[1].code.
//   work_recorded      recorded
//   work_paused        collector_pause() (twice: idempotent), then collector_resume()
//   thread_paused      a thread burns while collector_thread_pause(it) is in effect
//   thread_resumed     the same thread after collector_thread_resume(it)
//   thread_globally_paused   thread resumed but the process paused: not recorded
//   dyn_compute        code copied to fresh memory and described with collector_func_load
//   jit_compute        code copied to fresh memory and named in /tmp/perf-<pid>.map
//   work_after_end     after collector_terminate_expt(): not recorded
#include <collectorAPI.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static FILE* truth;

static double cpu_thread(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile double sink;
// Distinct constants keep identical code folding from merging the phases into one function.
#define BURNER(name, k)                                                   \
  __attribute__((noinline)) static void name(int ms) {                    \
    double start = cpu_thread(), end = start + ms / 1000.0, x = 1;        \
    while (cpu_thread() < end)                                            \
      for (int i = 0; i < 10000; ++i) x = x * 1.0000001 + k;             \
    sink = x;                                                             \
    if (truth) fprintf(truth, "%s %.6f\n", #name, cpu_thread() - start); \
  }
BURNER(work_recorded, 0.5)
BURNER(work_paused, 0.25)
BURNER(thread_paused, 0.125)
BURNER(thread_resumed, 0.375)
BURNER(thread_globally_paused, 0.625)
BURNER(work_after_end, 0.75)

// A leaf without calls or absolute addresses: it runs unchanged wherever it is copied.
__attribute__((noinline)) long compute_template(long n) {
  long s = 0;
  for (long i = 0; i < n; ++i) s = s * 31 + (i ^ (s >> 7));
  return s;
}

static volatile int phase;  // handshake with the worker thread

static void wait_phase(int p) {
  while (phase != p) sched_yield();
}

static void* worker(void* arg) {
  (void)arg;
  wait_phase(1);
  thread_paused(120);
  phase = 2;
  wait_phase(3);
  thread_resumed(120);
  phase = 4;
  wait_phase(5);
  thread_globally_paused(120);
  phase = 6;
  return NULL;
}

static void run_copy(long (*fn)(long), const char* name, int ms) {
  double start = cpu_thread(), end = start + ms / 1000.0;
  long s = 0;
  while (cpu_thread() < end) s += fn(200000);
  sink = (double)s;
  if (truth) fprintf(truth, "%s %.6f\n", name, cpu_thread() - start);
}

int main(int argc, char** argv) {
  if (argc > 1) truth = fopen(argv[1], "w");
  if (truth) setvbuf(truth, NULL, _IOLBF, 0);
  collector_sample("begin");
  work_recorded(120);
  collector_pause();
  collector_pause();
  work_paused(120);
  collector_resume();
  collector_sample("after pause");

  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  collector_thread_pause(t);
  phase = 1;
  wait_phase(2);
  collector_thread_resume(t);
  phase = 3;
  wait_phase(4);
  collector_pause();
  phase = 5;
  wait_phase(6);
  collector_resume();
  pthread_join(t, NULL);

  // Dynamic code: two copies of the template in fresh executable memory.
  size_t len = 4096;
  unsigned char* mem = mmap(NULL, 2 * len, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return 1;
  memcpy(mem, (void*)compute_template, 256);
  memcpy(mem + len, (void*)compute_template, 256);
  if (argc > 1) {  // the bytes described to the collector, for comparison with its copy
    char code_path[4096];
    snprintf(code_path, sizeof code_path, "%s.code", argv[1]);
    FILE* code = fopen(code_path, "wb");
    if (code) fwrite(mem, 1, 256, code), fclose(code);
  }
  Lineno lines[2] = {{0, 10}, {16, 11}};
  collector_func_load("dyn_compute", "copy of compute_template", "dyn_source.c", mem, 256, 2, lines);
  run_copy((long (*)(long))mem, "dyn_compute", 150);
  collector_func_unload(mem);
  char path[64];
  snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
  FILE* jit = fopen(path, "w");
  if (jit) {
    fprintf(jit, "%lx 100 jit_compute\n", (unsigned long)(mem + len));
    fclose(jit);
  }
  run_copy((long (*)(long))(mem + len), "jit_compute", 150);
  collector_sample("end of work");

  collector_terminate_expt();
  collector_sample("after terminate");  // ignored
  work_after_end(120);
  if (jit) unlink(path);
  return 0;
}
