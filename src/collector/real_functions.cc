#include "collector/real_functions.h"

#include <dlfcn.h>

namespace erkit::collector {

RealFunctions g_real;

void* next_symbol(const char* name, const char* version) {
  void* p = version ? dlvsym(RTLD_NEXT, name, version) : nullptr;
  return p ? p : dlsym(RTLD_NEXT, name);
}

void resolve_real_functions() {
  if (g_real.sigaction) return;
#if defined(__x86_64__)
  const char* pthread_version = "GLIBC_2.34";
#else
  const char* pthread_version = "GLIBC_2.34";
#endif
  g_real.pthread_create = reinterpret_cast<decltype(g_real.pthread_create)>(
      next_symbol("pthread_create", pthread_version));
  g_real.dlopen = reinterpret_cast<decltype(g_real.dlopen)>(next_symbol("dlopen", "GLIBC_2.34"));
  g_real.dlclose = reinterpret_cast<decltype(g_real.dlclose)>(next_symbol("dlclose", "GLIBC_2.34"));
  __atomic_store_n(&g_real.close, reinterpret_cast<decltype(g_real.close)>(next_symbol("close", nullptr)),
                   __ATOMIC_RELEASE);
  g_real.sigaction = reinterpret_cast<decltype(g_real.sigaction)>(next_symbol("sigaction", nullptr));
}

}  // namespace erkit::collector
