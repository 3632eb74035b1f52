#include "exporters/perf_script.h"

#include <cctype>
#include <cstdlib>
#include <sstream>

namespace erkit::exporters {
namespace {

std::vector<std::string> tokens(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  std::string t;
  while (in >> t) out.push_back(t);
  return out;
}

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

bool parse_hex(const std::string& s, uint64_t* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtoull(s.c_str(), &end, 16);
  return end && *end == '\0';
}

// "pid/tid" or "tid".
bool parse_ids(const std::string& s, int64_t* pid, int64_t* tid) {
  size_t slash = s.find('/');
  if (slash == std::string::npos) {
    if (!all_digits(s)) return false;
    *pid = *tid = std::atoll(s.c_str());
    return true;
  }
  std::string a = s.substr(0, slash), b = s.substr(slash + 1);
  if (!all_digits(a) || !all_digits(b)) return false;
  *pid = std::atoll(a.c_str());
  *tid = std::atoll(b.c_str());
  return true;
}

// "ip sym+off (dso)" or "ip (dso)" or "ip".
bool parse_frame(const std::string& text, PerfFrame* f) {
  auto t = tokens(text);
  if (t.empty() || !parse_hex(t[0], &f->ip)) return false;
  size_t close = text.rfind(')');
  size_t open = close == std::string::npos ? std::string::npos : text.rfind(" (", close);
  f->dso = open == std::string::npos ? "[unknown]" : text.substr(open + 2, close - open - 2);
  return true;
}

// "PERF_RECORD_MMAP2 pid/tid: [0xSTART(0xLEN) @ PGOFF ...]: prot path"
bool parse_mmap(const std::string& rest, PerfMmap* m) {
  size_t lb = rest.find('['), rb = rest.find("]:");
  if (lb == std::string::npos || rb == std::string::npos || rb < lb) return false;
  auto head = tokens(rest.substr(0, lb));
  if (head.size() >= 2) {
    int64_t tid;
    std::string ids = head[1];
    if (!ids.empty() && ids.back() == ':') ids.pop_back();
    parse_ids(ids, &m->pid, &tid);
  }
  auto in = tokens(rest.substr(lb + 1, rb - lb - 1));
  if (in.size() < 3 || in[1] != "@") return false;
  size_t paren = in[0].find('(');
  if (paren == std::string::npos) return false;
  std::string start = in[0].substr(0, paren), len = in[0].substr(paren + 1);
  if (!len.empty() && len.back() == ')') len.pop_back();
  auto strip0x = [](std::string s) { return s.rfind("0x", 0) == 0 ? s.substr(2) : s; };
  if (!parse_hex(strip0x(start), &m->start) || !parse_hex(strip0x(len), &m->len) ||
      !parse_hex(strip0x(in[2]), &m->pgoff))
    return false;
  std::string after = rest.substr(rb + 2);
  size_t b = after.find_first_not_of(' ');
  if (b == std::string::npos) return false;
  size_t sp = after.find(' ', b);
  if (sp == std::string::npos) return false;
  m->prot = after.substr(b, sp - b);
  m->path = after.substr(sp + 1);
  while (!m->path.empty() && std::isspace(static_cast<unsigned char>(m->path.back()))) m->path.pop_back();
  return true;
}

}  // namespace

bool parse_perf_time(const std::string& s_in, uint64_t* ns) {
  std::string s = s_in;
  if (!s.empty() && s.back() == ':') s.pop_back();
  size_t dot = s.find('.');
  std::string sec = s.substr(0, dot), frac = dot == std::string::npos ? "" : s.substr(dot + 1);
  if (!all_digits(sec) || (!frac.empty() && !all_digits(frac)) || frac.size() > 9) return false;
  frac.resize(9, '0');
  *ns = std::strtoull(sec.c_str(), nullptr, 10) * 1000000000ull + std::strtoull(frac.c_str(), nullptr, 10);
  return true;
}

PerfScript parse_perf_script(std::istream& in) {
  PerfScript out;
  std::string line;
  PerfSample* current = nullptr;
  auto unparsed = [&](const std::string& l) {
    if (out.unparsed_lines++ == 0) out.first_unparsed = l;
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) {
      current = nullptr;
      continue;
    }
    if (line[0] == '#') continue;  // perf's header comments
    // Call-chain lines are indented with a tab; header lines have a "sec.frac:" timestamp
    // (and may be indented with spaces when perf right-aligns the pid).
    auto t = tokens(line);
    size_t ti = 0;
    uint64_t ns = 0;
    if (line[0] != '\t')
      while (ti < t.size() && !(t[ti].back() == ':' && t[ti].find('.') != std::string::npos && parse_perf_time(t[ti], &ns))) ++ti;
    if (line[0] == '\t' || (std::isspace(static_cast<unsigned char>(line[0])) && ti == t.size())) {
      PerfFrame f;
      if (current && parse_frame(line, &f)) current->frames.push_back(f);
      else unparsed(line);
      continue;
    }
    if (ti == t.size()) {
      unparsed(line);
      current = nullptr;
      continue;
    }
    size_t k = ti;
    if (k > 0 && t[k - 1].size() > 2 && t[k - 1].front() == '[' && t[k - 1].back() == ']') --k;  // [cpu]
    int64_t pid = -1, tid = -1;
    if (k > 0) parse_ids(t[k - 1], &pid, &tid);
    if (ti + 1 < t.size() && t[ti + 1].rfind("PERF_RECORD_MMAP", 0) == 0) {
      PerfMmap m;
      size_t at = line.find("PERF_RECORD_MMAP");
      if (parse_mmap(line.substr(at), &m)) {
        m.time_ns = ns;
        if (m.pid < 0) m.pid = pid;
        out.mmaps.push_back(m);
      } else {
        unparsed(line);
      }
      current = nullptr;
      continue;
    }
    if (ti + 1 < t.size() && t[ti + 1].rfind("PERF_RECORD_", 0) == 0) {  // other side-band records
      current = nullptr;
      continue;
    }
    PerfSample s;
    s.pid = pid;
    s.tid = tid;
    s.time_ns = ns;
    size_t ei = ti + 1;
    if (ei < t.size() && all_digits(t[ei])) s.period = std::strtoull(t[ei++].c_str(), nullptr, 10);
    if (ei >= t.size() || t[ei].back() != ':') {
      unparsed(line);
      current = nullptr;
      continue;
    }
    s.event = t[ei].substr(0, t[ei].size() - 1);
    // Without -g the sample's ip follows on the same line.
    size_t pos = line.find(t[ei], line.find(t[ti]) + t[ti].size()) + t[ei].size();
    PerfFrame f;
    if (pos < line.size() && parse_frame(line.substr(pos), &f)) s.frames.push_back(f);
    out.samples.push_back(std::move(s));
    current = &out.samples.back();
  }
  return out;
}

}  // namespace erkit::exporters
