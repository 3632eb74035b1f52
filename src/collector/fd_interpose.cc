// The program's calls that close or replace descriptors by number, kept off the collector's
// own descriptors (fd_owned.h): close() of one fails with EBADF as it would without erkit,
// close_range()/closefrom() skip them, dup2()/dup3() onto one first move the collector's file
// elsewhere. close, dup2 and dup3 are also I/O-traced functions: libcollector.so has their
// wrappers in interposers.def (with the same checks first); libcollector-clock.so, which has no
// tracing wrapper, defines them here.
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "collector/fd_owned.h"
#include "collector/real_functions.h"

using namespace erkit::collector;

extern "C" __attribute__((visibility("default"))) int close_range(unsigned lo, unsigned hi, int flags) noexcept {
  if (lo > hi) {
    errno = EINVAL;
    return -1;
  }
  return fd_close_range_skipping_owned(lo, hi, flags);
}

extern "C" __attribute__((visibility("default"))) void closefrom(int lo) noexcept {
  if (lo < 0) lo = 0;
  if (fd_close_range_skipping_owned(unsigned(lo), ~0u, 0) == 0 || errno != ENOSYS) return;
  // No close_range in this kernel: close what the limit allows, one by one.
  struct rlimit rl;
  long top = syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, nullptr, &rl) == 0 ? long(rl.rlim_cur) : 1024;
  if (top > kOwnedFdBase + kOwnedFdSpan) top = kOwnedFdBase + kOwnedFdSpan;
  for (long fd = lo; fd < top; ++fd)
    if (!fd_owned(int(fd))) syscall(SYS_close, int(fd));
}

#ifdef ERKIT_COLLECTOR_NO_TRACERS
extern "C" __attribute__((visibility("default"))) int close(int fd) {
  if (fd_owned(fd)) {
    errno = EBADF;
    return -1;
  }
  // libc's close (a cancellation point) once resolved; the system call before that.
  if (auto real = __atomic_load_n(&g_real.close, __ATOMIC_ACQUIRE)) return real(fd);
  return int(syscall(SYS_close, fd));
}

extern "C" __attribute__((visibility("default"))) int dup2(int fd, int to) noexcept {
  if (fd != to) fd_make_room(to);
  // dup2 is dup3 without flags, except that equal numbers are checked and returned.
  if (fd == to) {
    if (fd_owned(fd) || syscall(SYS_fcntl, fd, F_GETFD) == -1) {
      errno = EBADF;
      return -1;
    }
    return fd;
  }
  return int(syscall(SYS_dup3, fd, to, 0));
}

extern "C" __attribute__((visibility("default"))) int dup3(int fd, int to, int flags) noexcept {
  if (fd != to) fd_make_room(to);
  return int(syscall(SYS_dup3, fd, to, flags));
}
#endif
