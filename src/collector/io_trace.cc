#include "collector/io_trace.h"

#include <string.h>
#include <unistd.h>

#include "collector/data_writer.h"
#include "collector/runtime.h"
#include "collector/text_line.h"
#include "collector/thread_state.h"
#include "collector/trace_common.h"
#include "format/experiment_format.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace {

using format::IoEventRecord;

// fd -> (generation << 32 | file id). An entry of an older generation (a parent experiment's,
// before a fork) counts as empty. 512 KiB of .bss, touched only where descriptors are used.
constexpr int kMaxFds = 65536;
uint64_t g_fd_ids[kMaxFds];
uint32_t g_generation = 0;  // atomic
uint32_t g_next_id = 0;     // atomic: last file id handed out

uint64_t entry(uint32_t id) { return (uint64_t(__atomic_load_n(&g_generation, __ATOMIC_RELAXED)) << 32) | id; }

bool current(uint64_t v) {
  return v && uint32_t(v >> 32) == __atomic_load_n(&g_generation, __ATOMIC_RELAXED);
}

// Describes a new file id in the log: "file id=N fd=F path=... how=...".
uint32_t new_file(int fd, const char* path, const char* how) {
  uint32_t id = __atomic_add_fetch(&g_next_id, 1, __ATOMIC_RELAXED);
  TextLine line;
  line.event(now_ns(), logev::kFile).kv_dec(logkey::kId, id).kv_dec(logkey::kFd, fd);
  line.kv_quoted(logkey::kPath, path ? path : "");
  line.kv(logkey::kHow, how).write_to(g_rt.log_fd);
  return id;
}

void install(int fd, uint32_t id) {
  if (fd >= 0 && fd < kMaxFds) __atomic_store_n(&g_fd_ids[fd], entry(id), __ATOMIC_RELAXED);
}

void write_event(const TraceCall& t, uint32_t op, int fd, int64_t bytes, uint32_t file_id) {
  uint64_t end = t.end_ns;
  TraceWriter w = trace_enter();
  if (!w.ts) return;
  uint64_t stack = trace_stack(w.ts, t);
  auto* rec = static_cast<IoEventRecord*>(
      record_reserve(w.ts, format::DataKind::kIo, format::kRecIoEvent, sizeof(IoEventRecord)));
  if (rec) {
    rec->tid = w.ts->tid;
    rec->tstamp_ns = t.start_ns;
    rec->stack_id = stack;
    rec->op = op;
    rec->fd = fd;
    rec->duration_ns = end > t.start_ns ? end - t.start_ns : 0;
    rec->bytes = bytes;
    rec->file_id = file_id;
    rec->reserved = 0;
    record_commit(rec, format::kRecIoEvent, sizeof(IoEventRecord));
  }
  record_release(w.ts);
  trace_exit(w);
}

}  // namespace

void io_trace_init() {
  if (!g_rt.config.io_trace) return;
  __atomic_add_fetch(&g_generation, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&g_trace_on[kTraceIo], 1, __ATOMIC_RELEASE);
}

namespace {

// Names fd after what it refers to now (/proc/self/fd), under a new file id, and installs it
// unless `only_if_unnamed` and another thread named it first. 0 if fd is not open.
uint32_t name_fd(int fd, const char* how, bool only_if_unnamed) {
  char link[32] = "/proc/self/fd/";
  int n = 14;
  char digits[12];
  int d = 0;
  for (unsigned u = unsigned(fd); d == 0 || u; u /= 10) digits[d++] = char('0' + u % 10);
  while (d) link[n++] = digits[--d];
  link[n] = 0;
  char path[1024];
  ssize_t len = readlink(link, path, sizeof path - 1);
  if (len < 0) return 0;
  path[len] = 0;
  uint32_t id = new_file(fd, path, how);
  if (!only_if_unnamed) {
    install(fd, id);
    return id;
  }
  uint64_t expected = __atomic_load_n(&g_fd_ids[fd], __ATOMIC_RELAXED);
  if (current(expected)) return uint32_t(expected);
  if (!__atomic_compare_exchange_n(&g_fd_ids[fd], &expected, entry(id), false, __ATOMIC_RELAXED,
                                   __ATOMIC_RELAXED) &&
      current(expected))
    return uint32_t(expected);  // another thread named it first
  return id;
}

}  // namespace

uint32_t io_file_of(int fd) {
  if (fd < 0 || fd >= kMaxFds) return 0;
  uint64_t v = __atomic_load_n(&g_fd_ids[fd], __ATOMIC_RELAXED);
  if (current(v)) return uint32_t(v);
  // A descriptor the tracer has not seen opened (inherited, stdin/stdout/stderr).
  return name_fd(fd, fd <= 2 ? "std" : "inherited", true);
}

int io_fd_of(FILE* f) { return f ? fileno(f) : -1; }

int64_t io_strlen(const char* s) { return s ? int64_t(strlen(s)) : 0; }

void io_opened(const TraceCall& t, int fd, const char* path) {
  uint32_t id = new_file(fd, path, fd >= 0 ? "open" : "failed");
  install(fd, id);
  write_event(t, format::kIoOpen, fd, fd >= 0 ? 0 : -1, id);
}

void io_fopened(const TraceCall& t, FILE* f, const char* path) {
  int fd = io_fd_of(f);
  uint32_t id = new_file(fd, path, fd >= 0 ? "open" : "failed");
  install(fd, id);
  write_event(t, format::kIoOpen, fd, fd >= 0 ? 0 : -1, id);
}

void io_closed(const TraceCall& t, int fd, uint32_t file_id, int rc) {
  write_event(t, format::kIoClose, fd, rc == 0 ? 0 : -1, file_id);
  // Linux frees the descriptor even when close reports an error. Another thread may already
  // have reused it: clear the entry only if it still names the closed file.
  if (fd >= 0 && fd < kMaxFds && file_id) {
    uint64_t expected = entry(file_id);
    __atomic_compare_exchange_n(&g_fd_ids[fd], &expected, 0, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  }
}

void io_event(const TraceCall& t, uint32_t op, int fd, int64_t bytes) {
  write_event(t, op, fd, bytes, io_file_of(fd));
}

void io_dup(const TraceCall& t, int old_fd, int new_fd) {
  uint32_t id = io_file_of(old_fd);
  if (new_fd >= 0) install(new_fd, id);
  write_event(t, format::kIoDup, new_fd, new_fd >= 0 ? 0 : -1, id);
}

void io_pipe(const TraceCall& t, const int* fds, int rc) {
  if (rc != 0) return write_event(t, format::kIoPipe, -1, -1, 0);
  // Each end gets its own id, named by the kernel ("pipe:[1234]").
  if (fds[1] >= 0 && fds[1] < kMaxFds) name_fd(fds[1], "pipe", false);
  uint32_t id = fds[0] >= 0 && fds[0] < kMaxFds ? name_fd(fds[0], "pipe", false) : 0;
  write_event(t, format::kIoPipe, fds[0], 0, id);
}

}  // namespace erkit::collector
