#include "collector/task_proc.h"

#include <dirent.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace erkit::collector {
namespace {

// Parses an unsigned decimal or 0x-prefixed hex number at *p, advancing it; skips leading
// blanks. Returns false if no digit follows.
bool parse_number(const char** p, const char* end, uint64_t* out) {
  const char* s = *p;
  while (s < end && (*s == ' ' || *s == '\t')) ++s;
  uint64_t v = 0;
  const char* start = s;
  if (s + 1 < end && s[0] == '0' && s[1] == 'x') {
    s += 2;
    start = s;
    for (; s < end; ++s) {
      char c = *s;
      int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) break;
      v = v * 16 + uint64_t(d);
    }
  } else {
    for (; s < end && *s >= '0' && *s <= '9'; ++s) v = v * 10 + uint64_t(*s - '0');
  }
  if (s == start) return false;
  *p = s;
  *out = v;
  return true;
}

ssize_t read_at0(int fd, char* buf, size_t cap) {
  if (fd < 0) return -1;
  ssize_t n = pread(fd, buf, cap - 1, 0);
  if (n <= 0) return -1;
  buf[n] = 0;
  return n;
}

void put_dec(char* out, uint32_t v) {
  char tmp[12];
  int n = 0;
  do {
    tmp[n++] = char('0' + v % 10);
    v /= 10;
  } while (v);
  for (int i = 0; i < n; ++i) out[i] = tmp[n - 1 - i];
  out[n] = 0;
}

}  // namespace

int open_task_file(uint32_t tid, const char* name) {
  char path[64] = "/proc/self/task/";
  size_t len = strlen(path);
  put_dec(path + len, tid);
  len = strlen(path);
  if (len + 1 + strlen(name) + 1 > sizeof path) return -1;
  path[len++] = '/';
  strcpy(path + len, name);
  return open(path, O_RDONLY | O_CLOEXEC);
}

bool read_schedstat(int fd, SchedStat* out) {
  char buf[128];
  ssize_t n = read_at0(fd, buf, sizeof buf);
  if (n <= 0) return false;
  const char* p = buf;
  const char* end = buf + n;
  // Exactly three numbers and a newline: anything else is not a schedstat file (the
  // descriptor may have been closed and its number reused by the program).
  if (!parse_number(&p, end, &out->exec_ns) || !parse_number(&p, end, &out->delay_ns) ||
      !parse_number(&p, end, &out->pcount))
    return false;
  return p < end && *p == '\n';
}

bool read_syscall(int fd, SyscallState* out) {
  char buf[256];
  ssize_t n = read_at0(fd, buf, sizeof buf);
  if (n <= 0) return false;
  if (n >= 7 && memcmp(buf, "running", 7) == 0) {
    out->running = true;
    out->nr = 0;
    out->sp = out->pc = 0;
    return true;
  }
  const char* p = buf;
  const char* end = buf + n;
  bool negative = *p == '-';
  if (negative) ++p;
  uint64_t nr = 0;
  if (!parse_number(&p, end, &nr)) return false;
  // "nr arg1..arg6 sp pc" in a system call, "-1 sp pc" outside one: sp and pc are the last two.
  uint64_t fields[8];
  int count = 0;
  uint64_t v = 0;
  while (count < 8 && parse_number(&p, end, &v)) fields[count++] = v;
  if (count < 2) return false;
  out->running = false;
  out->nr = negative ? -int64_t(nr) : int64_t(nr);
  out->sp = fields[count - 2];
  out->pc = fields[count - 1];
  return true;
}

namespace {
// The fields of /proc/self/task/<tid>/stat after "tid (comm) ": field 3 (the state) first.
// comm may contain spaces and parentheses; the last ')' ends it.
ssize_t read_stat_fields(uint32_t tid, char* buf, size_t cap, const char** fields) {
  int fd = open_task_file(tid, "stat");
  if (fd < 0) return -1;
  ssize_t n = read_at0(fd, buf, cap);
  close(fd);
  if (n <= 0) return -1;
  const char* close_paren = nullptr;
  for (ssize_t i = 0; i < n; ++i)
    if (buf[i] == ')') close_paren = buf + i;
  if (!close_paren || close_paren + 2 >= buf + n) return -1;
  *fields = close_paren + 2;
  return n - (*fields - buf);
}
}  // namespace

char read_task_state(uint32_t tid) {
  char buf[1024];
  const char* f = nullptr;
  return read_stat_fields(tid, buf, sizeof buf, &f) > 0 ? f[0] : 0;
}

namespace {
// Fields first..first+count-1 of /proc/self/task/<tid>/stat (numbered as in proc(5), >= 4).
bool read_stat_numbers(uint32_t tid, int first, int count, uint64_t* out) {
  char buf[1024];
  const char* f = nullptr;
  ssize_t n = read_stat_fields(tid, buf, sizeof buf, &f);
  if (n <= 0) return false;
  const char* end = f + n;
  const char* p = f + 1;  // after field 3, the state letter
  uint64_t v = 0;
  for (int field = 4; field < first + count; ++field) {
    while (p < end && *p == ' ') ++p;
    if (p < end && *p == '-') ++p;
    if (!parse_number(&p, end, field >= first ? &out[field - first] : &v)) return false;
  }
  return true;
}
}  // namespace

bool read_task_times(uint32_t tid, uint64_t* utime, uint64_t* stime) {
  uint64_t v[2];
  if (!read_stat_numbers(tid, 14, 2, v)) return false;  // utime, stime
  *utime = v[0];
  *stime = v[1];
  return true;
}

bool read_task_majflt(uint32_t tid, uint64_t* majflt) { return read_stat_numbers(tid, 12, 1, majflt); }

bool read_task_sigblk(uint32_t tid, uint64_t* mask) {
  int fd = open_task_file(tid, "status");
  if (fd < 0) return false;
  char buf[2048];
  ssize_t n = read_at0(fd, buf, sizeof buf);
  close(fd);
  if (n <= 0) return false;
  const char* hit = strstr(buf, "\nSigBlk:");
  if (!hit) return false;
  const char* p = hit + 8;
  const char* end = buf + n;
  while (p < end && (*p == ' ' || *p == '\t')) ++p;
  uint64_t v = 0;
  for (; p < end; ++p) {
    char c = *p;
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (d < 0) break;
    v = v * 16 + uint64_t(d);
  }
  *mask = v;
  return true;
}

bool for_each_task(void (*fn)(uint32_t tid, void* arg), void* arg) {
  int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  alignas(8) char buf[4096];
  long n;
  while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
    for (long off = 0; off < n;) {
      auto* d = reinterpret_cast<dirent64*>(buf + off);
      off += d->d_reclen;
      uint32_t tid = 0;
      const char* c = d->d_name;
      for (; *c >= '0' && *c <= '9'; ++c) tid = tid * 10 + uint32_t(*c - '0');
      if (tid > 0 && *c == 0) fn(tid, arg);
    }
  }
  close(fd);
  return n == 0;
}

namespace {
constexpr int kMaxEmulatorThreads = 8;
uint32_t g_emulator_tids[kMaxEmulatorThreads];
int g_emulator_count = 0;

struct NoteContext {
  uint32_t self;
};

void note_one(uint32_t tid, void* arg) {
  if (tid != static_cast<NoteContext*>(arg)->self && g_emulator_count < kMaxEmulatorThreads)
    g_emulator_tids[g_emulator_count++] = tid;
}
}  // namespace

void note_emulator_threads(uint32_t self) {
  g_emulator_count = 0;
  NoteContext ctx{self};
  for_each_task(note_one, &ctx);
}

bool is_emulator_thread(uint32_t tid) {
  for (int i = 0; i < g_emulator_count; ++i)
    if (g_emulator_tids[i] == tid) return true;
  return false;
}

}  // namespace erkit::collector
