#include "exporters/perf_header.h"

#include <ctime>
#include <sstream>

namespace erkit::exporters {
namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

}  // namespace

PerfRunInfo parse_perf_header(const std::string& text) {
  PerfRunInfo info;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '#') continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = trim(line.substr(1, colon - 1)), value = trim(line.substr(colon + 1));
    if (key == "hostname") info.host = value;
    else if (key == "os release") info.os = value;
    else if (key == "arch") info.arch = value;
    else if (key == "nrcpus online") info.ncpus = std::atoll(value.c_str());
    else if (key == "nrcpus avail" && !info.ncpus) info.ncpus = std::atoll(value.c_str());
    else if (key == "captured on") {
      struct tm tm = {};
      tm.tm_isdst = -1;
      if (strptime(value.c_str(), "%a %b %d %H:%M:%S %Y", &tm)) {
        time_t t = mktime(&tm);
        if (t > 0) info.realtime_ns = int64_t(t) * 1000000000ll;
      }
    }
  }
  return info;
}

}  // namespace erkit::exporters
