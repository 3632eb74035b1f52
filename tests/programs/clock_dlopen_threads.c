/* dlopens libclock_dl_worker.so (next to this program) by path, runs its thread, dlcloses it,
   then burns CPU in main_after_unload, so the profile holds samples of an unloaded library.
   Truth: value dl_worker_cpu, value main_after_cpu. */
#include "clock_truth.h"

#include <dlfcn.h>
#include <libgen.h>
#include <stdlib.h>

__attribute__((noinline)) void main_after_unload(void) {
  burn_cpu_ms(150);
  NO_TAIL();
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return 2;
  exe[n] = 0;
  char path[4200];
  snprintf(path, sizeof path, "%s/libclock_dl_worker.so", dirname(exe));
  void* h = dlopen(path, RTLD_NOW);
  if (!h) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 3;
  }
  long long (*run)(long) = (long long (*)(long))dlsym(h, "dl_worker_run");
  long long cpu = run(300);
  dlclose(h);
  long long before = thread_cpu_ns();
  main_after_unload();
  truth_value("dl_worker_cpu", cpu);
  truth_value("main_after_cpu", thread_cpu_ns() - before);
  truth_close();
  return 0;
}
