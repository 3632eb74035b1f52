#include "reader/lifecycle.h"

#include <fmt/format.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "format/experiment_format.h"
#include "format/jit_files.h"
#include "reader/jitdump.h"
#include "reader/text_file.h"

namespace erkit::reader {
namespace {

// The whole of a binary file, if it is a regular file of at most max_bytes (a 100 GiB sparse
// file in a damaged experiment would otherwise end in std::bad_alloc).
std::vector<char> read_all(const std::string& path, uint64_t max_bytes, bool* too_big) {
  struct stat sb;
  *too_big = false;
  if (stat(path.c_str(), &sb) != 0 || !S_ISREG(sb.st_mode)) return {};
  if (uint64_t(sb.st_size) > max_bytes) {
    *too_big = true;
    return {};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// "START SIZE name" per line, hex without 0x (the perf convention for JIT symbol files).
void read_jit_map(Experiment& e, const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string start, size;
    if (!(ls >> start >> size)) continue;
    std::string name;
    std::getline(ls, name);
    size_t b = name.find_first_not_of(' ');
    name = b == std::string::npos ? "" : name.substr(b);
    char* end1 = nullptr;
    char* end2 = nullptr;
    uint64_t vaddr = std::strtoull(start.c_str(), &end1, 16);
    uint64_t sz = std::strtoull(size.c_str(), &end2, 16);
    if (*end1 || *end2 || !sz || name.empty()) continue;
    DynamicFunction f;
    f.name = name;
    f.vaddr = vaddr;
    f.size = sz;
    f.from_jit_map = true;
    e.dynamic_functions.push_back(std::move(f));
  }
}

// Up to kJitMapMaxBytes of an open file (whole lines).
std::string read_bounded(int fd) {
  std::string text;
  char buf[65536];
  ssize_t n;
  while ((n = read(fd, buf, sizeof buf)) > 0) {
    if (text.size() + size_t(n) > format::kJitMapMaxBytes) {
      text.erase(text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1);
      break;
    }
    text.append(buf, size_t(n));
  }
  return text;
}

// The perf map a killed process left in /tmp, if it is what that process wrote: /tmp is
// shared, and the pid comes from the log (another user's experiment may name any pid). The
// same checks as the collector's (dynamic_code.cc): not a link, a regular file with one name,
// owned by the experiment's owner, written after the process started. "" if none.
std::string jit_map_left_in_tmp(const Experiment& e, uid_t owner) {
  std::string tmp = fmt::format("/tmp/perf-{}.map", e.log.pid);
  int fd = open(tmp.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return {};
  struct stat ts;
  std::string text;
  if (fstat(fd, &ts) == 0 && S_ISREG(ts.st_mode) && ts.st_uid == owner && ts.st_nlink == 1 &&
      int64_t(ts.st_mtim.tv_sec) * 1000000000ll + ts.st_mtim.tv_nsec >= e.log.realtime_start_ns)
    text = read_bounded(fd);
  close(fd);
  return text;
}

}  // namespace

uint32_t DynamicFunction::line_at(uint64_t offset) const {
  uint32_t line = 0;
  for (const auto& [off, l] : lines) {
    if (off > offset) break;
    line = l;
  }
  return line;
}

const DynamicFunction* Experiment::dynamic_at(uint64_t pc, uint64_t t) const {
  const DynamicFunction* best = nullptr;
  for (const auto& f : dynamic_functions) {
    if (pc < f.vaddr || pc - f.vaddr >= f.size) continue;
    if (f.load_ns <= t && t < f.unload_ns) return &f;
    if (!best) best = &f;
  }
  return best;
}

bool read_lifecycle_event(RunLog& l, const common::TextEvent& ev) {
  const std::string& n = ev.name;
  if (n == "descendant_of") {
    l.lineage = ev.get("lineage");
    l.origin_kind = ev.get("kind");
    l.parent_pid = ev.get_int("parent_pid").value_or(-1);
    if (l.target.empty()) l.target = ev.get("target");
    if (l.args.empty()) l.args = ev.get("args");
  } else if (n == "descendant") {
    DescendantEvent d;
    d.tstamp_ns = ev.tstamp_ns;
    d.kind = ev.get("kind");
    d.lineage = ev.get("lineage");
    d.pid = ev.get_int("pid").value_or(-1);
    d.followed = ev.get("followed") == "1";
    d.failed = ev.get("failed") == "1";
    d.target = ev.get("target");
    l.children.push_back(std::move(d));
  } else if (n == "exec_failed") {
    // The exec that ended this image ("exit how=exec") failed: the process went on. In a
    // descendant's own log it means the image never ran.
    if (l.collector_exit == "exec") l.collector_exit.clear();
    if (l.pid < 0) l.exec_failed = true;
  } else if (n == "pause") {
    l.recording_changes.emplace_back(ev.tstamp_ns, false);
  } else if (n == "resume") {
    l.recording_changes.emplace_back(ev.tstamp_ns, true);
  } else if (n == "limit_reached") {
    l.limit_reached = true;
    l.limit_reached_ns = ev.tstamp_ns;
  } else if (n == "stopped_after_exec") {
    l.stopped_after_exec = true;
  } else {
    return false;
  }
  return true;
}

bool read_dynamic_map_event(Experiment& e, const common::TextEvent& ev) {
  if (ev.name == "function_load") {
    DynamicFunction f;
    f.name = ev.get("name");
    f.alias = ev.get("alias");
    f.source = ev.get("source");
    f.vaddr = uint64_t(ev.get_int("vaddr").value_or(0));
    f.size = uint64_t(ev.get_int("size").value_or(0));
    f.load_ns = ev.tstamp_ns;
    if (f.name.empty()) f.name = fmt::format("<dynamic>@{:#x}", f.vaddr);
    e.dynamic_functions.push_back(std::move(f));
    return true;
  }
  if (ev.name == "function_unload") {
    uint64_t vaddr = uint64_t(ev.get_int("vaddr").value_or(0));
    for (auto& f : e.dynamic_functions)
      if (f.vaddr == vaddr && f.unload_ns == UINT64_MAX && f.load_ns <= ev.tstamp_ns) f.unload_ns = ev.tstamp_ns;
    return true;
  }
  return false;
}

void read_dynamic_code(Experiment& e) {
  bool too_big = false;
  std::vector<char> data = read_all(e.path + "/" + format::kDyntextFile, kMaxTextBytes, &too_big);
  if (too_big)
    e.problems.push_back({format::kDyntextFile, fmt::format("damaged: larger than {} MiB; not read", kMaxTextBytes >> 20)});
  size_t off = 0;
  while (off + sizeof(format::DyntextHeader) <= data.size()) {
    format::DyntextHeader h;
    std::memcpy(&h, data.data() + off, sizeof h);
    uint64_t code_bytes = (uint64_t(h.code_size) + 7) & ~uint64_t(7);
    uint64_t need = sizeof h + code_bytes + uint64_t(h.nlines) * sizeof(format::DyntextLine);
    if (h.magic != format::kDyntextMagic || off + need > data.size()) {
      e.problems.push_back({format::kDyntextFile, fmt::format("damaged entry at offset {}; the rest is skipped", off)});
      break;
    }
    const char* code = data.data() + off + sizeof h;
    const char* lines = code + code_bytes;
    for (auto& f : e.dynamic_functions) {
      if (f.from_jit_map || f.vaddr != h.vaddr || f.load_ns != h.tstamp_ns) continue;
      f.code.assign(code, code + h.code_size);
      for (uint32_t i = 0; i < h.nlines; ++i) {
        format::DyntextLine dl;
        std::memcpy(&dl, lines + i * sizeof dl, sizeof dl);
        f.lines.emplace_back(dl.offset, dl.line);
      }
      std::sort(f.lines.begin(), f.lines.end());
      break;
    }
    off += need;
  }
  // A JIT's jitdump file (names, code and lines of its compiled functions), as the collector
  // copied it; only a regular file of the experiment, never a link out of it.
  {
    std::string dump = e.path + "/" + format::kJitDumpFile;
    struct stat ds;
    if (lstat(dump.c_str(), &ds) == 0 && S_ISREG(ds.st_mode)) {
      bool big = false;
      std::vector<char> bytes = read_all(dump, format::kJitDumpMaxBytes, &big);
      if (big) e.problems.push_back({format::kJitDumpFile, "damaged: larger than the collector copies; not read"});
      read_jitdump(e, bytes, format::kJitDumpFile);
    }
  }
  // A JIT's own symbol file. After an abnormal end the collector had no chance to copy it: take
  // it from /tmp now if it was written after this process started (pids are reused). It is
  // saved into the experiment only by the experiment's owner (never by root into another
  // user's experiment), with the experiment's mode, through no link; otherwise read in place.
  std::string jit = e.path + "/" + format::kJitMapFile;
  struct stat st, dir;
  if (lstat(jit.c_str(), &st) != 0 && e.log.pid > 0 && e.log.collector_exit.empty() &&
      stat(e.path.c_str(), &dir) == 0) {
    std::string text = jit_map_left_in_tmp(e, dir.st_uid);
    if (!text.empty() && geteuid() == dir.st_uid) {
      int fd = open(jit.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, dir.st_mode & 0644);
      if (fd >= 0) {
        if (write(fd, text.data(), text.size()) != ssize_t(text.size())) unlink(jit.c_str());
        close(fd);
      }
    }
    read_jit_map(e, text);
    return;
  }
  // The experiment's own copy: a file the collector wrote, never a link out of it.
  int fd = open(jit.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) read_jit_map(e, read_bounded(fd));
  close(fd);
}

}  // namespace erkit::reader
