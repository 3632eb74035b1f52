#include "collect/naming.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <regex>

namespace erkit::collect {
namespace {

struct Parsed {
  std::string stem;  // up to and including the dot before N
  long n = -1;       // -1: no .N. part
};

Parsed split(const std::string& name) {
  static const std::regex re(R"(^(.*\.)([0-9]+)\.er$)");
  std::smatch m;
  if (std::regex_match(name, m, re) && m[2].str().size() < 10) return {m[1].str(), std::stol(m[2].str())};
  return {name.substr(0, name.size() - 3), -1};
}

bool exists(const std::string& p) {
  struct stat st;
  return lstat(p.c_str(), &st) == 0;
}

NamingResult choose(const std::string& requested, const std::string& dir, bool create) {
  std::string name = requested.empty() ? "test.1.er" : requested;
  std::string prefix;
  if (!dir.empty()) {
    struct stat st;
    if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
      return {{}, fmt::format("directory '{}' does not exist", dir)};
    prefix = dir.back() == '/' ? dir : dir + "/";
  }
  Parsed p = split(name);
  if (p.n < 0) {
    std::string path = prefix + name;
    if (exists(path)) return {{}, fmt::format("experiment '{}' already exists", path)};
    if (create && mkdir(path.c_str(), 0755) != 0)
      return {{}, fmt::format("cannot create experiment '{}': {}", path, std::strerror(errno))};
    return {path, {}};
  }
  for (long n = p.n; n < p.n + 100000; ++n) {
    std::string path = prefix + p.stem + std::to_string(n) + ".er";
    if (!create) {
      if (!exists(path)) return {path, {}};
      continue;
    }
    if (mkdir(path.c_str(), 0755) == 0) return {path, {}};
    if (errno != EEXIST)
      return {{}, fmt::format("cannot create experiment '{}': {}", path, std::strerror(errno))};
  }
  return {{}, fmt::format("no free experiment name for '{}'", name)};
}

}  // namespace

NamingResult create_experiment_dir(const std::string& requested, const std::string& dir) {
  return choose(requested, dir, true);
}

NamingResult preview_experiment_name(const std::string& requested, const std::string& dir) {
  return choose(requested, dir, false);
}

int launcher_rank() {
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID"}) {
    const char* v = std::getenv(var);
    if (!v || !*v) continue;
    // A Slurm batch script has SLURM_PROCID=0 too: only a step of several tasks (srun -n N)
    // names experiments by rank.
    if (std::strcmp(var, "SLURM_PROCID") == 0) {
      const char* n = std::getenv("SLURM_STEP_NUM_TASKS");
      if (!n || std::atol(n) < 2) continue;
    }
    char* end = nullptr;
    errno = 0;
    long r = std::strtol(v, &end, 10);
    if (*end == 0 && errno == 0 && r >= 0 && r < (1L << 30)) return int(r);
  }
  return -1;
}

std::string rank_stem(const std::string& group) {
  if (group.empty()) return "test";
  std::string base = group.substr(group.find_last_of('/') + 1);
  return base.size() > 4 ? base.substr(0, base.size() - 4) : base;
}

namespace {

NamingResult choose_rank(const std::string& stem, int rank, const std::string& dir, bool create) {
  std::string exact = fmt::format("{}.{}.er", stem, rank);
  // The numbered fallback, previewed first: it also checks the directory.
  NamingResult fallback = choose(fmt::format("{}.{}.1.er", stem, rank), dir, false);
  if (!fallback.error.empty()) return fallback;
  std::string path = (dir.empty() ? "" : (dir.back() == '/' ? dir : dir + "/")) + exact;
  if (!create) return exists(path) ? fallback : NamingResult{path, {}};
  if (mkdir(path.c_str(), 0755) == 0) return {path, {}};
  if (errno != EEXIST) return {{}, fmt::format("cannot create experiment '{}': {}", path, std::strerror(errno))};
  return choose(fmt::format("{}.{}.1.er", stem, rank), dir, true);
}

}  // namespace

NamingResult create_rank_experiment_dir(const std::string& stem, int rank, const std::string& dir) {
  return choose_rank(stem, rank, dir, true);
}

NamingResult preview_rank_experiment_name(const std::string& stem, int rank, const std::string& dir) {
  return choose_rank(stem, rank, dir, false);
}

}  // namespace erkit::collect
