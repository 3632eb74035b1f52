// End-to-end: damaged experiments (issue 11). A real experiment is recorded once; each test
// damages a copy (truncation, flipped bytes, wrong versions, missing files, absurd numbers,
// FIFOs) and checks that er_print never crashes or hangs, names the damaged file and what is
// wrong, and still shows what is intact.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {

namespace fs = std::filesystem;

class ReliabilityBadInput : public ::testing::Test {
 protected:
  // One recording of work_ratio shared by every test (each works on its own copy).
  static void SetUpTestSuite() {
    base_dir_ = new std::string(make_workdir("rel_badinput_base"));
    // 88-byte clock records (ERKIT_CLOCK_RECORDS=full): the tests patch fields at fixed offsets.
    auto c = run("cd " + *base_dir_ + " && ERKIT_CLOCK_RECORDS=full " + bin("collect") + " -o base.er -p hi " +
                 program("work_ratio"));
    base_ok_ = c.status == 0;
  }
  static void TearDownTestSuite() {
    fs::remove_all(*base_dir_);
    delete base_dir_;
  }
  void SetUp() override {
    ASSERT_TRUE(base_ok_) << "could not record the base experiment";
    dir_ = make_workdir("rel_badinput");
    fs::copy(*base_dir_ + "/base.er", dir_ + "/d.er", fs::copy_options::recursive);
    auto full = er_print("-functions d.er");
    ASSERT_EQ(full.status, 0) << full.err;
    ASSERT_TRUE(full.err.empty()) << "the undamaged experiment has problems: " << full.err;
    full_ = parse_function_list(full.out);
    ASSERT_GT(full_["<Total>"].values[0], 0.05);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  // er_print with a time limit: a hang is a failure like a crash (timeout exits with 124).
  RunResult er_print(const std::string& args) {
    return run("cd " + dir_ + " && timeout 60 " + bin("er_print") + " " + args);
  }
  std::string file(const std::string& name) const { return dir_ + "/d.er/" + name; }
  void write_at(const std::string& name, uint64_t offset, const void* data, size_t n) {
    std::fstream f(file(name), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(offset));
    f.write(static_cast<const char*>(data), std::streamsize(n));
  }
  void append(const std::string& name, const std::string& text) {
    std::ofstream(file(name), std::ios::app) << text;
  }
  // Runs -header and -functions: both must succeed; returns the function rows.
  std::map<std::string, FunctionRow> analyse(std::string* warnings) {
    auto h = er_print("-header d.er");
    EXPECT_EQ(h.status, 0) << h.err;
    auto f = er_print("-functions d.er");
    EXPECT_EQ(f.status, 0) << f.err;
    *warnings = f.err;
    return parse_function_list(f.out);
  }
  double total(std::map<std::string, FunctionRow>& rows) { return rows.count("<Total>") ? rows["<Total>"].values[0] : 0; }

  static std::string* base_dir_;
  static bool base_ok_;
  std::string dir_;
  std::map<std::string, FunctionRow> full_;
};
std::string* ReliabilityBadInput::base_dir_ = nullptr;
bool ReliabilityBadInput::base_ok_ = false;

TEST_F(ReliabilityBadInput, TruncatedProfileKeepsWhatPrecedesTheCut) {
  // Cut the fullest block (the main thread's samples; other threads have blocks too) in the
  // middle: the samples before the cut remain, those after it are lost.
  std::ifstream in(file("profile"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  size_t best = 0, best_used = 0;
  for (size_t b = 0; 4096 + b * 65536 < bytes.size(); ++b) {
    size_t start = 4096 + b * 65536, off = start;
    uint32_t word;
    while (off + 8 <= bytes.size() && off < start + 65536 && (std::memcpy(&word, &bytes[off], 4), word != 0))
      off += word & 0xffff;
    if (off - start > best_used) best = b, best_used = off - start;
  }
  ASSERT_GT(best_used, 1000u);
  size_t cut = 4096 + best * 65536 + best_used / 2;
  fs::resize_file(file("profile"), cut);
  std::string w;
  auto rows = analyse(&w);
  EXPECT_NE(w.find(fmt::format("d.er/profile: file ends inside block {} (truncated)", best)), std::string::npos)
      << w;
  EXPECT_GT(total(rows), 0);
  EXPECT_LT(total(rows), total(full_));
}

TEST_F(ReliabilityBadInput, TruncatedHeaderIsNamed) {
  fs::resize_file(file("profile"), 100);
  std::string w;
  auto rows = analyse(&w);
  EXPECT_NE(w.find("d.er/profile: truncated header (100 of 4096 bytes)"), std::string::npos) << w;
  auto h = er_print("-header d.er");
  EXPECT_NE(h.out.find("exited with status 0"), std::string::npos) << h.out;  // the log is intact
}

TEST_F(ReliabilityBadInput, EmptyFilesAreNamed) {
  fs::resize_file(file("stacks"), 0);
  fs::resize_file(file("log"), 0);
  std::string w;
  auto rows = analyse(&w);
  EXPECT_NE(w.find("d.er/stacks: empty"), std::string::npos) << w;
  EXPECT_NE(w.find("d.er/log: empty"), std::string::npos) << w;
  EXPECT_NEAR(total(rows), total(full_), 1e-9);  // the samples are still counted, as <Unknown>
}

TEST_F(ReliabilityBadInput, WrongVersionsAreNamed) {
  uint32_t v = 99;
  write_at("profile", 8, &v, sizeof v);  // FileHeader::format_version
  std::string log;
  {
    std::ifstream in(file("log"));
    log.assign(std::istreambuf_iterator<char>(in), {});
  }
  log.replace(log.find(" 1\n"), 3, " 7\n");
  std::ofstream(file("log")) << log;
  std::string w;
  analyse(&w);
  EXPECT_NE(w.find("d.er/profile: format version 99 is not supported"), std::string::npos) << w;
  EXPECT_NE(w.find("d.er/log: format version 7 is not supported"), std::string::npos) << w;
}

TEST_F(ReliabilityBadInput, MissingFilesAreNamedAndTheRestShown) {
  fs::remove(file("map"));
  std::string w;
  auto rows = analyse(&w);
  EXPECT_NE(w.find("d.er/map: missing"), std::string::npos) << w;
  EXPECT_NEAR(total(rows), total(full_), 1e-9);  // every sample counted, under <Unknown>
  fs::remove(file("stacks"));
  rows = analyse(&w);
  EXPECT_NE(w.find("d.er/stacks:"), std::string::npos) << w;
  EXPECT_NE(w.find("refer to call stacks missing"), std::string::npos) << w;
  EXPECT_NEAR(total(rows), total(full_), 1e-9);
  fs::remove(file("profile"));
  rows = analyse(&w);
  EXPECT_EQ(total(rows), 0);
}

TEST_F(ReliabilityBadInput, FlippedBytesNeverCrash) {
  // 16 damaged copies, each with 32 random bytes of one data file's records changed (the
  // fuzz_reader target goes much further; this keeps the real collector's files in the loop).
  std::mt19937_64 rng(11);
  const char* files[] = {"profile", "stacks"};
  std::string pristine = dir_ + "/pristine.er";
  fs::copy(dir_ + "/d.er", pristine, fs::copy_options::recursive);
  for (int round = 0; round < 16; ++round) {
    fs::remove_all(dir_ + "/d.er");
    fs::copy(pristine, dir_ + "/d.er", fs::copy_options::recursive);
    std::string name = files[round % 2];
    uint64_t size = fs::file_size(file(name));
    ASSERT_GT(size, 4096u + 64);
    for (int i = 0; i < 32; ++i) {
      uint64_t off = 4096 + rng() % (round < 8 ? 2048 : size - 4096);  // early records often
      uint8_t b = uint8_t(rng());
      write_at(name, off, &b, 1);
    }
    auto f = er_print("-functions -callers-callees d.er");
    ASSERT_EQ(f.status, 0) << "round " << round << " (" << name << "): " << f.err;
  }
}

TEST_F(ReliabilityBadInput, AbsurdNumbersAreSurvived) {
  // A clock sample claiming 2^62 ns of user time, a stack record claiming 2^32-1 frames, and
  // log/map lines with out-of-range numbers.
  uint64_t huge = uint64_t(1) << 62;
  write_at("profile", 4096 + 32, &huge, sizeof huge);  // first record's ns[kMsUser]
  uint32_t nframes = 0xffffffffu;
  write_at("stacks", 4096 + 4, &nframes, sizeof nframes);
  append("log", "5 start pid=99999999999999999999999 ncpus=-5 pagesize=1e400 realtime_ns=18446744073709551616\n");
  append("log", "6 thread_start tid=-1 start=0xffffffffffffffffffff\n");
  append("map", "7 load path=\"/nonexistent\" bias=0x0 lo=0xffffffffffffffff hi=0x0 buildid=zz\n");
  std::string w;
  auto rows = analyse(&w);
  EXPECT_NE(w.find("d.er/stacks: 1 records of unknown kind or wrong size skipped"), std::string::npos) << w;
  // The absurd sample is left out (it would overflow the sums) and reported; the rest is shown.
  EXPECT_NE(w.find("d.er/profile: 1 records with impossible values (damaged) skipped"), std::string::npos) << w;
  EXPECT_GT(total(rows), 0.5 * total(full_));
  EXPECT_LE(total(rows), total(full_));  // equal when the first record was not a User CPU sample
}

TEST_F(ReliabilityBadInput, GarbageTextFilesAreReportedOnce) {
  std::mt19937_64 rng(3);
  std::string junk;
  for (int i = 0; i < 20000; ++i) junk += char(rng() % 96 + 32 - (rng() % 16 == 0 ? 22 : 0));
  std::ofstream(file("map")) << junk << "\n";
  append("log", junk + "\n");
  std::string w;
  auto rows = analyse(&w);
  EXPECT_NE(w.find("d.er/map: first line is not an erkit map header"), std::string::npos) << w;
  EXPECT_NE(w.find("d.er/log: "), std::string::npos) << w;
  // One line per problem, not one per damaged line.
  EXPECT_LT(std::count(w.begin(), w.end(), '\n'), 10) << w;
  EXPECT_NEAR(total(rows), total(full_), 1e-9);
}

TEST_F(ReliabilityBadInput, FifosDoNotHangTheReader) {
  fs::remove(file("log"));
  ASSERT_EQ(mkfifo(file("log").c_str(), 0644), 0);
  fs::remove(file("overview"));
  ASSERT_EQ(mkfifo(file("overview").c_str(), 0644), 0);
  // An object path naming a FIFO: symbolisation must not open it for reading and block.
  ASSERT_EQ(mkfifo((dir_ + "/fifo").c_str(), 0644), 0);
  std::ofstream(file("map")) << "erkit-experiment-map 1\n1 load path=\"" << dir_
                             << "/fifo\" bias=0x0 lo=0x0 hi=0xffffffffffffffff buildid=-\n";
  std::string w;
  auto rows = analyse(&w);
  EXPECT_NE(w.find("d.er/log: not a regular file"), std::string::npos) << w;
  EXPECT_NE(w.find("d.er/overview: not a regular file"), std::string::npos) << w;
  EXPECT_NEAR(total(rows), total(full_), 1e-9);
}

TEST_F(ReliabilityBadInput, NotAnExperimentIsRefusedClearly) {
  fs::create_directories(dir_ + "/empty.er");
  auto a = er_print("-functions empty.er");
  EXPECT_EQ(a.status, 1);
  EXPECT_NE(a.err.find("empty.er: not an experiment (no 'log' file)"), std::string::npos) << a.err;
  std::ofstream(dir_ + "/file.er") << "hello\n";
  auto b = er_print("-functions file.er");
  EXPECT_EQ(b.status, 1);
  EXPECT_NE(b.err.find("file.er: not an experiment directory"), std::string::npos) << b.err;
  auto c = er_print("-functions missing.er");
  EXPECT_EQ(c.status, 1);
  EXPECT_NE(c.err.find("missing.er: no such experiment"), std::string::npos) << c.err;
  std::ofstream(dir_ + "/bad.erg") << "not a group\n";
  auto d = er_print("-functions bad.erg");
  EXPECT_EQ(d.status, 1);
  EXPECT_NE(d.err.find("bad.erg: not an experiment group"), std::string::npos) << d.err;
}

}  // namespace
}  // namespace erkit::e2e
