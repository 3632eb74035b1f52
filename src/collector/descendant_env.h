// Environments for the programs a collected process starts. A followed descendant gets the
// collector preloaded and its lineage; an unfollowed one gets an environment with every trace
// of the collector removed (seed-spec §4.2). Built in anonymous mmap'ed memory: no malloc,
// and the caller's environment array is never modified. Not signal-safe.
#pragma once
#include <sys/types.h>

namespace erkit::collector {

enum class EnvMode {
  kFollow,   // record: the new image opens founder/<lineage>.er
  kDormant,  // do not record, but keep the lineage so its own descendants can be followed
  kStrip,    // not collected at all
};

struct EnvBlock {
  char** envp = nullptr;
  void* mem = nullptr;
  size_t size = 0;
};

// Saves what descendants need from this image's environment (our library's path, the
// parameters). Call once at start.
void env_init();
// Builds envp for the new image from `base` (the environment the program passes). `pid` is
// the pid the new image will have (exec), or 0 when unknown (spawned). False when out of memory.
bool env_build(EnvBlock* b, char* const base[], EnvMode mode, const char* lineage, pid_t pid);
void env_free(EnvBlock* b);
// Whether `envp` holds any collector variable (an unfollowed image must not inherit them).
bool env_has_collector(char* const envp[]);

}  // namespace erkit::collector
