#include "reader/text_file.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <vector>

namespace erkit::reader {
namespace {

namespace fs = std::filesystem;

class TextFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("erkit_text_file_" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const char* name) const { return (dir_ / name).string(); }
  std::vector<std::string> lines(const std::string& p, TextFileResult* r, uint64_t max = kMaxTextBytes) {
    std::vector<std::string> out;
    *r = read_text_lines(p, [&](std::string_view l, uint64_t) { out.emplace_back(l); }, max);
    return out;
  }
  fs::path dir_;
};

TEST_F(TextFile, CompleteLinesOnlyInOrder) {
  std::ofstream(path("a")) << "one\ntwo\n\nthree";
  TextFileResult r;
  EXPECT_EQ(lines(path("a"), &r), (std::vector<std::string>{"one", "two", ""}));
  EXPECT_TRUE(r.opened);
  EXPECT_EQ(r.damage(), "");
}

TEST_F(TextFile, HolesAreSkippedWithoutReadingThem) {
  // 100 GiB: read whole (as before issue 10) this is minutes of zeros and std::bad_alloc.
  std::ofstream(path("log")) << "head 1\nsecond\n";
  fs::resize_file(path("log"), uint64_t(100) << 30);
  TextFileResult r;
  EXPECT_EQ(lines(path("log"), &r), (std::vector<std::string>{"head 1", "second"}));
  // The hole starts at the end of the file system block holding the text.
  EXPECT_LE(r.hole_bytes, (uint64_t(100) << 30) - 14);
  EXPECT_GE(r.hole_bytes, (uint64_t(100) << 30) - (1 << 20));
  EXPECT_EQ(r.long_lines, 0u);
  EXPECT_EQ(r.damage(), fmt::format("damaged: {} bytes of zeros (a hole in a sparse file) were skipped", r.hole_bytes));
  // A hole in the middle: the line it falls in is lost, the data after it is read.
  {
    std::ofstream f(path("mid"));
    f << "a\nb";
  }
  fs::resize_file(path("mid"), 3 + (uint64_t(1) << 30));
  std::ofstream(path("mid"), std::ios::app) << "c\nd\n";
  EXPECT_EQ(lines(path("mid"), &r), (std::vector<std::string>{"a", "d"}));
  EXPECT_GT(r.hole_bytes, 0u);
}

TEST_F(TextFile, OverlongLinesAreSkippedAndCounted) {
  {
    std::ofstream f(path("long"));
    f << "a\n" << std::string(kMaxTextLine + 1, 'x') << "\nb\n" << std::string(kMaxTextLine + 5, 'y') << "\nc\n";
  }
  TextFileResult r;
  std::vector<std::string> got;
  r = read_text_lines(path("long"), [&](std::string_view l, uint64_t n) { got.push_back(std::to_string(n) + std::string(l)); });
  EXPECT_EQ(got, (std::vector<std::string>{"1a", "3b", "5c"}));
  EXPECT_EQ(r.long_lines, 2u);
  EXPECT_EQ(r.first_long_line, 2u);
  EXPECT_EQ(r.damage(), "2 lines longer than 8 MiB were skipped (the first is line 2)");
}

TEST_F(TextFile, ByteLimitStopsReading) {
  std::ofstream(path("big")) << std::string(3000, 'z') + "\n" + "tail\n";
  TextFileResult r;
  auto got = lines(path("big"), &r, 1000);
  EXPECT_TRUE(got.empty());
  EXPECT_TRUE(r.cut);
  EXPECT_NE(r.damage().find("damaged: 3006 bytes, more than any real experiment writes; only the first 1000 bytes were read"), std::string::npos)
      << r.damage();
}

TEST_F(TextFile, WhyAFileCannotBeRead) {
  TextFileResult r = read_text_lines(path("absent"), [](std::string_view, uint64_t) {});
  EXPECT_FALSE(r.opened);
  EXPECT_EQ(r.open_problem(), "missing");
  ASSERT_EQ(mkfifo(path("fifo").c_str(), 0644), 0);
  r = read_text_lines(path("fifo"), [](std::string_view, uint64_t) {});
  EXPECT_EQ(r.open_problem(), "not a regular file");
  fs::create_directories(path("dir"));
  r = read_text_lines(path("dir"), [](std::string_view, uint64_t) {});
  EXPECT_EQ(r.open_problem(), "not a regular file");
  if (geteuid() != 0) {  // root reads files of any mode (the e2e test runs as nobody)
    std::ofstream(path("secret")) << "x\n";
    fs::permissions(path("secret"), fs::perms::none);
    r = read_text_lines(path("secret"), [](std::string_view, uint64_t) {});
    EXPECT_EQ(r.open_problem(), "cannot be read: permission denied");
  }
}

}  // namespace
}  // namespace erkit::reader
