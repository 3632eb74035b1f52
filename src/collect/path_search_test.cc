#include "collect/path_search.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace erkit::collect {
namespace {

TEST(PathSearch, FindsTheFirstExecutableInPathAndTheCurrentDirectoryForAnEmptyEntry) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("path_search_" + std::to_string(getpid()));
  fs::create_directories(dir / "a");
  fs::create_directories(dir / "b");
  auto make = [&](const fs::path& p, mode_t mode) {
    std::ofstream(p) << "#!/bin/sh\n";
    chmod(p.c_str(), mode);
  };
  make(dir / "a" / "tool", 0644);  // not executable: skipped
  make(dir / "b" / "tool", 0755);
  make(dir / "here", 0755);
  const char* old = getenv("PATH");
  std::string saved = old ? old : "";
  setenv("PATH", ((dir / "a").string() + ":" + (dir / "b").string() + "::").c_str(), 1);
  EXPECT_EQ(find_in_path("tool"), (dir / "b" / "tool").string());
  EXPECT_EQ(find_in_path("missing"), "");
  auto cwd = fs::current_path();
  fs::current_path(dir);
  EXPECT_EQ(find_in_path("here"), (dir / "here").string()) << "an empty PATH entry is the current directory";
  fs::current_path(cwd);
  setenv("PATH", saved.c_str(), 1);
  EXPECT_TRUE(is_executable_file((dir / "b" / "tool").string()));
  EXPECT_FALSE(is_executable_file((dir / "a" / "tool").string()));
  EXPECT_FALSE(is_executable_file(dir.string())) << "a directory";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace erkit::collect
