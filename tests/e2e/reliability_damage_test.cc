// End-to-end: damaged experiments, issue 14 items 10-12. Real experiments are recorded once
// (clock profile, sync trace, I/O trace); each test damages a copy and checks that er_print
// names the damaged file and what is wrong, never crashes, and never shows a number the run
// could not have produced.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "e2e_util.h"
#include "format/experiment_format.h"
#include "reader/experiment.h"

namespace erkit::e2e {
namespace {

namespace fs = std::filesystem;

class ReliabilityDamage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    base_ = new std::string(make_workdir("rel_damage_base"));
    std::string cd = "cd " + *base_ + " && ";
    // The clock experiment in the 88-byte records (ERKIT_CLOCK_RECORDS=full): its test patches
    // fields at fixed offsets; compact records' damage is clock_compact_e2e_test.cc's.
    ok_ = run(cd + "ERKIT_CLOCK_RECORDS=full " + bin("collect") + " -o clock.er -p hi " + program("work_ratio")).status == 0 &&
          run(cd + bin("collect") + " -o sync.er -s all " + program("trace_mutex") + " truth 30").status == 0 &&
          run(cd + bin("collect") + " -o io.er -i on " + program("trace_io")).status == 0;
  }
  static void TearDownTestSuite() {
    fs::remove_all(*base_);
    delete base_;
  }
  void SetUp() override {
    ASSERT_TRUE(ok_) << "could not record the base experiments";
    dir_ = make_workdir("rel_damage");
    // Readable by nobody too (the permission tests run er_print as another user).
    fs::permissions(dir_, fs::perms::all, fs::perm_options::replace);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  // A fresh copy of base experiment `name` (clock, sync, io) as d.er.
  void copy(const std::string& name) {
    fs::remove_all(dir_ + "/d.er");
    fs::copy(*base_ + "/" + name + ".er", dir_ + "/d.er", fs::copy_options::recursive);
  }
  RunResult er_print(const std::string& args) {
    return run("cd " + dir_ + " && timeout 60 " + bin("er_print") + " " + args);
  }
  std::string file(const std::string& name) const { return dir_ + "/d.er/" + name; }
  void write_at(const std::string& name, uint64_t offset, const void* data, size_t n) {
    std::fstream f(file(name), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(offset));
    f.write(static_cast<const char*>(data), std::streamsize(n));
  }
  // Offsets of the complete records of `kind` in data file `name`.
  std::vector<uint64_t> records(const std::string& name, uint32_t kind) {
    std::ifstream in(file(name), std::ios::binary);
    std::string b((std::istreambuf_iterator<char>(in)), {});
    std::vector<uint64_t> out;
    for (size_t start = format::kHeaderSize; start < b.size(); start += format::kBlockSize) {
      for (size_t off = start; off + 8 <= std::min(b.size(), start + format::kBlockSize);) {
        uint32_t word;
        std::memcpy(&word, &b[off], 4);
        uint32_t size = format::record_size(word);
        if (word == 0 || size < 8) break;
        if (format::record_kind(word) == kind && format::record_complete(word)) out.push_back(off);
        off += size;
      }
    }
    return out;
  }
  // The experiment as the reader sees it (for ground truth: the run's end and threads).
  reader::Experiment open() {
    auto r = reader::open_experiment(dir_ + "/d.er");
    EXPECT_TRUE(r.experiment) << r.error;
    return r.experiment ? std::move(*r.experiment) : reader::Experiment{};
  }
  // <Total> of the first metric column of `-metrics <m> -functions`, in seconds.
  double total(const std::string& metric, std::string* warnings = nullptr) {
    auto f = er_print("-metrics e." + metric + " -functions d.er");
    EXPECT_EQ(f.status, 0) << f.err;
    if (warnings) *warnings = f.err;
    auto rows = parse_function_list(f.out);
    return rows.count("<Total>") ? rows["<Total>"].values[0] : 0;
  }
  // A command run as `nobody` when the tests run as root (root reads files of any mode).
  std::string as_other_user(const std::string& cmd) {
    return geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups -- " + cmd : cmd;
  }
  bool other_user_can_run_er_print() {
    return run(as_other_user(bin("er_print") + " -version")).status == 0;
  }

  static std::string* base_;
  static bool ok_;
  std::string dir_;
};
std::string* ReliabilityDamage::base_ = nullptr;
bool ReliabilityDamage::ok_ = false;

// Item 10: a 100 GiB sparse log or map was read whole: std::bad_alloc after 20 s.
TEST_F(ReliabilityDamage, HundredGiBSparseLogAndMapAreReportedNotRead) {
  copy("clock");
  double full = total("user");
  ASSERT_GT(full, 0.05);
  fs::resize_file(file("log"), uint64_t(100) << 30);  // the real log, then a 100 GiB hole
  fs::resize_file(file("map"), uint64_t(100) << 30);
  std::string w;
  double t = total("user", &w);
  EXPECT_NE(w.find("d.er/log: damaged: "), std::string::npos) << w;
  EXPECT_NE(w.find("bytes of zeros (a hole in a sparse file) were skipped"), std::string::npos) << w;
  EXPECT_NE(w.find("d.er/map: damaged: "), std::string::npos) << w;
  EXPECT_NEAR(t, full, 1e-9);  // what precedes the hole is intact
  auto h = er_print("-header d.er");
  EXPECT_EQ(h.status, 0) << h.err;
  EXPECT_NE(h.out.find("exited with status 0"), std::string::npos) << h.out;
  // A map that is nothing but a hole, and a log line of 9 MiB without a newline.
  fs::remove(file("map"));
  fs::resize_file(dir_ + "/d.er/log", 0);
  {
    std::ofstream(file("map")).close();
    fs::resize_file(file("map"), uint64_t(100) << 30);
    std::ofstream log(file("log"), std::ios::binary);
    log << "erkit-experiment-log 1\n" << std::string(9u << 20, 'x') << "\n0 end how=exit status=0\n";
  }
  auto g = er_print("-header -functions d.er");
  EXPECT_EQ(g.status, 0) << g.err;
  EXPECT_NE(g.err.find("d.er/log: line 2 is longer than 8 MiB and was skipped"), std::string::npos) << g.err;
  EXPECT_NE(g.err.find("d.er/map: damaged: 107374182400 bytes of zeros"), std::string::npos) << g.err;
}

// Item 11: values within the old 2^48 plausibility cap but beyond the run: 2^40 ns is the
// issue's "1,099 s of CPU in a 0.4 s run".
TEST_F(ReliabilityDamage, ProfileSamplesBeyondTheRunAreDroppedAndCounted) {
  copy("clock");
  double full = total("user");
  auto recs = records("profile", format::kRecClockSample);
  ASSERT_GT(recs.size(), 20u);
  const uint64_t absurd = uint64_t(1) << 40;
  for (int i = 0; i < 3; ++i)  // ns[kMsUser] and ns[kMsSystem] of three samples
    write_at("profile", recs[size_t(i) * 5] + offsetof(format::ClockSampleRecord, ns) + 8 * (i % 2), &absurd, 8);
  write_at("profile", recs[16] + offsetof(format::ClockSampleRecord, tstamp_ns), &absurd, 8);  // after the end
  uint32_t stranger = 0x7ffffff0;
  write_at("profile", recs[17] + offsetof(format::ClockSampleRecord, tid), &stranger, 4);  // unknown thread
  std::string w;
  double t = total("user", &w);
  EXPECT_NE(w.find("d.er/profile: 5 records with values outside the run's bounds (damaged) dropped: 1 after the "
                   "run's end"),
            std::string::npos)
      << w;
  EXPECT_NE(w.find("1 of threads the log does not know, 3 standing for more time than the run lasted"),
            std::string::npos)
      << w;
  EXPECT_LE(t, full);
  EXPECT_GT(t, 0.5 * full);
  double sys = total("system");
  EXPECT_LT(sys, 100) << "an absurd system time survived";
}

TEST_F(ReliabilityDamage, SyncAndIoRecordsBeyondTheRunAreDropped) {
  copy("sync");
  double full = total("sync");
  ASSERT_GT(full, 0.05);
  auto recs = records("synctrace", format::kRecSyncEvent);
  ASSERT_GE(recs.size(), 5u);
  const uint64_t absurd = uint64_t(1) << 42;
  write_at("synctrace", recs[0] + offsetof(format::SyncEventRecord, wait_ns), &absurd, 8);
  std::string w;
  double t = total("sync", &w);
  EXPECT_NE(w.find("d.er/synctrace: 1 records with values outside the run's bounds (damaged) dropped: 1 standing "
                   "for more time than the run lasted"),
            std::string::npos)
      << w;
  EXPECT_LE(t, full);

  copy("io");
  auto f = er_print("-metrics e.ioreadbytes:e.iowritebytes -functions d.er");
  ASSERT_EQ(f.status, 0) << f.err;
  ASSERT_TRUE(f.err.empty()) << f.err;
  auto io = records("iotrace", format::kRecIoEvent);
  ASSERT_GT(io.size(), 10u);
  const int64_t terabyte = int64_t(1) << 40;
  for (size_t i = 0; i < io.size(); ++i) {
    format::IoEventRecord r;
    std::ifstream in(file("iotrace"), std::ios::binary);
    in.seekg(std::streamoff(io[i]));
    in.read(reinterpret_cast<char*>(&r), sizeof r);
    if (r.op != format::kIoRead && r.op != format::kIoWrite) continue;
    write_at("iotrace", io[i] + offsetof(format::IoEventRecord, bytes), &terabyte, 8);
    break;
  }
  auto g = er_print("-metrics e.ioreadbytes:e.iowritebytes -functions d.er");
  EXPECT_EQ(g.status, 0) << g.err;
  EXPECT_NE(g.err.find("d.er/iotrace: 1 records with values outside the run's bounds (damaged) dropped: 1 moving "
                       "more bytes than an I/O call can"),
            std::string::npos)
      << g.err;
  auto before = parse_function_list(f.out)["<Total>"].values, after = parse_function_list(g.out)["<Total>"].values;
  ASSERT_EQ(after.size(), before.size()) << g.out;
  for (size_t j = 0; j < after.size(); ++j) EXPECT_LE(after[j], before[j]) << g.out;
}

TEST_F(ReliabilityDamage, RandomFlipsNeverGiveMoreThanTheRunCouldHold) {
  // 12 damaged copies, each with 48 random bytes changed in the records of one data file. The
  // bound is what the undamaged run allows: each thread at most the run's end (plus the slack
  // of reader/record_bounds.h) of every time metric.
  std::mt19937_64 rng(14);
  const char* bases[] = {"clock", "sync", "io"};
  const char* files[] = {"profile", "synctrace", "iotrace"};
  const char* metrics[] = {"user", "sync", "iotime"};
  for (int round = 0; round < 12; ++round) {
    int k = round % 3;
    copy(bases[k]);
    auto e = open();
    ASSERT_TRUE(e.problems.empty()) << e.problems[0].message;
    size_t threads = e.log.threads.size() + 1;
    double bound_s = double(e.log.last_event_ns + std::max<uint64_t>(2000000000, e.log.last_event_ns / 2)) / 1e9;
    uint64_t size = fs::file_size(file(files[k]));
    ASSERT_GT(size, 4096u + 64);
    for (int i = 0; i < 48; ++i) {
      uint64_t off = 4096 + rng() % std::min<uint64_t>(size - 4096, 4096);
      uint8_t b = uint8_t(rng());
      write_at(files[k], off, &b, 1);
    }
    auto f = er_print("-metrics e." + std::string(metrics[k]) + " -functions -callers-callees d.er");
    ASSERT_EQ(f.status, 0) << "round " << round << ": " << f.err;
    auto rows = parse_function_list(f.out);
    double t = rows.count("<Total>") ? rows["<Total>"].values[0] : 0;
    EXPECT_LE(t, double(threads) * bound_s) << "round " << round << " (" << files[k] << "): " << f.err;
  }
}

// Item 12: a missing or unreadable data file showed zeros and "No warnings".
TEST_F(ReliabilityDamage, MissingDataFileIsNamedWithTheKindTheLogSaysWasOn) {
  copy("sync");
  fs::remove(file("synctrace"));
  auto f = er_print("-functions d.er");
  EXPECT_EQ(f.status, 0) << f.err;
  EXPECT_NE(f.err.find("d.er/synctrace: missing, although the log says synchronization tracing was on: its data is "
                       "lost"),
            std::string::npos)
      << f.err;
  copy("clock");
  fs::remove(file("profile"));
  fs::remove(file("heaptrace"));  // heap tracing was off: its absence is no problem
  f = er_print("-functions d.er");
  EXPECT_NE(f.err.find("d.er/profile: missing, although the log says clock profiling was on"), std::string::npos)
      << f.err;
  EXPECT_EQ(f.err.find("heaptrace"), std::string::npos) << f.err;
}

TEST_F(ReliabilityDamage, UnreadableFileAndDirectorySayPermissionDenied) {
  if (!other_user_can_run_er_print()) GTEST_SKIP() << "er_print cannot run as another user here";
  copy("clock");
  fs::permissions(file("profile"), fs::perms::none, fs::perm_options::replace);
  auto f = run("cd " + dir_ + " && " + as_other_user("timeout 60 " + bin("er_print") + " -functions d.er"));
  EXPECT_EQ(f.status, 0) << f.err;
  EXPECT_NE(f.err.find("d.er/profile: cannot be read: permission denied (clock profiling was on: its data is not "
                       "shown)"),
            std::string::npos)
      << f.err;
  fs::permissions(file("profile"), fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
  fs::permissions(file("log"), fs::perms::none, fs::perm_options::replace);
  f = run("cd " + dir_ + " && " + as_other_user("timeout 60 " + bin("er_print") + " -header d.er"));
  EXPECT_NE(f.err.find("d.er/log: cannot be read: permission denied"), std::string::npos) << f.err;
  fs::permissions(dir_ + "/d.er", fs::perms::none, fs::perm_options::replace);
  f = run("cd " + dir_ + " && " + as_other_user("timeout 60 " + bin("er_print") + " -header d.er"));
  EXPECT_EQ(f.status, 1);
  EXPECT_NE(f.err.find("d.er: cannot be read: permission denied (the experiment directory is mode 000)"),
            std::string::npos)
      << f.err;
  EXPECT_EQ(f.err.find("not an experiment"), std::string::npos) << f.err;
  fs::permissions(dir_ + "/d.er", fs::perms::owner_all, fs::perm_options::replace);
}

}  // namespace
}  // namespace erkit::e2e
