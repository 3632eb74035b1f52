#include "collector/fd_guard.h"

#include "collector/fd_owned.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace erkit::collector {
namespace {

constexpr int kMaxGuarded = 16;  // log, map and the data files of one experiment
// Guarded descriptors live at or above kOwnedFdBase (fd_owned.h): programs reuse the lowest
// free numbers, so after a close_range(3, ~0) the program's new files do not land on them, and
// the collector can reopen its file on the very same number. The number changes only when the
// program's dup2 claims it (fd_guard_moved).

struct Guarded {
  int* slot;        // the owner's variable; null: free entry
  int fd;           // the descriptor as guarded; the entry is stale once *slot != fd
  dev_t dev;
  ino_t ino;
  int flags;        // for reopening (O_CREAT left out: a removed experiment stays removed)
  int busy;         // atomic: a thread is repairing this entry
  int repairer;     // that thread's id
  char path[4200];
};

Guarded g_guarded[kMaxGuarded];

bool identity(int fd, dev_t* dev, ino_t* ino) {
  struct stat st;
  if (fstat(fd, &st) != 0) return false;
  *dev = st.st_dev;
  *ino = st.st_ino;
  return true;
}

bool intact(const Guarded& g) {
  dev_t dev;
  ino_t ino;
  return identity(g.fd, &dev, &ino) && dev == g.dev && ino == g.ino;
}

// Reopens the file on its own number if the program closed it; false if the number now names
// another file (the program's: it must never be written) or the file is gone.
bool repair(Guarded& g) {
  if (fcntl(g.fd, F_GETFD) != -1 || errno != EBADF) return false;  // the number is taken
  int nfd = open(g.path, g.flags);
  if (nfd < 0) return false;
  dev_t dev;
  ino_t ino;
  bool same = identity(nfd, &dev, &ino) && dev == g.dev && ino == g.ino;
  // The system calls themselves: dup3 and close are interposed (fd_interpose.cc).
  bool placed = same && (nfd == g.fd || syscall(SYS_dup3, nfd, g.fd, O_CLOEXEC) == g.fd);
  if (nfd != g.fd) syscall(SYS_close, nfd);
  return placed;
}

}  // namespace

void fd_guard_add(int* slot, const char* path, int open_flags) {
  if (*slot < 0 || strlen(path) >= sizeof g_guarded[0].path) return;
  for (Guarded& g : g_guarded) {
    bool free_entry = !g.slot || *g.slot != g.fd || g.slot == slot;
    if (!free_entry) continue;
    g.slot = nullptr;
    // Registered with fd_owned (the program's close and dup2 leave it alone); with a low
    // RLIMIT_NOFILE it stays where it is, unregistered.
    *slot = fd_own(*slot, slot);
    if (!identity(*slot, &g.dev, &g.ino)) return;
    g.fd = *slot;
    g.flags = (open_flags & ~(O_CREAT | O_TRUNC | O_EXCL)) | O_CLOEXEC;
    g.busy = 0;
    strcpy(g.path, path);
    __atomic_store_n(&g.slot, slot, __ATOMIC_RELEASE);
    return;
  }
}

int fd_guard_resolve(int fd) {
  if (fd < 0) return fd;
  for (Guarded& g : g_guarded) {
    int* slot = __atomic_load_n(&g.slot, __ATOMIC_ACQUIRE);
    if (!slot || g.fd != fd || *slot != fd) continue;
    int saved_errno = errno;
    int result = fd;
    if (!intact(g)) {
      // Closed or reused by the program: never write through this number unless it is ours again.
      result = -1;
      const int tid = int(syscall(SYS_gettid));
      if (!__atomic_exchange_n(&g.busy, 1, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&g.repairer, tid, __ATOMIC_RELAXED);
        if (intact(g) || repair(g)) result = fd;
        __atomic_store_n(&g.busy, 0, __ATOMIC_RELEASE);
      } else if (__atomic_load_n(&g.repairer, __ATOMIC_RELAXED) != tid) {
        // Another thread is reopening the file: wait for it (a dropped stack record would leave
        // every later sample of that stack without one). Bounded: never hang the target.
        for (int i = 0; i < 10000 && __atomic_load_n(&g.busy, __ATOMIC_ACQUIRE); ++i) sched_yield();
        if (intact(g)) result = fd;
      }  // else: a signal handler interrupted this thread's own repair; drop this write
    }
    errno = saved_errno;
    return result;
  }
  return fd;
}

void fd_guard_moved(int from, int to) {
  for (Guarded& g : g_guarded) {
    int* slot = __atomic_load_n(&g.slot, __ATOMIC_ACQUIRE);
    if (slot && g.fd == from) __atomic_store_n(&g.fd, to, __ATOMIC_RELEASE);
  }
}

}  // namespace erkit::collector
