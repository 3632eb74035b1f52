#include "collector/outside_sampler.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "collector/runtime.h"
#include "collector/task_proc.h"
#include "collector/text_line.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace logset = format::log_setting;
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
  // The initial thread's baseline for collect (its first look comes later): when, and its
  // on-CPU time and run-queue delay then, as the in-process sampler takes it here.
  uint32_t tid = uint32_t(syscall(SYS_gettid));
  SchedStat st{};
  int fd = open_task_file(tid, "schedstat");
  bool ok = fd >= 0 && read_schedstat(fd, &st);
  if (fd >= 0) close(fd);
  TextLine line;
  line.event(now_ns(), logev::kSetting).kv(logkey::kName, logset::kSampler).kv(logkey::kWhere, format::log_value::kCollect);
  if (ok)
    line.kv_dec(logkey::kTid, tid).kv_dec(logkey::kAtNs, int64_t(monotonic_ns())).kv_dec(logkey::kExecNs, int64_t(st.exec_ns))
        .kv_dec(logkey::kDelayNs, int64_t(st.delay_ns));
  line.write_to(g_rt.log_fd);
}

bool outside_sampler_active() { return __atomic_load_n(&g_outside, __ATOMIC_ACQUIRE) != 0; }

void outside_sampler_forget_after_fork() { __atomic_store_n(&g_outside, 0, __ATOMIC_RELEASE); }

}  // namespace erkit::collector
