#include "collector/outside_sampler.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector/runtime.h"
#include "collector/text_line.h"

namespace erkit::collector {
namespace {
int g_outside = 0;  // atomic
}  // namespace

void outside_sampler_decide() {
  __atomic_store_n(&g_outside, 0, __ATOMIC_RELEASE);
  const char* v = getenv("ERKIT_OUTSIDE_SAMPLER");
  if (!v || !*v) return;
  uint64_t pid = 0;
  for (const char* c = v; *c >= '0' && *c <= '9'; ++c) pid = pid * 10 + uint64_t(*c - '0');
  // The founder only: the pid collect started, recording into the experiment collect created
  // (an exec'd or forked descendant records into its own and samples itself).
  if (pid == 0 || int64_t(pid) != int64_t(getpid()) ||
      strcmp(g_rt.config.experiment_dir, g_rt.config.founder_dir) != 0)
    return;
  __atomic_store_n(&g_outside, 1, __ATOMIC_RELEASE);
  TextLine line;
  line.event(now_ns(), "setting").kv("name", "sampler").kv("where", "collect").write_to(g_rt.log_fd);
}

bool outside_sampler_active() { return __atomic_load_n(&g_outside, __ATOMIC_ACQUIRE) != 0; }

void outside_sampler_forget_after_fork() { __atomic_store_n(&g_outside, 0, __ATOMIC_RELEASE); }

}  // namespace erkit::collector
