#include "collector/dynamic_code.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "collector/runtime.h"
#include "collector/text_line.h"
#include "format/experiment_format.h"
#include "format/jit_files.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace {

int g_lock = 0;
int g_dyntext_fd = -1;
const char* g_dyntext_dir = nullptr;  // the experiment g_dyntext_fd belongs to

void lock() {
  while (__atomic_exchange_n(&g_lock, 1, __ATOMIC_ACQUIRE)) sched_yield();
}
void unlock() { __atomic_store_n(&g_lock, 0, __ATOMIC_RELEASE); }

int open_in_experiment(const char* name, int flags) {
  char path[4200];
  size_t dl = strlen(g_rt.config.experiment_dir);
  if (dl + strlen(name) + 2 > sizeof path) return -1;
  memcpy(path, g_rt.config.experiment_dir, dl);
  path[dl] = '/';
  strcpy(path + dl + 1, name);
  return open(path, flags | O_CLOEXEC | O_NOFOLLOW, experiment_file_mode(g_rt.config.experiment_dir));
}

}  // namespace

void dynamic_function_load(const char* name, const char* alias, const char* source, const void* vaddr, int size,
                           int nlines, const DynLine* lines) {
  if (!g_rt.active || !vaddr || size < 0) return;
  if (nlines < 0 || !lines) nlines = 0;
  lock();
  // A forked child has its own experiment: reopen there.
  if (g_dyntext_fd >= 0 && g_dyntext_dir != g_rt.config.experiment_dir) g_dyntext_fd = -1;
  if (g_dyntext_fd < 0) {
    g_dyntext_fd = open_in_experiment(format::kDyntextFile, O_WRONLY | O_CREAT | O_APPEND);
    g_dyntext_dir = g_rt.config.experiment_dir;
  }
  uint64_t t = now_ns();
  format::DyntextHeader h{format::kDyntextMagic, uint32_t(size), reinterpret_cast<uint64_t>(vaddr), t,
                          uint32_t(nlines), uint32_t(size)};
  static const char zeros[8] = {};
  static_assert(sizeof(DynLine) == sizeof(format::DyntextLine));
  iovec iov[4] = {{&h, sizeof h},
                  {const_cast<void*>(vaddr), size_t(size)},
                  {const_cast<char*>(zeros), (8 - size_t(size) % 8) % 8},
                  {const_cast<DynLine*>(lines), sizeof(DynLine) * size_t(nlines)}};
  size_t total = 0;
  for (const auto& v : iov) total += v.iov_len;
  // One writev keeps the entry contiguous; unreadable code makes it fail (EFAULT), and the
  // entry is then written without the code.
  bool written = g_dyntext_fd >= 0 && writev(g_dyntext_fd, iov, 4) == ssize_t(total);
  if (!written && g_dyntext_fd >= 0) {
    h.code_size = 0;
    iov[1].iov_len = iov[2].iov_len = 0;
    total = sizeof h + iov[3].iov_len;
    written = writev(g_dyntext_fd, iov, 4) == ssize_t(total);
    log_warning("func_load", "the code of a dynamic function could not be read: no disassembly for it");
  }
  TextLine line;
  line.event(t, logev::kFunctionLoad).kv_quoted(logkey::kName, name ? name : "");
  line.kv_quoted(logkey::kAlias, alias ? alias : "");
  line.kv_quoted(logkey::kSource, source ? source : "").kv_hex(logkey::kVaddr, reinterpret_cast<uint64_t>(vaddr));
  line.kv_dec(logkey::kSize, size).kv_dec(logkey::kLines, nlines);
  line.write_to(g_rt.map_fd);
  unlock();
}

void dynamic_function_unload(const void* vaddr) {
  if (!g_rt.active) return;
  TextLine line;
  line.event(now_ns(), logev::kFunctionUnload).kv_hex(logkey::kVaddr, reinterpret_cast<uint64_t>(vaddr));
  line.write_to(g_rt.map_fd);
}

namespace {

// Copies a JIT's file into the experiment. /tmp is shared: anyone may have put a file at
// /tmp/perf-<pid>.map before this process got its pid (a symbolic link to a secret of the user
// collect runs as, a FIFO that blocks, a huge or sparse file, a hard link). Only what this
// program could have written itself is copied. whole_lines: cut a text file at a line end.
void copy_jit_file(const char* path, const char* out_name, uint64_t max_bytes, bool whole_lines,
                   const char* refused_key, const char* truncated_key) {
  int in = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  if (in < 0 && errno == ENOENT) return;
  struct stat st;
  const char* why = nullptr;
  if (in < 0) why = errno == ELOOP ? "is a symbolic link" : "cannot be opened";
  else if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) why = "is not a regular file";
  else if (st.st_uid != geteuid()) why = "belongs to another user";
  else if (st.st_nlink != 1) why = "has other names (hard links)";
  if (why) {
    if (in >= 0) close(in);
    TextLine text;
    text.str(path).str(" ").str(why).str(": not copied into the experiment");
    log_warning(refused_key, text.data());
    return;
  }
  int out = open_in_experiment(out_name, O_WRONLY | O_CREAT | O_TRUNC);
  char buf[16384];
  ssize_t n;
  uint64_t copied = 0, last_line_end = 0;
  bool truncated = false;
  while (out >= 0 && (n = read(in, buf, sizeof buf)) > 0) {
    if (copied + uint64_t(n) > max_bytes) {
      truncated = true;
      break;
    }
    if (write(out, buf, size_t(n)) != n) break;
    for (ssize_t i = 0; whole_lines && i < n; ++i)
      if (buf[i] == '\n') last_line_end = copied + uint64_t(i) + 1;
    copied += uint64_t(n);
  }
  if (out >= 0 && truncated) {
    TextLine text;
    if (whole_lines && ftruncate(out, off_t(last_line_end)) != 0) text.str("(could not cut at a line end) ");
    text.str(path).str(" is larger than ").udec(max_bytes >> 20);
    text.str(whole_lines ? " MiB: only its first lines were copied" : " MiB: only its first records were copied");
    log_warning(truncated_key, text.data());
  }
  if (out >= 0) close(out);
  close(in);
}

// The jitdump file a JIT maps while it runs (perf's convention: jit-<pid>.dump, mapped so that
// profilers find it), from /proc/self/maps; false if none is mapped.
bool mapped_jitdump(char* path, size_t cap) {
  TextLine want;
  want.str("/jit-").udec(uint64_t(getpid())).str(".dump");
  const size_t wl = want.size();
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[8192];
  char line[4352];
  size_t ll = 0;
  bool found = false, overlong = false;
  ssize_t n;
  while (!found && (n = read(fd, buf, sizeof buf)) > 0) {
    for (ssize_t i = 0; i < n && !found; ++i) {
      if (buf[i] != '\n') {
        if (ll < sizeof line - 1) line[ll++] = buf[i];
        else overlong = true;
        continue;
      }
      line[ll] = 0;
      const char* slash = strchr(line, '/');  // the path column
      if (!overlong && slash && ll >= wl && memcmp(line + ll - wl, want.data(), wl) == 0 &&
          size_t(line + ll - slash) < cap) {
        memcpy(path, slash, size_t(line + ll - slash) + 1);
        found = true;
      }
      ll = 0;
      overlong = false;
    }
  }
  close(fd);
  return found;
}

}  // namespace

void dynamic_code_fini() {
  if (!g_rt.active) return;
  TextLine path;
  path.str("/tmp/perf-").udec(uint64_t(getpid())).str(".map").chr(0);
  copy_jit_file(path.data(), format::kJitMapFile, format::kJitMapMaxBytes, true, "jit_map_refused",
                "jit_map_truncated");
  char dump[4096];
  if (mapped_jitdump(dump, sizeof dump))
    copy_jit_file(dump, format::kJitDumpFile, format::kJitDumpMaxBytes, false, "jitdump_refused",
                  "jitdump_truncated");
}

}  // namespace erkit::collector
