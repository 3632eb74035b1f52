#include "collector/fd_owned.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace erkit::collector {
namespace {

struct Entry {
  int* slot;     // the owner's variable (may be null)
  uint64_t dev;  // identity of the file, to never close a number the program took over
  uint64_t ino;
  int busy;      // atomic: being released or moved
};

uint64_t g_bits[kOwnedFdSpan / 64];  // atomic: bit set = registered
Entry g_entries[kOwnedFdSpan];
// The process whose descriptors are registered. A vfork child shares this memory (not the
// descriptor table): it must not move anything. A forked child has its own copy; it becomes
// the owner when it registers its own experiment's descriptors.
int g_owner_pid = 0;

bool in_span(int fd) { return fd >= kOwnedFdBase && fd < kOwnedFdBase + kOwnedFdSpan; }
uint64_t& word_of(int fd) { return g_bits[(fd - kOwnedFdBase) / 64]; }
uint64_t bit_of(int fd) { return uint64_t(1) << ((fd - kOwnedFdBase) % 64); }

// The collector's own calls go to the kernel directly: close, fcntl and dup3 are interposed
// (fd_interpose.cc) and would treat the collector's numbers as protected.
int sys_close(int fd) { return int(syscall(SYS_close, fd)); }
int sys_dupfd_high(int fd) { return int(syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, kOwnedFdBase)); }

bool identity(int fd, uint64_t* dev, uint64_t* ino) {
  struct stat st;
  if (syscall(SYS_fstat, fd, &st) != 0) return false;
  *dev = uint64_t(st.st_dev);
  *ino = uint64_t(st.st_ino);
  return true;
}

// Bounded: a signal handler of the program may interrupt the collector while it holds an
// entry on the same thread; never wait for ever.
bool lock_entry(Entry& e) {
  for (int i = 0; i < 1000; ++i) {
    if (!__atomic_exchange_n(&e.busy, 1, __ATOMIC_ACQUIRE)) return true;
    sched_yield();
  }
  return false;
}
void unlock_entry(Entry& e) { __atomic_store_n(&e.busy, 0, __ATOMIC_RELEASE); }

void set_registered(int fd, bool on) {
  if (on) __atomic_fetch_or(&word_of(fd), bit_of(fd), __ATOMIC_RELEASE);
  else __atomic_fetch_and(&word_of(fd), ~bit_of(fd), __ATOMIC_RELEASE);
}

// Registers a descriptor already at a number in the span.
void register_high(int fd, int* slot, uint64_t dev, uint64_t ino) {
  Entry& e = g_entries[fd - kOwnedFdBase];
  e.slot = slot;
  e.dev = dev;
  e.ino = ino;
  set_registered(fd, true);
}

}  // namespace

bool fd_room_available() {
  struct rlimit rl;
  if (syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, nullptr, &rl) != 0) return false;
  return rl.rlim_cur > rlim_t(kOwnedFdBase);
}

bool fd_owned(int fd) { return in_span(fd) && (__atomic_load_n(&word_of(fd), __ATOMIC_ACQUIRE) & bit_of(fd)); }

int fd_own(int fd, int* slot) {
  if (fd < 0) return fd;
  int saved_errno = errno;
  int high = in_span(fd) && !fd_owned(fd) ? fd : sys_dupfd_high(fd);
  // A registered number can be free in the kernel: the program's raw close_range closed a
  // guarded file, which fd_guard reopens on that very number. Never take it.
  while (high >= 0 && high != fd && fd_owned(high)) {
    int next = int(syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, high + 1));
    sys_close(high);
    high = next;
  }
  uint64_t dev = 0, ino = 0;
  if (high < 0 || !in_span(high) || !identity(high, &dev, &ino)) {
    if (high >= 0 && high != fd) sys_close(high);
    errno = saved_errno;
    return fd;  // no room up there (RLIMIT_NOFILE at or below kOwnedFdBase): the caller decides
  }
  if (high != fd) sys_close(fd);
  __atomic_store_n(&g_owner_pid, int(syscall(SYS_getpid)), __ATOMIC_RELAXED);
  register_high(high, slot, dev, ino);
  errno = saved_errno;
  return high;
}

void fd_forget(int fd) {
  if (fd_owned(fd)) set_registered(fd, false);
}

void fd_release(int fd) {
  if (fd < 0) return;
  int saved_errno = errno;
  if (!fd_owned(fd)) {  // one the collector could not place high: still its own
    sys_close(fd);
    errno = saved_errno;
    return;
  }
  Entry& e = g_entries[fd - kOwnedFdBase];
  bool locked = lock_entry(e);
  if (fd_owned(fd)) {
    uint64_t dev, ino;
    bool ours = identity(fd, &dev, &ino) && dev == e.dev && ino == e.ino;
    set_registered(fd, false);
    if (ours) sys_close(fd);
  }
  if (locked) unlock_entry(e);
  errno = saved_errno;
}

void fd_make_room(int to) {
  if (!fd_owned(to) || __atomic_load_n(&g_owner_pid, __ATOMIC_RELAXED) != int(syscall(SYS_getpid))) return;
  int saved_errno = errno;
  Entry& e = g_entries[to - kOwnedFdBase];
  if (!lock_entry(e)) return;  // the program's dup2 replaces it; the owner finds out on use
  if (fd_owned(to)) {
    int moved = sys_dupfd_high(to);
    if (moved >= 0 && in_span(moved)) {
      register_high(moved, e.slot, e.dev, e.ino);
      if (e.slot) {
        int expected = to;
        __atomic_compare_exchange_n(e.slot, &expected, moved, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
      }
      fd_guard_moved(to, moved);
    } else if (moved >= 0) {
      sys_close(moved);
    }
    set_registered(to, false);  // the program's dup2 closes the collector's copy at `to`
  }
  unlock_entry(e);
  errno = saved_errno;
}

int fd_close_range_skipping_owned(unsigned lo, unsigned hi, int flags) {
  unsigned from = lo;
  for (int fd = kOwnedFdBase; fd < kOwnedFdBase + kOwnedFdSpan && from <= hi; ++fd) {
    if (unsigned(fd) < from) continue;
    if (unsigned(fd) > hi) break;
    if (!fd_owned(fd)) continue;
    if (unsigned(fd) > from && syscall(SYS_close_range, from, unsigned(fd) - 1, flags) != 0) return -1;
    from = unsigned(fd) + 1;
  }
  if (from > hi || from < lo) return 0;
  return syscall(SYS_close_range, from, hi, flags) == 0 ? 0 : -1;
}

}  // namespace erkit::collector
