#include "collect/outside/proc_task.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace erkit::collect::outside {
namespace {

bool read_file(const std::string& path, char* buf, size_t cap) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ssize_t n = read(fd, buf, cap - 1);
  close(fd);
  if (n <= 0) return false;
  buf[n] = 0;
  return true;
}

// Unsigned decimal or 0x-hex number at *p after blanks; advances *p.
bool number(const char** p, uint64_t* out) {
  const char* s = *p;
  while (*s == ' ' || *s == '\t') ++s;
  char* end = nullptr;
  int base = s[0] == '0' && s[1] == 'x' ? 16 : 10;
  if (*s < '0' || *s > '9') return false;
  *out = std::strtoull(s, &end, base);
  if (end == s) return false;
  *p = end;
  return true;
}

std::string task_file(pid_t pid, uint32_t tid, const char* name) {
  return "/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/" + name;
}

}  // namespace

std::optional<SchedStat> parse_schedstat(const char* text) {
  SchedStat st;
  const char* p = text;
  if (!number(&p, &st.exec_ns) || !number(&p, &st.delay_ns) || !number(&p, &st.pcount)) return std::nullopt;
  return st;
}

std::optional<SyscallState> parse_syscall(const char* text) {
  SyscallState sc;
  if (std::strncmp(text, "running", 7) == 0) {
    sc.running = true;
    return sc;
  }
  const char* p = text;
  bool negative = *p == '-';
  if (negative) ++p;
  uint64_t nr = 0;
  if (!number(&p, &nr)) return std::nullopt;
  uint64_t fields[8];
  int count = 0;
  uint64_t v = 0;
  while (count < 8 && number(&p, &v)) fields[count++] = v;
  if (count < 2) return std::nullopt;
  sc.nr = negative ? -int64_t(nr) : int64_t(nr);
  sc.sp = fields[count - 2];
  sc.pc = fields[count - 1];
  return sc;
}

std::optional<TaskStat> parse_stat(const char* text) {
  const char* close_paren = std::strrchr(text, ')');
  if (!close_paren || close_paren[1] != ' ' || !close_paren[2]) return std::nullopt;
  TaskStat st;
  st.state = close_paren[2];
  // Fields from 4 on (proc(5)): 10 minflt .. 12 majflt, 14 utime, 15 stime, 22 starttime.
  const char* p = close_paren + 3;
  uint64_t v = 0;
  for (int field = 4; field <= 22; ++field) {
    while (*p == ' ') ++p;
    if (*p == '-') ++p;
    if (!number(&p, &v)) return std::nullopt;
    if (field == 12) st.majflt = v;
    if (field == 14) st.utime = v;
    if (field == 15) st.stime = v;
    if (field == 22) st.start_ticks = v;
  }
  return st;
}

ProcTask::ProcTask(pid_t pid) : pid_(pid) {
  // Two descriptors per thread, leaving collect 128 of its own.
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur > 256)
    max_kept_ = std::min<size_t>(1024, size_t(rl.rlim_cur - 128) / 2);
}

ProcTask::~ProcTask() {
  for (auto& [tid, k] : kept_)
    for (int fd : {k.schedstat, k.syscall})
      if (fd >= 0) close(fd);
}

bool ProcTask::read_kept(uint32_t tid, int Kept::*which, const char* name, char* buf, size_t cap) const {
  auto it = kept_.find(tid);
  if (it == kept_.end() && kept_.size() < max_kept_) it = kept_.emplace(tid, Kept{}).first;
  if (it == kept_.end()) return read_file(task_file(pid_, tid, name), buf, cap);  // no room: opened each time
  int& fd = it->second.*which;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (fd < 0) fd = open(task_file(pid_, tid, name).c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    ssize_t n = pread(fd, buf, cap - 1, 0);
    if (n > 0) {
      buf[n] = 0;
      return true;
    }
    close(fd);  // the thread ended (its tid may be a new thread's now): opened again once
    fd = -1;
  }
  return false;
}

std::vector<uint32_t> ProcTask::tids() const {
  std::vector<uint32_t> out;
  std::string dir = "/proc/" + std::to_string(pid_) + "/task";
  DIR* d = opendir(dir.c_str());
  if (!d) return out;
  while (dirent* e = readdir(d)) {
    char* end = nullptr;
    unsigned long tid = std::strtoul(e->d_name, &end, 10);
    if (tid > 0 && end && *end == 0) out.push_back(uint32_t(tid));
  }
  closedir(d);
  // The files of threads no longer listed are closed.
  for (auto it = kept_.begin(); it != kept_.end();) {
    if (std::find(out.begin(), out.end(), it->first) != out.end()) {
      ++it;
      continue;
    }
    for (int fd : {it->second.schedstat, it->second.syscall})
      if (fd >= 0) close(fd);
    it = kept_.erase(it);
  }
  return out;
}


std::optional<SchedStat> ProcTask::schedstat(uint32_t tid) const {
  char buf[128];
  if (!read_kept(tid, &Kept::schedstat, "schedstat", buf, sizeof buf)) return std::nullopt;
  return parse_schedstat(buf);
}

std::optional<SyscallState> ProcTask::syscall(uint32_t tid) const {
  char buf[256];
  if (!read_kept(tid, &Kept::syscall, "syscall", buf, sizeof buf)) return std::nullopt;
  return parse_syscall(buf);
}

std::optional<TaskStat> ProcTask::stat(uint32_t tid) const {
  char buf[1024];
  if (!read_file(task_file(pid_, tid, "stat"), buf, sizeof buf)) return std::nullopt;
  return parse_stat(buf);
}

std::optional<bool> ProcTask::page_present(uint64_t addr) const {
  std::string path = "/proc/" + std::to_string(pid_) + "/pagemap";
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  uint64_t entry = 0;
  long page = sysconf(_SC_PAGESIZE);
  ssize_t n = pread(fd, &entry, sizeof entry, off_t(addr / uint64_t(page) * 8));
  close(fd);
  if (n != sizeof entry) return std::nullopt;
  return (entry >> 63) & 1;
}

}  // namespace erkit::collect::outside
