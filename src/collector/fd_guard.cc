#include "collector/fd_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

namespace erkit::collector {
namespace {

constexpr int kMaxGuarded = 16;   // log, map and the data files of one experiment
constexpr int kHighFd = 900;      // reopened descriptors go above the numbers programs use

struct Guarded {
  int* slot;        // the owner's variable; null: free entry
  int fd;           // the descriptor as guarded; stale once *slot != fd
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

}  // namespace

void fd_guard_add(int* slot, const char* path, int open_flags) {
  if (*slot < 0 || strlen(path) >= sizeof g_guarded[0].path) return;
  for (Guarded& g : g_guarded) {
    bool free_entry = !g.slot || *g.slot != g.fd || g.slot == slot;
    if (!free_entry) continue;
    g.slot = nullptr;
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
    dev_t dev;
    ino_t ino;
    int result = fd;
    if (!identity(fd, &dev, &ino) || dev != g.dev || ino != g.ino) {
      // Closed or reused by the program: never write through this number again.
      result = -1;
      const int tid = int(syscall(SYS_gettid));
      if (!__atomic_exchange_n(&g.busy, 1, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&g.repairer, tid, __ATOMIC_RELAXED);
        int nfd = open(g.path, g.flags);
        if (nfd >= 0 && nfd < kHighFd) {
          int high = fcntl(nfd, F_DUPFD_CLOEXEC, kHighFd);
          if (high >= 0) {
            close(nfd);
            nfd = high;
          }
        }
        if (nfd >= 0 && identity(nfd, &dev, &ino) && dev == g.dev && ino == g.ino) {
          result = nfd;
        } else if (nfd >= 0) {
          close(nfd);  // the path now names another file (the experiment was removed)
        }
        g.fd = result;
        __atomic_store_n(slot, result, __ATOMIC_RELEASE);
        __atomic_store_n(&g.busy, 0, __ATOMIC_RELEASE);
      } else if (__atomic_load_n(&g.repairer, __ATOMIC_RELAXED) != tid) {
        // Another thread is reopening the file: wait for it (a dropped stack record would leave
        // every later sample of that stack without one). Bounded: never hang the target.
        for (int i = 0; i < 10000 && __atomic_load_n(&g.busy, __ATOMIC_ACQUIRE); ++i) sched_yield();
        if (!__atomic_load_n(&g.busy, __ATOMIC_ACQUIRE)) result = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
      }  // else: a signal handler interrupted this thread's own repair; drop this write
    }
    errno = saved_errno;
    return result;
  }
  return fd;
}

}  // namespace erkit::collector
