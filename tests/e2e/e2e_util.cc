#include "e2e_util.h"

#include "reader/experiment.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace erkit::e2e {

RunResult run(const std::string& command) {
  // A fresh file (mkstemp), not a predictable name in the shared /tmp.
  char errfile[] = "/tmp/erkit_e2e_err_XXXXXX";
  RunResult r;
  int fd = mkstemp(errfile);
  if (fd < 0) return r;
  close(fd);
  FILE* p = popen((command + " 2>" + errfile).c_str(), "r");
  if (!p) {
    std::filesystem::remove(errfile);
    return r;
  }
  std::array<char, 4096> buf;
  size_t k;
  while ((k = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), k);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  std::ifstream in(errfile);
  std::stringstream ss;
  ss << in.rdbuf();
  r.err = ss.str();
  std::filesystem::remove(errfile);
  return r;
}

std::string bin(const std::string& tool) { return std::string(ERKIT_BIN_DIR) + "/" + tool; }
std::string program(const std::string& name) { return std::string(ERKIT_TEST_PROGRAMS_DIR) + "/" + name; }

std::string make_workdir(const std::string& stem) {
  static std::atomic<int> n{0};
  std::string d = fmt::format("/tmp/erkit_e2e_{}_{}_{}", stem, getpid(), n++);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

double function_value(const std::map<std::string, FunctionRow>& rows, const std::string& fn, size_t column) {
  double v = 0;
  for (const auto& [name, row] : rows)
    if ((name == fn || name.rfind(fn + ".", 0) == 0) && row.values.size() > column) v += row.values[column];
  return v;
}

std::map<std::string, FunctionRow> parse_function_list(const std::string& text) {
  std::map<std::string, FunctionRow> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    FunctionRow r;
    std::string tok;
    std::streampos name_pos = 0;
    while (true) {
      std::streampos pos = ls.tellg();
      if (!(ls >> tok)) break;
      char* end = nullptr;
      double v = std::strtod(tok.c_str(), &end);
      if (end && *end == '\0' && !tok.empty()) {
        r.values.push_back(v);
        continue;
      }
      name_pos = pos;
      break;
    }
    if (r.values.empty() || name_pos == std::streampos(-1)) continue;
    std::string name = line.substr(size_t(name_pos));
    size_t b = name.find_first_not_of(" *");
    if (b == std::string::npos) continue;
    r.name = name.substr(b);
    rows[r.name] = r;
  }
  return rows;
}

// The first metric (Excl. User CPU seconds) of the source row containing `marker`; -1 when
// there is none or its cells are blank.
std::map<std::string, std::vector<double>> parse_json_function_rows(const std::string& json) {
  std::map<std::string, std::vector<double>> rows;
  std::istringstream in(json);
  std::string line;
  static const std::regex row(R"re(\{"id":\d+,"name":"((?:[^"\\]|\\.)*)"(?:,"selected":true)?,"values":\[([^\]]*)\]\})re");
  while (std::getline(in, line)) {
    if (line.find("\"command\":\"functions\"") == std::string::npos) continue;
    for (std::sregex_iterator it(line.begin(), line.end(), row), end; it != end; ++it) {
      std::vector<double> values;
      std::istringstream vs((*it)[2].str());
      for (std::string v; std::getline(vs, v, ',');) values.push_back(std::stod(v));
      rows[(*it)[1].str()] = values;
    }
  }
  return rows;
}

double largest_cpu_sample_seconds(const std::string& experiment) {
  auto r = reader::open_experiment(experiment);
  if (!r.experiment) return 0;
  uint64_t largest = 0;
  for (const auto& c : r.experiment->clock)
    largest = std::max<uint64_t>(largest, c.ns[format::kMsUser] + c.ns[format::kMsSystem]);
  return double(largest) / 1e9;
}

size_t blocked_records(const std::string& experiment) {
  auto r = reader::open_experiment(experiment);
  if (!r.experiment) return 0;
  size_t n = 0;
  for (const auto& c : r.experiment->clock)
    if (c.flags & format::kClockFlagBlockedSample) ++n;
  return n;
}

double row_value(const std::string& listing, const std::string& marker) {
  std::istringstream in(listing);
  std::string l;
  while (std::getline(in, l)) {
    if (l.find(marker) == std::string::npos) continue;
    std::smatch m;
    if (std::regex_search(l, m, std::regex(R"(^(## |   )\s*([0-9.]+)\s)"))) return std::stod(m[2].str());
    return -1;
  }
  return -1;
}

std::map<std::string, double> read_seconds_by_name(const std::string& path) {
  std::map<std::string, double> out;
  std::ifstream in(path);
  std::string name;
  double ns = 0;
  while (in >> name >> ns) out[name] = ns / 1e9;
  return out;
}

}  // namespace erkit::e2e
