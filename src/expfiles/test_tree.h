// Test helpers: fake experiments (a directory with an erkit log header) in a scratch directory.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "format/experiment_format.h"

namespace erkit::expfiles::test {

inline std::string scratch_dir(const std::string& stem) {
  static int n = 0;
  std::string d = "/tmp/erkit_expfiles_" + stem + "_" + std::to_string(getpid()) + "_" + std::to_string(n++);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

inline void write_file(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// An experiment with a log, a data file, an archive and (optionally) a descendant.
inline void make_experiment(const std::string& path, bool with_descendant = false) {
  write_file(path + "/log", std::string(format::kLogMagic) + " 1\n0 start pid=1\n");
  write_file(path + "/profile", "data of " + path);
  write_file(path + "/archives/a.archive", "archive");
  if (with_descendant) {
    write_file(path + "/_f1.er/log", std::string(format::kLogMagic) + " 1\n0 start pid=2\n");
    write_file(path + "/_f1.er/profile", "child data");
  }
}

inline void make_group(const std::string& path, const std::vector<std::string>& members) {
  std::string text = "#analyzer experiment group\n";
  for (const auto& m : members) text += m + "\n";
  write_file(path, text);
}

}  // namespace erkit::expfiles::test
