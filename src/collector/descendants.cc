#include "collector/descendants.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <sched.h>
#include <stdarg.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "collector/descendant_env.h"
#include "collector/pause_resume.h"
#include "collector/real_functions.h"
#include "collector/runtime.h"
#include "collector/overview_samples.h"
#include "collector/text_line.h"
#include "format/experiment_format.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace {

// Calls counted per process image, failed ones too.
int g_forks = 0, g_execs = 0, g_combos = 0;
regex_t g_regex;
bool g_has_regex = false;
char g_self_name[256];

int g_dir_lock = 0;      // guards the buffers below
char g_header[32768];    // a descendant's log header being assembled
char g_founder_log[16384];

void lock_dirs() {
  while (__atomic_exchange_n(&g_dir_lock, 1, __ATOMIC_ACQUIRE)) sched_yield();
}
void unlock_dirs() { __atomic_store_n(&g_dir_lock, 0, __ATOMIC_RELEASE); }

const char* base_name(const char* p) {
  const char* s = p ? strrchr(p, '/') : nullptr;
  return s ? s + 1 : (p ? p : "");
}

bool join_path(char* out, size_t cap, const char* a, const char* b, const char* c = "") {
  size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
  if (la + lb + lc + 2 > cap) return false;
  memcpy(out, a, la);
  out[la] = '/';
  memcpy(out + la + 1, b, lb);
  memcpy(out + la + 1 + lb, c, lc + 1);
  return true;
}

bool matches(const char* s) { return s && *s && regexec(&g_regex, s, 0, nullptr, 0) == 0; }

// The program's arguments (without argv[0]) as one line.
void join_args(char* const argv[], char* out, size_t cap) {
  size_t n = 0;
  out[0] = 0;
  for (int i = 1; argv && argv[i]; ++i) {
    size_t l = strlen(argv[i]);
    if (n + l + 2 >= cap) break;
    if (n) out[n++] = ' ';
    memcpy(out + n, argv[i], l);
    n += l;
    out[n] = 0;
  }
}

// Same, from /proc/self/cmdline (a fork child runs its parent's program).
void own_args(char* out, size_t cap) {
  out[0] = 0;
  int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char buf[4096];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return;
  buf[n] = 0;
  size_t i = strlen(buf) + 1, o = 0;  // skip argv[0]
  while (i < size_t(n) && o + 2 < cap) {
    char c = buf[i++];
    out[o++] = c ? c : ' ';
  }
  while (o && out[o - 1] == ' ') --o;
  out[o] = 0;
}

// A program the loader will not preload the collector into (no PT_INTERP).
bool is_static_elf(const char* path) {
  if (!path || !strchr(path, '/')) return false;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  Elf64_Ehdr eh;
  bool is_static = false;
  if (pread(fd, &eh, sizeof eh, 0) == ssize_t(sizeof eh) && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
      eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum < 64) {
    Elf64_Phdr ph[64];
    size_t bytes = sizeof(Elf64_Phdr) * eh.e_phnum;
    if (pread(fd, ph, bytes, off_t(eh.e_phoff)) == ssize_t(bytes)) {
      is_static = true;
      for (int i = 0; i < eh.e_phnum; ++i)
        if (ph[i].p_type == PT_INTERP) is_static = false;
    }
  }
  close(fd);
  return is_static;
}

// A program the dynamic loader runs in secure mode (set-user-ID or set-group-ID to someone
// else, or with file capabilities, where the mount and no_new_privs let them act): it ignores
// LD_PRELOAD there, so the collector never starts in it.
bool loader_ignores_preload(const char* path) {
  if (!path || !strchr(path, '/')) return false;
  struct stat st;
  struct statvfs vfs;
  if (stat(path, &st) != 0 || (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_NOSUID)) ||
      prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
    return false;
  if ((st.st_mode & S_ISUID) && st.st_uid != getuid()) return true;
  if ((st.st_mode & S_ISGID) && st.st_gid != getgid()) return true;
  return getxattr(path, "security.capability", nullptr, 0) >= 0;
}

constexpr const char* kSecureModeText =
    "is a set-user-ID, set-group-ID or capability program: the dynamic loader ignores the collector in it "
    "(secure mode), so it runs without recording";

// Appends `line` (with its newline) to the header buffer.
bool header_add(size_t* n, const char* line, size_t len) {
  if (*n + len + 1 >= sizeof g_header) return false;
  memcpy(g_header + *n, line, len);
  *n += len;
  g_header[(*n)++] = '\n';
  return true;
}

// The founder's settings (collect wrote them at the top of its log) apply to every descendant.
void copy_founder_settings(size_t* n) {
  char path[4200];
  if (!join_path(path, sizeof path, g_rt.config.founder_dir, format::kLogFile)) return;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ssize_t got = read(fd, g_founder_log, sizeof g_founder_log - 1);
  close(fd);
  if (got <= 0) return;
  g_founder_log[got] = 0;
  const char* prefix = "0 setting ";
  for (char* p = g_founder_log; *p;) {
    char* nl = strchr(p, '\n');
    if (!nl) break;  // incomplete last line
    if (strncmp(p, prefix, strlen(prefix)) == 0) header_add(n, p, size_t(nl - p));
    p = nl + 1;
  }
}

void descendant_dir(const DescendantPlan& p, char* out, size_t cap) {
  if (!join_path(out, cap, g_rt.config.founder_dir, p.lineage, ".er")) out[0] = 0;
}

}  // namespace

void descendants_init() {
  env_init();
  g_forks = g_execs = g_combos = 0;
  char exe[1024];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  const char* name = base_name(exe);
  size_t nl = strlen(name);
  if (nl >= sizeof g_self_name) nl = sizeof g_self_name - 1;
  memcpy(g_self_name, name, nl);
  g_self_name[nl] = 0;
  if (g_rt.config.follow_regex[0] && !g_has_regex)
    g_has_regex = regcomp(&g_regex, g_rt.config.follow_regex, REG_EXTENDED | REG_NOSUB) == 0;
  g_rt.pid = int(getpid());
}

void descendants_after_fork_child() {
  // Until the fork interposer says otherwise (a fork it did not see), the child is not part
  // of the followed family.
  g_rt.tracking = false;
  g_forks = g_execs = g_combos = 0;
  __atomic_store_n(&g_dir_lock, 0, __ATOMIC_RELAXED);
}

void plan_descendant(DescKind k, const char* name, const char* detail, DescendantPlan* p) {
  const Config& c = g_rt.config;
  p->follow = g_rt.tracking && int(getpid()) == g_rt.pid && c.follow > 0 &&
              (k != DescKind::kShell || c.follow >= 2);
  if (!p->follow) return;
  const char* code = "c";
  int* counter = &g_combos;
  if (k == DescKind::kFork) {
    code = "f";
    counter = &g_forks;
  } else if (k == DescKind::kExec) {
    code = "x";
    counter = &g_execs;
  }
  p->index = __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
  p->parent_pid = int(getpid());
  strcpy(p->parent_lineage, c.lineage);
  TextLine t;  // a bounded string builder here
  t.str(c.lineage).str("_").str(code).udec(uint64_t(p->index));
  const char* s = t.data();
  size_t len = t.size();
  if (len >= sizeof p->lineage) len = sizeof p->lineage - 1;
  memcpy(p->lineage, s, len);
  p->lineage[len] = 0;
  p->selected = !g_has_regex || matches(p->lineage) || matches(name) || matches(base_name(name)) ||
                matches(detail);
}

bool create_descendant_experiment(const DescendantPlan& p, const char* kind, const char* target,
                                  char* const argv[]) {
  char dir[4200], path[4300];
  descendant_dir(p, dir, sizeof dir);
  // The directory and its files follow the founder's mode (collect's umask), not the program's.
  unsigned file_mode = experiment_file_mode(g_rt.config.founder_dir);
  if (!dir[0] || (mkdir(dir, file_mode | ((file_mode & 0444) >> 2)) != 0 && errno != EEXIST)) return false;
  lock_dirs();
  bool ok = false;
  int err = 0;
  if (join_path(path, sizeof path, dir, format::kLogFile)) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC | O_NOFOLLOW, file_mode);
    err = errno;
    if (fd >= 0) {
      size_t n = 0;
      TextLine line;
      line.str(format::kLogMagic).chr(' ').udec(format::kFormatVersion);
      header_add(&n, line.data(), line.size());
      copy_founder_settings(&n);
      char args[2048];
      if (argv) join_args(argv, args, sizeof args);
      else own_args(args, sizeof args);
      line.event(0, logev::kDescendantOf).kv(logkey::kKind, kind).kv_quoted(logkey::kLineage, p.lineage);
      line.kv_dec(logkey::kIndex, p.index);
      line.kv_dec(logkey::kParentPid, p.parent_pid).kv_quoted("parent_lineage", p.parent_lineage);
      line.kv_quoted(logkey::kTarget, target ? target : "").kv_quoted(logkey::kArgs, args);
      header_add(&n, line.data(), line.size());
      if (is_static_elf(target)) {
        line.event(0, logev::kWarning).kv(logkey::kCode, "static_target");
        line.kv_quoted(logkey::kText, "the program is statically linked: the collector cannot be preloaded into it, "
                               "so this experiment holds no data");
        header_add(&n, line.data(), line.size());
      } else if (loader_ignores_preload(target)) {
        TextLine text;
        text.str("the program ").str(kSecureModeText).str("; this experiment holds no data");
        line.event(0, logev::kWarning).kv(logkey::kCode, "secure_mode_target").kv_quoted(logkey::kText, text.data());
        header_add(&n, line.data(), line.size());
      }
      ok = write(fd, g_header, n) == ssize_t(n);
      close(fd);
    } else {
      ok = err == EEXIST;
    }
  }
  if (ok && join_path(path, sizeof path, dir, format::kMapFile)) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, file_mode);
    if (fd >= 0) {
      TextLine line;
      line.str(format::kMapMagic).chr(' ').udec(format::kFormatVersion);
      if (!line.write_to(fd)) ok = false;
      close(fd);
    }
  }
  unlock_dirs();
  if (!ok) errno = err ? err : EIO;
  return ok;
}

namespace {
// strerror may allocate (unknown numbers): the few reasons a directory cannot be created.
const char* reason(int err) {
  switch (err) {
    case EACCES: return "permission denied";
    case EPERM: return "operation not permitted";
    case ENOENT: return "no such directory";
    case EROFS: return "read-only file system";
    case ENOSPC: return "no space left";
    case EDQUOT: return "disk quota exceeded";
    case ELOOP: return "symbolic link in the way";
    default: return "cannot be created";
  }
}
}  // namespace

namespace {
// A warning about descendant `p`: in its parent's log (`log_fd`) and, when the parent is itself
// a descendant, in the founder's log too (best effort: a process that changed its user or root
// directory may not reach it by path).
void family_warning(int log_fd, const DescendantPlan& p, const char* text) {
  TextLine line;
  line.event(g_rt.active ? now_ns() : 0, logev::kWarning).kv(logkey::kCode, "descendant_not_recorded");
  line.kv_quoted(logkey::kLineage, p.lineage).kv_quoted(logkey::kText, text);
  if (log_fd >= 0) line.write_to(log_fd);
  char path[4200];
  if (!p.parent_lineage[0] || !join_path(path, sizeof path, g_rt.config.founder_dir, format::kLogFile)) return;
  int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return;
  line.write_to(fd);
  close(fd);
}
}  // namespace

void warn_descendant_not_recorded(int log_fd, const DescendantPlan& p, const char* target, int err) {
  char dir[4200];
  descendant_dir(p, dir, sizeof dir);
  TextLine text;
  text.str("descendant ").str(p.lineage).str(" (pid ").udec(uint64_t(getpid())).str(", uid ");
  text.udec(uint64_t(geteuid())).str(", ").str(target && *target ? target : "?").str(") was followed but ");
  text.str("could not create its experiment ").str(dir).str(": ").str(reason(err));
  text.str(" (changed user or root directory?); it runs without recording");
  family_warning(log_fd, p, text.data());
}

void descendant_log_event(const DescendantPlan& p, const char* event, int err) {
  char dir[4200], path[4300];
  descendant_dir(p, dir, sizeof dir);
  if (!dir[0] || !join_path(path, sizeof path, dir, format::kLogFile)) return;
  int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return;
  TextLine line;
  line.event(0, event);
  if (err) line.kv_dec(logkey::kErrno, err);
  line.write_to(fd);
  close(fd);
}

void log_descendant(const DescendantPlan& p, const char* kind, pid_t pid, int err, const char* target) {
  if (!g_rt.active) return;
  TextLine line;
  line.event(now_ns(), logev::kDescendant).kv(logkey::kKind, kind).kv_quoted(logkey::kLineage, p.lineage);
  line.kv_dec(logkey::kIndex, p.index);
  if (pid > 0) line.kv_dec(logkey::kPid, pid);
  line.kv_dec(logkey::kFollowed, p.selected ? 1 : 0);
  if (err) line.kv(logkey::kFailed, "1").kv_dec(logkey::kErrno, err);
  if (target) line.kv_quoted(logkey::kTarget, target);
  line.write_to(g_rt.log_fd);
}

// ---- fork, vfork, clone -------------------------------------------------------------------
namespace {

struct ForkState {
  DescendantPlan plan;
  int was_recording;
};

void prepare_fork(ForkState* f) {
  plan_descendant(DescKind::kFork, g_self_name, nullptr, &f->plan);
  // A recording parent's pause state is inherited; a dormant parent has none.
  f->was_recording = g_rt.active ? __atomic_load_n(&g_rt.recording, __ATOMIC_ACQUIRE) : 1;
  if (f->plan.follow) overview_sample_record(format::kSampleFork, "fork", true);
}

void parent_after_fork(const ForkState& f, const char* kind, pid_t pid, int err) {
  if (!f.plan.follow) return;
  log_descendant(f.plan, kind, pid, pid < 0 ? err : 0, nullptr);
  overview_sample_record(format::kSampleFork, "fork", true);
}

// In the child, single-threaded: its own experiment, or dormant, or nothing.
void child_after_fork(const ForkState& f) {
  // The parent's log stays open until forgotten: a child that cannot create its own experiment
  // (the program changed its user or root directory before forking) says so there.
  int parent_log =
      g_rt.log_fd >= 0 && f.plan.follow && f.plan.selected ? fcntl(g_rt.log_fd, F_DUPFD_CLOEXEC, 900) : -1;
  runtime_forget_parent_after_fork();
  g_rt.pid = int(getpid());
  g_forks = g_execs = g_combos = 0;
  if (!f.plan.follow) return;  // not followed: stays out (tracking is off)
  Config& c = g_rt.config;
  strcpy(c.lineage, f.plan.lineage);
  g_rt.tracking = true;
  c.dormant = !f.plan.selected;
  if (c.dormant) {
    if (parent_log >= 0) close(parent_log);
    return;
  }
  char exe[1024];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  errno = 0;
  if (!join_path(c.experiment_dir, sizeof c.experiment_dir, c.founder_dir, c.lineage, ".er") ||
      !create_descendant_experiment(f.plan, "fork", exe, nullptr) || !runtime_start_experiment()) {
    warn_descendant_not_recorded(parent_log, f.plan, exe, errno ? errno : EIO);
    if (parent_log >= 0) close(parent_log);
    c.dormant = true;
    return;
  }
  if (parent_log >= 0) close(parent_log);
  if (!f.was_recording) collection_pause("inherited");
}

using ForkFn = pid_t (*)();
ForkFn real_fork() {
  static ForkFn fn = nullptr;
  if (!fn) fn = reinterpret_cast<ForkFn>(next_symbol("fork", nullptr));
  return fn;
}

pid_t do_fork(const char* kind) {
  runtime_init();
  ForkFn fork_fn = real_fork();
  if (!fork_fn) {
    errno = ENOSYS;
    return -1;
  }
  ForkState f;
  prepare_fork(&f);
  pid_t pid = fork_fn();
  int err = errno;
  if (pid == 0) {
    child_after_fork(f);
    return 0;
  }
  parent_after_fork(f, kind, pid, err);
  errno = err;
  return pid;
}

// clone() without CLONE_VM makes a process that starts in fn on its own copy of memory.
struct CloneSlot {
  int (*fn)(void*);
  void* arg;
  ForkState f;
};
CloneSlot g_clone_slot;
int g_clone_lock = 0;

int clone_child(void* p) {
  // The child's copy of the slot; fork handlers did not run for clone().
  auto* slot = static_cast<CloneSlot*>(p);
  g_rt.active = false;
  __atomic_store_n(&g_rt.recording, 0, __ATOMIC_RELEASE);
  descendants_after_fork_child();
  __atomic_store_n(&g_clone_lock, 0, __ATOMIC_RELAXED);
  child_after_fork(slot->f);
  int rc = slot->fn(slot->arg);
  // glibc ends a clone child with a thread exit; the collector may have started threads of its
  // own in it, so the process would never end: end the experiment and the whole process here.
  runtime_fini("exit");
  syscall(SYS_exit_group, rc);
  return rc;
}

}  // namespace

}  // namespace erkit::collector

using erkit::collector::do_fork;

extern "C" __attribute__((visibility("default"))) pid_t fork() noexcept { return do_fork("fork"); }

// vfork is fork here: the child then runs in its own memory and may run collector code.
extern "C" __attribute__((visibility("default"))) pid_t vfork() noexcept { return do_fork("vfork"); }

extern "C" __attribute__((visibility("default"))) int clone(int (*fn)(void*), void* stack, int flags, void* arg,
                                                            ...) noexcept {
  using namespace erkit::collector;
  va_list ap;
  va_start(ap, arg);
  pid_t* ptid = va_arg(ap, pid_t*);
  void* tls = va_arg(ap, void*);
  pid_t* ctid = va_arg(ap, pid_t*);
  va_end(ap);
  using CloneFn = int (*)(int (*)(void*), void*, int, void*, ...);
  static CloneFn real = nullptr;
  if (!real) real = reinterpret_cast<CloneFn>(next_symbol("clone", nullptr));
  if (!real) {
    errno = ENOSYS;
    return -1;
  }
  runtime_init();
  bool process_like = !(flags & (CLONE_VM | CLONE_THREAD | CLONE_VFORK));
  if (!process_like || !g_rt.tracking) return real(fn, stack, flags, arg, ptid, tls, ctid);
  while (__atomic_exchange_n(&g_clone_lock, 1, __ATOMIC_ACQUIRE)) sched_yield();
  g_clone_slot.fn = fn;
  g_clone_slot.arg = arg;
  prepare_fork(&g_clone_slot.f);
  int pid = real(clone_child, stack, flags, &g_clone_slot, ptid, tls, ctid);
  int err = errno;
  parent_after_fork(g_clone_slot.f, "clone", pid, err);
  __atomic_store_n(&g_clone_lock, 0, __ATOMIC_RELEASE);
  errno = err;
  return pid;
}

// ---- exec* --------------------------------------------------------------------------------
namespace erkit::collector {
namespace {

enum class ExecVia { kPath, kSearch, kFd };

int call_exec(ExecVia via, const char* file, int fd, char* const argv[], char* const envp[]) {
  using ExecveFn = int (*)(const char*, char* const[], char* const[]);
  using FexecveFn = int (*)(int, char* const[], char* const[]);
  static ExecveFn execve_fn = nullptr, execvpe_fn = nullptr;
  static FexecveFn fexecve_fn = nullptr;
  switch (via) {
    case ExecVia::kPath:
      if (!execve_fn) execve_fn = reinterpret_cast<ExecveFn>(next_symbol("execve", nullptr));
      return execve_fn ? execve_fn(file, argv, envp) : (errno = ENOSYS, -1);
    case ExecVia::kSearch:
      if (!execvpe_fn) execvpe_fn = reinterpret_cast<ExecveFn>(next_symbol("execvpe", nullptr));
      return execvpe_fn ? execvpe_fn(file, argv, envp) : (errno = ENOSYS, -1);
    case ExecVia::kFd:
      if (!fexecve_fn) fexecve_fn = reinterpret_cast<FexecveFn>(next_symbol("fexecve", nullptr));
      return fexecve_fn ? fexecve_fn(fd, argv, envp) : (errno = ENOSYS, -1);
  }
  errno = EINVAL;
  return -1;
}

int exec_with(EnvMode mode, const char* lineage, ExecVia via, const char* file, int fd, char* const argv[],
              char* const envp[]) {
  EnvBlock b;
  if (!env_build(&b, envp, mode, lineage, getpid())) return call_exec(via, file, fd, argv, envp);
  int rc = call_exec(via, file, fd, argv, b.envp);
  int err = errno;
  env_free(&b);
  errno = err;
  return rc;
}

int do_exec(ExecVia via, const char* file, int fd, char* const argv[], char* const envp[]) {
  runtime_init();
  DescendantPlan p;
  char target[1024];
  target[0] = 0;
  if (via == ExecVia::kFd) {
    char link[64] = "/proc/self/fd/";
    TextLine t;
    t.udec(uint64_t(fd)).chr(0);
    strcat(link, t.data());
    ssize_t n = readlink(link, target, sizeof target - 1);
    target[n > 0 ? n : 0] = 0;
  } else if (file) {
    strncpy(target, file, sizeof target - 1);
    target[sizeof target - 1] = 0;
  }
  plan_descendant(DescKind::kExec, target, argv ? argv[0] : nullptr, &p);
  if (!p.follow) {
    if (!env_has_collector(envp)) return call_exec(via, file, fd, argv, envp);
    return exec_with(EnvMode::kStrip, "", via, file, fd, argv, envp);
  }
  if (p.selected && !create_descendant_experiment(p, "exec", target, argv)) {
    // Followed, but its experiment cannot exist (changed user or root directory): say so, and
    // let the new image run dormant (its own descendants keep their names).
    warn_descendant_not_recorded(g_rt.active ? g_rt.log_fd : -1, p, target, errno);
    log_descendant(p, "exec", 0, 0, target);
    p.selected = false;
  } else {
    log_descendant(p, "exec", 0, 0, target);
    if (p.selected && loader_ignores_preload(target)) {
      TextLine text;
      text.str("descendant ").str(p.lineage).str(" (").str(target).str(") ").str(kSecureModeText);
      family_warning(g_rt.active ? g_rt.log_fd : -1, p, text.data());
    }
  }
  runtime_before_exec();
  int rc = exec_with(p.selected ? EnvMode::kFollow : EnvMode::kDormant, p.lineage, via, file, fd, argv, envp);
  int err = errno;
  runtime_exec_failed(err);
  if (p.selected) descendant_log_event(p, logev::kExecFailed, err);
  errno = err;
  return rc;
}

// execl-style arguments into an argv array on the stack.
#define ERKIT_COLLECT_ARGS(first, ap, argv_name)          \
  int argc_ = 1;                                          \
  {                                                       \
    va_list cp_;                                          \
    va_copy(cp_, ap);                                     \
    while (va_arg(cp_, const char*)) ++argc_;             \
    va_end(cp_);                                          \
  }                                                       \
  char* argv_name[argc_ + 1];                             \
  argv_name[0] = const_cast<char*>(first);                \
  for (int i_ = 1; i_ <= argc_; ++i_) argv_name[i_] = va_arg(ap, char*);

}  // namespace
}  // namespace erkit::collector

using erkit::collector::do_exec;
using erkit::collector::ExecVia;

extern char** environ;

extern "C" __attribute__((visibility("default"))) int execve(const char* path, char* const argv[],
                                                             char* const envp[]) noexcept {
  return do_exec(ExecVia::kPath, path, -1, argv, envp);
}

extern "C" __attribute__((visibility("default"))) int execv(const char* path, char* const argv[]) noexcept {
  return do_exec(ExecVia::kPath, path, -1, argv, environ);
}

extern "C" __attribute__((visibility("default"))) int execvp(const char* file, char* const argv[]) noexcept {
  return do_exec(ExecVia::kSearch, file, -1, argv, environ);
}

extern "C" __attribute__((visibility("default"))) int execvpe(const char* file, char* const argv[],
                                                              char* const envp[]) noexcept {
  return do_exec(ExecVia::kSearch, file, -1, argv, envp);
}

extern "C" __attribute__((visibility("default"))) int fexecve(int fd, char* const argv[],
                                                              char* const envp[]) noexcept {
  return do_exec(ExecVia::kFd, nullptr, fd, argv, envp);
}

extern "C" __attribute__((visibility("default"))) int execl(const char* path, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  ERKIT_COLLECT_ARGS(arg, ap, argv)
  va_end(ap);
  return do_exec(ExecVia::kPath, path, -1, argv, environ);
}

extern "C" __attribute__((visibility("default"))) int execlp(const char* file, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  ERKIT_COLLECT_ARGS(arg, ap, argv)
  va_end(ap);
  return do_exec(ExecVia::kSearch, file, -1, argv, environ);
}

extern "C" __attribute__((visibility("default"))) int execle(const char* path, const char* arg, ...) noexcept {
  va_list ap;
  va_start(ap, arg);
  ERKIT_COLLECT_ARGS(arg, ap, argv)
  char* const* envp = va_arg(ap, char* const*);
  va_end(ap);
  return do_exec(ExecVia::kPath, path, -1, argv, envp);
}
