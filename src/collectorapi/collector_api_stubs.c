/* libcollectorAPI.so: the collector API for programs. When the program runs under collect,
 * libcollector.so (preloaded) defines __erkit_collector_<name> and each call forwards to it;
 * otherwise every call returns at once. Resolution is done once per function, lazily, with
 * dlsym(RTLD_DEFAULT) (the collector may also be loaded after this library). */
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "collectorAPI.h"

#define API __attribute__((visibility("default")))

/* A not-found result is remembered as this marker so the lookup is not repeated. */
static char not_found;

static void* resolve(void** slot, const char* name) {
  void* p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (!p) {
    p = dlsym(RTLD_DEFAULT, name);
    if (!p) p = &not_found;
    __atomic_store_n(slot, p, __ATOMIC_RELEASE);
  }
  return p == &not_found ? NULL : p;
}

#define FORWARD(name, params, args)                                  \
  API void collector_##name params {                                 \
    static void* slot;                                               \
    void (*fn) params = (void (*) params)resolve(&slot, "__erkit_collector_" #name); \
    if (fn) fn args;                                                 \
  }

FORWARD(sample, (const char* name), (name))
FORWARD(pause, (void), ())
FORWARD(resume, (void), ())
FORWARD(thread_pause, (pthread_t t), (t))
FORWARD(thread_resume, (pthread_t t), (t))
FORWARD(terminate_expt, (void), ())
FORWARD(func_load,
        (const char* name, const char* alias, const char* sourcename, void* vaddr, int size, int lntsize,
         const Lineno* lntable),
        (name, alias, sourcename, vaddr, size, lntsize, lntable))
FORWARD(func_unload, (void* vaddr), (vaddr))

/* Fortran strings are not NUL-terminated: copy (bounded) before forwarding. */
API void collector_sample_(const char* name, long name_len) {
  char buf[64];
  size_t n = name && name_len > 0 ? (size_t)name_len : 0;
  if (n >= sizeof buf) n = sizeof buf - 1;
  while (n > 0 && name[n - 1] == ' ') --n; /* Fortran pads with blanks */
  if (n) memcpy(buf, name, n);
  buf[n] = 0;
  collector_sample(buf);
}
API void collector_pause_(void) { collector_pause(); }
API void collector_resume_(void) { collector_resume(); }
API void collector_terminate_expt_(void) { collector_terminate_expt(); }
