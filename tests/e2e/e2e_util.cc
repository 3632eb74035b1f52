#include "e2e_util.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

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
