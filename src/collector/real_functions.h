// Pointers to the next definition (normally libc's) of each function the collector
// interposes, resolved once from a normal context. Calls from collector code must go through
// these, never through the interposed names.
#pragma once
#include <pthread.h>
#include <signal.h>

namespace erkit::collector {

struct RealFunctions {
  int (*sigaction)(int, const struct sigaction*, struct sigaction*);
  int (*pthread_create)(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
  void* (*dlopen)(const char*, int);
  int (*dlclose)(void*);
  int (*close)(int);  // for libcollector-clock.so's close (fd_interpose.cc)
};

extern RealFunctions g_real;

// Resolves every pointer (dlsym/dlvsym with RTLD_NEXT). Idempotent, not signal-safe.
void resolve_real_functions();
// Resolves one symbol, preferring the given version (may be null).
void* next_symbol(const char* name, const char* version);

}  // namespace erkit::collector
