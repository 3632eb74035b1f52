#include "collect/hwc_perf_terms.h"

#include <fmt/format.h>

#include <cctype>
#include <filesystem>
#include <fstream>

namespace erkit::collect {
namespace {

namespace fs = std::filesystem;

bool read_line(const fs::path& p, std::string* out) {
  std::ifstream f(p);
  return f && std::getline(f, *out);
}

bool parse_u64(const std::string& s, uint64_t* v) {
  if (s.empty()) return false;
  try {
    size_t used = 0;
    *v = std::stoull(s, &used, 0);
    return used == s.size();
  } catch (...) {
    return false;
  }
}


uint64_t* field_of(PerfEncoding* e, const std::string& f) {
  if (f == "config") return &e->config;
  if (f == "config1") return &e->config1;
  if (f == "config2") return &e->config2;
  return nullptr;
}

// Places `value` into the bits a format file gives ("config:0-7,21" or "config1:0-63"), low
// bits of the value first, as perf does.
bool apply_format(const std::string& format, uint64_t value, PerfEncoding* e, std::string* error) {
  const auto colon = format.find(':');
  uint64_t* field = colon == std::string::npos ? nullptr : field_of(e, format.substr(0, colon));
  if (!field) {
    *error = fmt::format("format '{}' is not a config field this reader knows", format);
    return false;
  }
  uint64_t rest = value;
  for (const std::string& range : split_fields(format.substr(colon + 1), ',')) {
    uint64_t lo = 0, hi = 0;
    const auto dash = range.find('-');
    bool ok = parse_u64(range.substr(0, dash), &lo);
    if (dash == std::string::npos) hi = lo;
    else ok = ok && parse_u64(range.substr(dash + 1), &hi);
    if (!ok || hi < lo || hi > 63) {
      *error = fmt::format("bad format '{}'", format);
      return false;
    }
    for (uint64_t bit = lo; bit <= hi; ++bit, rest >>= 1) *field |= (rest & 1) << bit;
  }
  if (rest != 0) {
    *error = fmt::format("value {:#x} does not fit the format '{}'", value, format);
    return false;
  }
  return true;
}

bool apply_term(const fs::path& pmu_dir, const std::string& term, PerfEncoding* e, int depth, std::string* error) {
  const auto eq = term.find('=');
  const std::string key = term.substr(0, eq);
  uint64_t value = 1;
  if (eq != std::string::npos && !parse_u64(term.substr(eq + 1), &value)) {
    *error = fmt::format("bad value in term '{}': decimal or 0x hex", term);
    return false;
  }
  if (uint64_t* f = field_of(e, key)) {  // config=, config1=, config2= on any PMU
    if (eq == std::string::npos) {
      *error = fmt::format("term '{}' needs a value", key);
      return false;
    }
    *f |= value;
    return true;
  }
  std::string format;
  if (read_line(pmu_dir / "format" / key, &format)) return apply_format(format, value, e, error);
  std::string event;
  if (eq == std::string::npos && depth == 0 && read_line(pmu_dir / "events" / key, &event)) {
    for (const std::string& t : split_fields(event, ','))
      if (!t.empty() && !apply_term(pmu_dir, t, e, depth + 1, error)) return false;
    return true;
  }
  std::string known = "config, config1, config2";
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(pmu_dir / "format", ec)) known += ", " + f.path().filename().string();
  *error = fmt::format("PMU '{}' has no term or event '{}' (its terms: {})", pmu_dir.filename().string(), key, known);
  return false;
}

}  // namespace

bool is_perf_term_spelling(const std::string& name) {
  const auto slash = name.find('/');
  if (slash == std::string::npos || slash == 0 || name.size() < slash + 3 || name.back() != '/') return false;
  for (size_t i = 0; i < slash; ++i)
    if (!(std::isalnum(static_cast<unsigned char>(name[i])) || name[i] == '_' || name[i] == '-' || name[i] == '.'))
      return false;
  return name.find('/', slash + 1) == name.size() - 1;
}

bool encode_perf_terms(const std::string& sysfs_root, const std::string& name, PerfEncoding* out,
                       std::string* error) {
  if (!is_perf_term_spelling(name)) {
    *error = fmt::format("'{}' is not of the form pmu/term=value,.../", name);
    return false;
  }
  const auto slash = name.find('/');
  const std::string pmu = name.substr(0, slash);
  const fs::path dir = fs::path(sysfs_root) / pmu;
  std::string type;
  PerfEncoding e;
  if (!read_line(dir / "type", &type) || !parse_u64(type, &e.config) || e.config > 0xffffffffu) {
    *error = fmt::format("no PMU '{}' in {}", pmu, sysfs_root);
    return false;
  }
  e.type = uint32_t(e.config);
  e.config = 0;
  for (const std::string& t : split_fields(name.substr(slash + 1, name.size() - slash - 2), ',')) {
    if (t.empty()) continue;
    if (!apply_term(dir, t, &e, 0, error)) return false;
  }
  *out = e;
  return true;
}

std::vector<std::string> split_counter_list(const std::string& spec) {
  std::vector<std::string> out;
  std::string cur;
  for (size_t i = 0; i < spec.size(); ++i) {
    const char c = spec[i];
    if (c == '/') {
      // A group "/...=.../" that closes: its commas are the PMU's term separators.
      // Not the manual's "/register_number" followed by more counters ("cycles/0,insts~u=1/1"):
      // a term group starts with a term's name and holds no attribute ('~') or '+'.
      const size_t close = spec.find('/', i + 1);
      const std::string group = close == std::string::npos ? "" : spec.substr(i + 1, close - i - 1);
      if (!group.empty() && std::isalpha(static_cast<unsigned char>(group[0])) &&
          group.find('=') != std::string::npos && group.find_first_of("~+") == std::string::npos) {
        cur += spec.substr(i, close - i + 1);
        i = close;
        continue;
      }
    }
    if (c == ',') {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(cur);
  return out;
}

std::vector<std::string> split_fields(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t p = 0;
  while (true) {
    size_t q = s.find(sep, p);
    out.push_back(s.substr(p, q == std::string::npos ? std::string::npos : q - p));
    if (q == std::string::npos) return out;
    p = q + 1;
  }
}

}  // namespace erkit::collect
