#include "collect/outside/overview.h"

#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

namespace erkit::collect::outside {
namespace {

bool read_text(const std::string& path, char* buf, size_t cap) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  size_t used = 0;
  ssize_t n;
  while (used + 1 < cap && (n = read(fd, buf + used, cap - 1 - used)) > 0) used += size_t(n);
  close(fd);
  buf[used] = 0;
  return used > 0;
}

}  // namespace

std::optional<ProcessStat> parse_process_stat(const char* text) {
  const char* close_paren = std::strrchr(text, ')');  // the command name may hold ')' and spaces
  if (!close_paren || close_paren[1] != ' ' || !close_paren[2]) return std::nullopt;
  ProcessStat st;
  // Fields from 4 on (proc(5)): 10 minflt, 12 majflt, 14 utime, 15 stime, 20 num_threads.
  const char* p = close_paren + 3;
  for (int field = 4; field <= 20; ++field) {
    while (*p == ' ') ++p;
    if (*p == '-') ++p;
    if (*p < '0' || *p > '9') return std::nullopt;
    char* end = nullptr;
    uint64_t v = std::strtoull(p, &end, 10);
    p = end;
    if (field == 10) st.minflt = v;
    if (field == 12) st.majflt = v;
    if (field == 14) st.utime = v;
    if (field == 15) st.stime = v;
    if (field == 20) st.num_threads = v;
  }
  return st;
}

std::optional<int64_t> proc_field(const char* text, const char* key) {
  size_t kl = std::strlen(key);
  for (const char* p = text; *p;) {
    if (std::strncmp(p, key, kl) == 0 && p[kl] == ':') {
      const char* v = p + kl + 1;
      while (*v == ' ' || *v == '\t') ++v;
      if (*v < '0' || *v > '9') return std::nullopt;
      return int64_t(std::strtoll(v, nullptr, 10));
    }
    const char* nl = std::strchr(p, '\n');
    if (!nl) break;
    p = nl + 1;
  }
  return std::nullopt;
}

bool OverviewReader::read(format::OverviewSampleRecord* r) {
  const std::string base = "/proc/" + std::to_string(pid_) + "/";
  char buf[4096];
  if (!read_text(base + "stat", buf, sizeof buf)) return false;
  auto st = parse_process_stat(buf);
  if (!st) return false;
  r->nthreads = uint32_t(st->num_threads);  // no collector thread to leave out
  r->minflt = int64_t(st->minflt);
  r->majflt = int64_t(st->majflt);
  // CPU time: the process's clock (every thread, ended ones included, in ns), split into user
  // and system by the ticks' ratio, as the kernel splits getrusage()'s (cputime_adjust).
  uint64_t cpu_ns = 0;
  clockid_t clk;
  timespec ts;
  if (clock_getcpuclockid(pid_, &clk) == 0 && clock_gettime(clk, &ts) == 0)
    cpu_ns = uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
  else
    cpu_ns = (st->utime + st->stime) * (1000000000ull / uint64_t(sysconf(_SC_CLK_TCK)));
  const uint64_t ticks = st->utime + st->stime;
  if (ticks == 0 || st->stime == 0) r->utime_ns = int64_t(cpu_ns), r->stime_ns = 0;
  else if (st->utime == 0) r->utime_ns = 0, r->stime_ns = int64_t(cpu_ns);
  else {
    r->stime_ns = int64_t(static_cast<unsigned __int128>(cpu_ns) * st->stime / ticks);
    r->utime_ns = int64_t(cpu_ns) - r->stime_ns;
  }
  r->rss_kb = r->maxrss_kb = -1;
  if (read_text(base + "statm", buf, sizeof buf)) {
    const char* p = std::strchr(buf, ' ');
    if (p) r->rss_kb = std::strtoll(p + 1, nullptr, 10) * (sysconf(_SC_PAGESIZE) / 1024);
  }
  if (read_text(base + "status", buf, sizeof buf))
    if (auto hwm = proc_field(buf, "VmHWM")) r->maxrss_kb = *hwm;
  // Bytes moved by read/write-like calls (rchar/wchar) and the blocks of getrusage (bytes / 512).
  r->read_bytes = r->write_bytes = -1;
  r->inblock = r->oublock = 0;
  if (read_text(base + "io", buf, sizeof buf)) {
    r->read_bytes = proc_field(buf, "rchar").value_or(-1);
    r->write_bytes = proc_field(buf, "wchar").value_or(-1);
    r->inblock = proc_field(buf, "read_bytes").value_or(0) / 512;
    r->oublock = (proc_field(buf, "write_bytes").value_or(0) - proc_field(buf, "cancelled_write_bytes").value_or(0)) / 512;
  }
  // Context switches per thread (status of each task).
  std::set<uint32_t> live;
  if (DIR* d = opendir((base + "task").c_str())) {
    while (dirent* e = readdir(d)) {
      char* end = nullptr;
      unsigned long tid = std::strtoul(e->d_name, &end, 10);
      if (tid == 0 || !end || *end) continue;
      if (!read_text(base + "task/" + e->d_name + "/status", buf, sizeof buf)) continue;
      live.insert(uint32_t(tid));
      switches_[uint32_t(tid)] = {proc_field(buf, "voluntary_ctxt_switches").value_or(0),
                                  proc_field(buf, "nonvoluntary_ctxt_switches").value_or(0)};
    }
    closedir(d);
  }
  r->nvcsw = ended_nvcsw_;
  r->nivcsw = ended_nivcsw_;
  for (auto it = switches_.begin(); it != switches_.end();) {
    if (!live.count(it->first)) {  // ended: its last counts seen stay in the total
      ended_nvcsw_ += it->second.first;
      ended_nivcsw_ += it->second.second;
      r->nvcsw += it->second.first;
      r->nivcsw += it->second.second;
      it = switches_.erase(it);
    } else {
      r->nvcsw += it->second.first;
      r->nivcsw += it->second.second;
      ++it;
    }
  }
  std::memset(r->label, 0, sizeof r->label);
  return true;
}

}  // namespace erkit::collect::outside
