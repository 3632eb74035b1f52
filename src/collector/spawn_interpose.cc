// Descendants started without fork+exec in the program's own code: posix_spawn/posix_spawnp
// (followed with -F on, named _cN), and system/popen (followed with -F all, named _cN). glibc
// starts all of these with an internal clone+exec that no interposer sees and that passes the
// process's environment, so the collector runs the shell itself (through posix_spawn with an
// environment made for the child): the child gets its lineage when followed, and a clean
// environment when not. pclose() finds the child of a stream popened here in a small table.
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collector/descendant_env.h"
#include "collector/descendants.h"
#include "collector/real_functions.h"
#include "collector/runtime.h"
#include "collector/overview_samples.h"
#include "format/experiment_format.h"
#include "format/log_keys.h"

extern char** environ;

namespace erkit::collector {
namespace logev = format::log_event;
namespace {

using SpawnFn = int (*)(pid_t*, const char*, const posix_spawn_file_actions_t*, const posix_spawnattr_t*,
                        char* const[], char* const[]);

SpawnFn real_spawn(bool search) {
  static SpawnFn spawn = nullptr, spawnp = nullptr;
  SpawnFn& fn = search ? spawnp : spawn;
  if (!fn) fn = reinterpret_cast<SpawnFn>(next_symbol(search ? "posix_spawnp" : "posix_spawn", nullptr));
  return fn;
}

// A new descendant about to be spawned: its plan, experiment and environment.
struct Spawn {
  DescendantPlan plan;
  EnvBlock env;
  char* const* envp;
};

// Prepares the environment (and the experiment when followed). False: the collector has no
// say (not collected); the caller uses the real function unchanged.
bool prepare(Spawn* s, DescKind kind, const char* kind_name, const char* target, const char* detail,
             char* const argv[], char* const base_env[]) {
  runtime_init();
  s->envp = base_env;
  plan_descendant(kind, target, detail, &s->plan);
  if (!s->plan.follow) {
    if (!env_has_collector(base_env)) return false;
    if (env_build(&s->env, base_env, EnvMode::kStrip, "", 0)) s->envp = s->env.envp;
    return true;
  }
  if (s->plan.selected && !create_descendant_experiment(s->plan, kind_name, target, argv)) s->plan.selected = false;
  if (env_build(&s->env, base_env, s->plan.selected ? EnvMode::kFollow : EnvMode::kDormant, s->plan.lineage, 0))
    s->envp = s->env.envp;
  overview_sample_record(format::kSampleFork, kind_name, true);
  return true;
}

void finish(Spawn* s, const char* kind_name, pid_t pid, int err, const char* target) {
  env_free(&s->env);
  if (!s->plan.follow) return;
  log_descendant(s->plan, kind_name, pid, err, target);
  if (err && s->plan.selected) descendant_log_event(s->plan, logev::kSpawnFailed, err);
  overview_sample_record(format::kSampleFork, kind_name, true);
}

int spawn_shell(pid_t* pid, const posix_spawn_file_actions_t* fa, const posix_spawnattr_t* attr,
                const char* command, char* const envp[]) {
  SpawnFn fn = real_spawn(false);
  if (!fn) return ENOSYS;
  char sh[] = "sh", dash_c[] = "-c";
  char* argv[] = {sh, dash_c, const_cast<char*>(command), nullptr};
  return fn(pid, "/bin/sh", fa, attr, argv, envp);
}

// system(3) with the given environment: SIGINT and SIGQUIT ignored and SIGCHLD blocked in the
// caller while the command runs; the child gets the caller's original dispositions and mask.
int run_system(const char* command, char* const envp[]) {
  struct sigaction ignore, old_int, old_quit;
  memset(&ignore, 0, sizeof ignore);
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  sigaction(SIGINT, &ignore, &old_int);
  sigaction(SIGQUIT, &ignore, &old_quit);
  sigset_t chld, old_mask;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, &old_mask);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t dflt;
  sigemptyset(&dflt);
  if (old_int.sa_handler != SIG_IGN) sigaddset(&dflt, SIGINT);
  if (old_quit.sa_handler != SIG_IGN) sigaddset(&dflt, SIGQUIT);
  posix_spawnattr_setsigdefault(&attr, &dflt);
  posix_spawnattr_setsigmask(&attr, &old_mask);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = -1;
  int status = -1;
  int rc = spawn_shell(&pid, nullptr, &attr, command, envp);
  if (rc == 0) {
    while (waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) {
        status = -1;
        break;
      }
    }
  } else {
    status = 127 << 8;  // as glibc: the shell could not be run
  }
  posix_spawnattr_destroy(&attr);
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGQUIT, &old_quit, nullptr);
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  return status;
}

// Streams opened by the collector's popen, for pclose.
struct PopenEntry {
  FILE* stream;
  pid_t pid;
  int fd;
};
constexpr int kMaxPopen = 256;
PopenEntry g_popen[kMaxPopen];
int g_popen_lock = 0;

void lock_popen() {
  while (__atomic_exchange_n(&g_popen_lock, 1, __ATOMIC_ACQUIRE)) sched_yield();
}
void unlock_popen() { __atomic_store_n(&g_popen_lock, 0, __ATOMIC_RELEASE); }

FILE* run_popen(const char* command, const char* mode, char* const envp[], pid_t* child) {
  bool reading = mode[0] == 'r';
  if ((mode[0] != 'r' && mode[0] != 'w')) {
    errno = EINVAL;
    return nullptr;
  }
  bool cloexec = strchr(mode + 1, 'e') != nullptr;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return nullptr;
  int parent_end = reading ? fds[0] : fds[1];
  int child_end = reading ? fds[1] : fds[0];
  int target = reading ? 1 : 0;
  if (child_end <= 2) {  // keep it away from the descriptor it must become
    int moved = fcntl(child_end, F_DUPFD_CLOEXEC, 3);
    close(child_end);
    child_end = moved;
    if (child_end < 0) {
      close(parent_end);
      return nullptr;
    }
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, child_end, target);
  lock_popen();
  // POSIX: streams of earlier popen calls must not stay open in the new child.
  for (auto& e : g_popen)
    if (e.stream && e.fd != target) posix_spawn_file_actions_addclose(&fa, e.fd);
  pid_t pid = -1;
  int rc = spawn_shell(&pid, &fa, nullptr, command, envp);
  posix_spawn_file_actions_destroy(&fa);
  close(child_end);
  FILE* f = nullptr;
  if (rc == 0) {
    if (!cloexec) fcntl(parent_end, F_SETFD, 0);
    f = fdopen(parent_end, reading ? "r" : "w");
  }
  if (!f) {
    close(parent_end);
    if (rc == 0) {
      int st;
      while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
      }
    }
    unlock_popen();
    errno = rc ? rc : errno;
    return nullptr;
  }
  bool stored = false;
  for (auto& e : g_popen) {
    if (!e.stream) {
      e = {f, pid, parent_end};
      stored = true;
      break;
    }
  }
  unlock_popen();
  if (!stored) log_warning("popen", "too many open popen streams: pclose cannot wait for the child");
  *child = pid;
  return f;
}

}  // namespace
}  // namespace erkit::collector

using namespace erkit::collector;

extern "C" __attribute__((visibility("default"))) int posix_spawn(pid_t* pid, const char* path,
                                                                  const posix_spawn_file_actions_t* fa,
                                                                  const posix_spawnattr_t* attr, char* const argv[],
                                                                  char* const envp[]) {
  SpawnFn fn = real_spawn(false);
  if (!fn) return ENOSYS;
  Spawn s{};
  if (!prepare(&s, DescKind::kSpawn, "spawn", path, argv[0], argv, envp))
    return fn(pid, path, fa, attr, argv, envp);
  pid_t child = -1;
  int rc = fn(&child, path, fa, attr, argv, s.envp);
  if (pid) *pid = child;
  finish(&s, "spawn", rc == 0 ? child : 0, rc, path);
  return rc;
}

extern "C" __attribute__((visibility("default"))) int posix_spawnp(pid_t* pid, const char* file,
                                                                   const posix_spawn_file_actions_t* fa,
                                                                   const posix_spawnattr_t* attr, char* const argv[],
                                                                   char* const envp[]) {
  SpawnFn fn = real_spawn(true);
  if (!fn) return ENOSYS;
  Spawn s{};
  if (!prepare(&s, DescKind::kSpawn, "spawn", file, argv[0], argv, envp))
    return fn(pid, file, fa, attr, argv, envp);
  pid_t child = -1;
  int rc = fn(&child, file, fa, attr, argv, s.envp);
  if (pid) *pid = child;
  finish(&s, "spawn", rc == 0 ? child : 0, rc, file);
  return rc;
}

extern "C" __attribute__((visibility("default"))) int system(const char* command) {
  using SystemFn = int (*)(const char*);
  static SystemFn real = nullptr;
  if (!real) real = reinterpret_cast<SystemFn>(next_symbol("system", nullptr));
  if (!command) return real ? real(command) : 0;
  char sh[] = "/bin/sh", dash_c[] = "-c";
  char* argv[] = {sh, dash_c, const_cast<char*>(command), nullptr};
  Spawn s{};
  if (!prepare(&s, DescKind::kShell, "system", "/bin/sh", command, argv, environ))
    return real ? real(command) : -1;
  int status = run_system(command, s.envp);
  finish(&s, "system", 0, status == (127 << 8) ? ENOENT : 0, command);
  return status;
}

extern "C" __attribute__((visibility("default"))) FILE* popen(const char* command, const char* mode) {
  using PopenFn = FILE* (*)(const char*, const char*);
  static PopenFn real = nullptr;
  if (!real) real = reinterpret_cast<PopenFn>(next_symbol("popen", nullptr));
  char sh[] = "/bin/sh", dash_c[] = "-c";
  char* argv[] = {sh, dash_c, const_cast<char*>(command), nullptr};
  Spawn s{};
  if (!command || !mode || !prepare(&s, DescKind::kShell, "popen", "/bin/sh", command, argv, environ))
    return real ? real(command, mode) : nullptr;
  pid_t pid = 0;
  FILE* f = run_popen(command, mode, s.envp, &pid);
  int err = f ? 0 : errno;
  finish(&s, "popen", pid, err, command);
  errno = err;
  return f;
}

extern "C" __attribute__((visibility("default"))) int pclose(FILE* stream) {
  pid_t pid = -1;
  lock_popen();
  for (auto& e : g_popen) {
    if (e.stream == stream && stream) {
      pid = e.pid;
      e.stream = nullptr;
      break;
    }
  }
  unlock_popen();
  if (pid < 0) {
    using PcloseFn = int (*)(FILE*);
    static PcloseFn real = nullptr;
    if (!real) real = reinterpret_cast<PcloseFn>(next_symbol("pclose", nullptr));
    return real ? real(stream) : -1;
  }
  fclose(stream);
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}
