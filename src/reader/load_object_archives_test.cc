// er_archive's rules for what a map may make it read and write (reader/archive.h): only
// regular ELF files are read and copied, never through a link planted in the experiment, and
// copies never get a wider mode than their source. The same as root on another user's
// experiment is tested end to end (tests/e2e/security_test.cc).
#include "reader/load_object_archives.h"

#include <sys/stat.h>
#include <unistd.h>

#include "reader/reader_test_util.h"

namespace erkit::reader {
namespace {

namespace fs = std::filesystem;

class ArchiveRules : public testing::TempDirTest {
 protected:
  void SetUp() override {
    TempDirTest::SetUp();
    fs::create_directory(dir_);
    std::ofstream(file("log")) << "erkit-experiment-log 1\n";
    std::ofstream(file("map")) << "erkit-experiment-map 1\n";
  }
  void map_load(const std::string& path) {
    append_text(file("map"), "1 load path=\"" + path + "\" bias=0x0 lo=0x1000 hi=0x2000 buildid=-\n");
  }
  static int mode_of(const std::string& p) {
    struct stat st;
    return lstat(p.c_str(), &st) == 0 ? int(st.st_mode & 07777) : -1;
  }
  std::string warnings_of(const ArchiveReport& r) {
    std::string w;
    for (const auto& s : r.warnings) w += s + "\n";
    return w;
  }
};

TEST_F(ArchiveRules, OnlyRegularElfFilesAreReadAndCopied) {
  std::string elf = root_ + "/prog";
  std::ofstream(elf) << "\x7f" "ELF" << std::string(60, '\0');
  ASSERT_EQ(chmod(elf.c_str(), 0711), 0);
  std::string text = root_ + "/notes.txt";
  std::ofstream(text) << "not a program\n";
  std::string fifo = root_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  for (const auto& p : {elf, text, fifo, root_, root_ + "/gone.so"}) map_load(p);
  ArchiveOptions opt;
  opt.copy = true;
  ArchiveReport r = write_archives(dir_, opt);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_EQ(r.archived, 5);
  EXPECT_EQ(r.copied, 1);
  std::string w = warnings_of(r);
  EXPECT_NE(w.find(text + ": the load object is not an ELF file: skipped"), std::string::npos) << w;
  EXPECT_NE(w.find(fifo + ": the load object is not a regular file: skipped"), std::string::npos) << w;
  EXPECT_NE(w.find(root_ + ": the load object is not a regular file: skipped"), std::string::npos) << w;
  EXPECT_NE(w.find(root_ + "/gone.so: the load object is missing"), std::string::npos) << w;
  int copies = 0;
  for (const auto& e : read_archives(file("archives"))) {
    if (e.copy.empty()) continue;
    ++copies;
    EXPECT_EQ(e.path, elf);
    EXPECT_EQ(mode_of(file("archives") + "/" + e.copy), 0711 & mode_of(dir_)) << "never wider than the source";
  }
  EXPECT_EQ(copies, 1);
}

TEST_F(ArchiveRules, AnArchivesLinkIsNeverWrittenThrough) {
  std::string elsewhere = root_ + "/elsewhere";
  fs::create_directory(elsewhere);
  fs::create_directory_symlink(elsewhere, file("archives"));
  map_load("/bin/true");
  ArchiveReport r = write_archives(dir_, ArchiveOptions{});
  EXPECT_NE(r.error.find("not a directory"), std::string::npos) << r.error;
  EXPECT_TRUE(fs::is_empty(elsewhere));
}

TEST_F(ArchiveRules, CopyNamesLeadingOutOfTheArchivesAreIgnored) {
  fs::create_directory(file("archives"));
  std::ofstream(file("archives") + "/x.archive") << "erkit-archive 1\npath=/bin/true\ncopy=../../etc/passwd\n";
  std::ofstream(file("archives") + "/y.archive") << "erkit-archive 1\npath=/bin/false\ncopy=false.0123\n";
  auto v = read_archives(file("archives"));
  ASSERT_EQ(v.size(), 2u);
  for (const auto& e : v) EXPECT_EQ(e.copy, e.path == "/bin/false" ? "false.0123" : "") << e.path;
}

}  // namespace
}  // namespace erkit::reader
