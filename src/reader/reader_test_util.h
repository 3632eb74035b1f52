// Shared by the reader's tests: a temporary directory per test, the problems of an opened
// experiment as "file: message" lines, and byte patching of written files.
#pragma once
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "reader/experiment.h"

namespace erkit::reader::testing {

class TempDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/erkit-reader-test.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    root_ = tmpl;
    dir_ = root_ + "/t.er";
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  std::string file(const char* name) const { return dir_ + "/" + name; }

  // Opens dir_; fails the test if it is not an experiment at all.
  Experiment open() const {
    OpenResult r = open_experiment(dir_);
    EXPECT_TRUE(r.experiment.has_value()) << r.error;
    return r.experiment ? std::move(*r.experiment) : Experiment{};
  }

  // Overwrites `size` bytes of a file at `offset`.
  static void patch(const std::string& path, size_t offset, const void* data, size_t size) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    ASSERT_TRUE(f.good()) << path;
    f.seekp(std::streamoff(offset));
    f.write(static_cast<const char*>(data), std::streamsize(size));
    ASSERT_TRUE(f.good()) << path;
  }
  static void patch_u32(const std::string& path, size_t offset, uint32_t v) { patch(path, offset, &v, 4); }
  static void patch_u64(const std::string& path, size_t offset, uint64_t v) { patch(path, offset, &v, 8); }
  static void cut(const std::string& path, size_t size) { ASSERT_EQ(truncate(path.c_str(), off_t(size)), 0) << path; }
  static void append_text(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::app | std::ios::binary) << text;
  }

  std::string root_, dir_;
};

inline std::vector<std::string> problems_of(const Experiment& e) {
  std::vector<std::string> out;
  for (const auto& p : e.problems) out.push_back(p.file + ": " + p.message);
  return out;
}

}  // namespace erkit::reader::testing
