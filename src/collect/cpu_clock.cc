#include "collect/cpu_clock.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "format/log_keys.h"

namespace erkit::collect {

namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

uint64_t read_khz(const std::string& path) {
  const std::string t = read_text(path);
  if (t.empty()) return 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(t.c_str(), &end, 10);
  return end == t.c_str() ? 0 : uint64_t(v);
}

}  // namespace

uint64_t harmonic_mean_khz(std::span<const uint64_t> khz) {
  double inv = 0;
  size_t n = 0;
  for (uint64_t k : khz)
    if (k != 0) {
      inv += 1.0 / double(k);
      ++n;
    }
  return n == 0 ? 0 : uint64_t(std::llround(double(n) / inv));
}

std::vector<uint64_t> parse_cpuinfo_khz(std::string_view cpuinfo) {
  std::vector<uint64_t> out;
  size_t pos = 0;
  while (pos < cpuinfo.size()) {
    size_t eol = cpuinfo.find('\n', pos);
    if (eol == std::string_view::npos) eol = cpuinfo.size();
    std::string_view line = cpuinfo.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.substr(0, 7) != "cpu MHz") continue;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string value(line.substr(colon + 1));
    char* end = nullptr;
    const double mhz = std::strtod(value.c_str(), &end);
    if (end != value.c_str() && mhz > 0 && mhz < 1e6) out.push_back(uint64_t(std::llround(mhz * 1000)));
  }
  return out;
}

CpuClock probe_cpu_clock(const std::string& root) {
  CpuClock c;
  const std::string cpu_dir = root + "/sys/devices/system/cpu/";
  for (int i = 0; i < 4096; ++i) {
    const std::string d = cpu_dir + fmt::format("cpu{}", i);
    std::error_code ec;
    if (!std::filesystem::is_directory(d, ec)) break;  // no such CPU
    uint64_t k = read_khz(d + "/cpufreq/scaling_cur_freq");
    if (!k) k = read_khz(d + "/cpufreq/cpuinfo_cur_freq");
    if (!k) k = read_khz(d + "/cpufreq/cpuinfo_max_freq");
    if (k) c.cpus.push_back(k);
  }
  if (!c.cpus.empty()) {
    c.source = "cpufreq";
  } else {
    c.cpus = parse_cpuinfo_khz(read_text(root + "/proc/cpuinfo"));
    if (!c.cpus.empty()) c.source = "cpuinfo";
  }
  c.khz = harmonic_mean_khz(c.cpus);
  if (!c.khz) c.source.clear();
  return c;
}

std::string cpu_clock_log_line(const CpuClock& c) {
  if (!c.khz) return {};
  std::string list;
  for (uint64_t k : c.cpus) list += (list.empty() ? "" : ",") + std::to_string(k);
  namespace key = format::log_key;
  return fmt::format("0 {} {}={} {}={} {}={}", format::log_event::kCpuClock, key::kKhz, c.khz, key::kSource, c.source,
                     key::kCpus, list);
}

}  // namespace erkit::collect
