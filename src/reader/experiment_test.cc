// Format round trip, write -> read: an experiment written with the writer-side code of the
// real tools (collect's run-log writer, the collector's text-line builder for its log and map
// lines, HostExperimentWriter for the binary records, all from format/experiment_format.h)
// and read back with open_experiment, every field compared exactly.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "collect/cpu_clock.h"
#include "collect/experiment_log.h"
#include "collect/launch.h"
#include "collect/options.h"
#include "collector/fd_guard.h"
#include "collector/text_line.h"
#include "common/version.h"
#include "format/host_writer.h"
#include "format/mpi_functions.h"
#include "reader/load_object_archives.h"
#include "reader/reader_test_util.h"

// The collector's TextLine (built into this test from src/collector/text_line.cc) checks each
// descriptor with the collector's fd guard before writing; the test's descriptors are plain.
namespace erkit::collector {
int fd_guard_resolve(int fd) { return fd; }
}  // namespace erkit::collector

namespace erkit::reader {
namespace {

namespace fs = std::filesystem;
using collector::TextLine;
using testing::problems_of;

class RoundTripTest : public testing::TempDirTest {
 protected:
  // Writes one line to the log or map the way the collector does (O_APPEND, one write).
  void collector_line(const char* file_name, TextLine& line) {
    int fd = ::open(file(file_name).c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    EXPECT_TRUE(line.write_to(fd));
    ::close(fd);
  }

  // The log as collect starts it (replacing the host writer's bare header).
  void collect_header(const std::vector<std::string>& target, uint64_t interval_ns) {
    fs::remove(file("log"));
    collect::Options o;
    o.target = target;
    o.clock_interval_ns = interval_ns;
    o.archive = "off";
    collect::LaunchContext ctx;
    ctx.command_line = "collect -p hi /usr/bin/prog 'a b' c";
    ctx.program_path = target[0];
    ctx.experiment = dir_;
    collect::ExperimentLog(dir_).write_header(o, ctx);
  }
};

TEST_F(RoundTripTest, RunLog) {
  {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
  }
  collect_header({"/usr/bin/prog", "a b", "c"}, 997000);
  collect::ExperimentLog log(dir_);
  log.write_target_pid(4321);
  TextLine l;
  // What the collector writes (runtime.cc, thread_interpose.cc, io_trace.cc, pause_resume.cc).
  l.event(0, "start").kv_dec("pid", 4321).kv_dec("ppid", 4320).kv_quoted("exe", "/usr/bin/prog");
  l.kv_dec("realtime_ns", 1700000000123456789).kv_dec("monotonic_ns", 5555);
  l.kv_quoted("host", "build host").kv_quoted("arch", "x86_64").kv_quoted("os", "6.1.0-13-amd64");
  l.kv_dec("ncpus", 16).kv_dec("pagesize", 4096).kv_dec("clock_res_ns", 1).kv_dec("clock_interval_ns", 997000);
  collector_line("log", l);
  collector_line("log", l.event(1000, "thread_start").kv_dec("tid", 4322).kv_hex("start", 0x401234));
  collector_line("log", l.event(2000, "file").kv_dec("id", 1).kv_dec("fd", 5).kv_quoted("path", "/tmp/in put"));
  collector_line("log", l.event(3000, "warning").kv("code", "w1").kv_quoted("text", "a \"quoted\" \\ text\nline 2"));
  collector_line("log", l.event(4000, "pause").kv("reason", "api"));
  collector_line("log", l.event(5000, "resume").kv("reason", "api"));
  collector_line("log", l.event(6000, "mpi_rank").kv_dec("rank", 5).kv_dec("size", 8));  // mpi_trace.cc
  collector_line("log", l.event(9000, "thread_end").kv_dec("tid", 4322));
  l.event(12000, "exit").kv("how", "exit").kv_dec("status", 3).kv_dec("bytes", 65536);
  l.kv_dec(format::kCostSignals, 40).kv_dec(format::kCostSignalNs, 80000).kv_dec(format::kCostHelperCpuNs, 300000);
  l.kv_dec(format::kCostStartCpuNs, 5000).kv_dec(format::kCostExitCpuNs, 7000).kv_dec(format::kCostProcessCpuNs, 400000000);
  collector_line("log", l);
  log.write_end(W_EXITCODE(3, 0));

  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  EXPECT_EQ(e.name, "t.er");
  const RunLog& r = e.log;
  EXPECT_EQ(r.format_version, 1);
  EXPECT_EQ(r.collect_version, ERKIT_VERSION);
  EXPECT_EQ(r.command, "collect -p hi /usr/bin/prog 'a b' c");
  EXPECT_EQ(r.target, "/usr/bin/prog");
  EXPECT_EQ(r.args, "a b c");
  EXPECT_EQ(r.cwd, fs::current_path().string());
  EXPECT_EQ(r.pid, 4321);
  EXPECT_EQ(r.ppid, 4320);
  EXPECT_EQ(r.exe, "/usr/bin/prog");
  EXPECT_EQ(r.host, "build host");
  EXPECT_EQ(r.arch, "x86_64");
  EXPECT_EQ(r.os, "6.1.0-13-amd64");
  EXPECT_EQ(r.ncpus, 16);
  EXPECT_EQ(r.pagesize, 4096);
  // collect's "cpu_clock" line: this machine's rate (0 where it shows none; issue 19).
  EXPECT_EQ(r.cpu_khz, collect::probe_cpu_clock().khz);
  EXPECT_EQ(r.realtime_start_ns, 1700000000123456789);
  EXPECT_EQ(r.clock_interval_ns, 997000u);
  ASSERT_EQ(r.settings.count("clock"), 1u);
  EXPECT_EQ(r.settings.at("clock").at("interval_ns"), "997000");
  EXPECT_EQ(r.settings.at("archive").at("value"), "off");
  EXPECT_EQ(r.settings.at("limit").at("mb"), "2000");
  EXPECT_EQ(r.settings.at("follow").at("value"), "off");
  ASSERT_EQ(r.threads.size(), 1u);
  const ThreadInfo& t = r.threads.at(4322);
  EXPECT_EQ(t.tid, 4322u);
  EXPECT_EQ(t.start_ns, 1000u);
  EXPECT_EQ(t.end_ns, 9000u);
  EXPECT_EQ(t.start_routine, 0x401234u);
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_EQ(r.files.at(1).at("path"), "/tmp/in put");
  EXPECT_EQ(r.files.at(1).at("fd"), "5");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0].first, 3000u);
  EXPECT_EQ(r.warnings[0].second, "a \"quoted\" \\ text\nline 2");
  EXPECT_EQ(r.recording_changes, (std::vector<std::pair<uint64_t, bool>>{{4000, false}, {5000, true}}));
  EXPECT_EQ(r.mpi_rank, 5);
  EXPECT_EQ(r.mpi_size, 8);
  EXPECT_EQ(r.collector_exit, "exit");
  EXPECT_EQ(r.exit_status, 3);
  EXPECT_EQ(r.end_how, "exit");
  EXPECT_EQ(r.end_status, 3);
  EXPECT_EQ(r.end_signal_name, "");
  EXPECT_EQ(r.last_event_ns, 12000u);
  EXPECT_FALSE(r.limit_reached);
  EXPECT_EQ(e.duration_ns(), 12000u);
  EXPECT_TRUE(r.cost.known);
  EXPECT_EQ(r.cost.signals, 40u);
  EXPECT_EQ(r.cost.signal_ns, 80000u);
  EXPECT_EQ(r.cost.helper_cpu_ns, 300000u);
  EXPECT_EQ(r.cost.start_cpu_ns, 5000u);
  EXPECT_EQ(r.cost.exit_cpu_ns, 7000u);
  EXPECT_EQ(r.cost.process_cpu_ns, 400000000u);
  EXPECT_EQ(r.cost.total_ns(), 392000u);
}

TEST_F(RoundTripTest, KilledRunKeepsCompleteLinesOnly) {
  {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
  }
  collect_header({"/usr/bin/prog"}, 10007000);
  TextLine l;
  collector_line("log", l.event(0, "start").kv_dec("pid", 77).kv_dec("ppid", 1));
  collector_line("log", l.event(100, "warning").kv("code", "w").kv_quoted("text", "kept"));
  collect::ExperimentLog(dir_).write_end(SIGKILL);  // a raw wait status: killed by signal 9
  // A line the collector was writing when the target died: no newline, so it is not read.
  append_text(file("log"), "2000 warning code=w text=\"cut off");
  append_text(file("map"), "3000 load path=\"/lib/half");

  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  EXPECT_EQ(e.log.pid, 77);
  EXPECT_EQ(e.log.clock_interval_ns, 10007000u);
  ASSERT_EQ(e.log.warnings.size(), 1u);
  EXPECT_EQ(e.log.warnings[0].second, "kept");
  EXPECT_EQ(e.log.end_how, "signal");
  EXPECT_EQ(e.log.end_status, 9);
  EXPECT_EQ(e.log.end_signal_name, "SIGKILL");
  EXPECT_EQ(e.log.collector_exit, "");
  EXPECT_FALSE(e.log.cost.known);  // no exit line: the cost is not known
  EXPECT_EQ(e.log.last_event_ns, 100u);
  EXPECT_TRUE(e.objects.empty());
}

TEST_F(RoundTripTest, LoadObjectMap) {
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  const std::string exe_id = file_build_id(exe);
  ASSERT_FALSE(exe_id.empty()) << exe << " has no build-id";
  {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    // A relative path names a file kept inside the experiment.
    w.load_object("libplugin.so", 0x7f0000000000, 0x7f0000001000, 0x7f0000003000, "-", 100);
    w.load_object("/nonexistent/libgone.so", 0x7e0000000000, 0x7e0000001000, 0x7e0000002000, "00ff", 150);
  }
  TextLine l;  // the collector's own load/unload lines (load_map.cc)
  collector_line("map", l.event(0, "load").kv_quoted("path", exe.c_str()).kv_hex("bias", 0x555555554000)
                            .kv_hex("lo", 0x555555555000).kv_hex("hi", 0x555555559000).kv("buildid", exe_id.c_str()));
  collector_line("map", l.event(500, "unload").kv_quoted("path", "libplugin.so").kv_hex("bias", 0x7f0000000000)
                            .kv_hex("lo", 0x7f0000001000));
  collector_line("map", l.event(600, "load").kv_quoted("path", "libother.so").kv_hex("bias", 0x7f0000000000)
                            .kv_hex("lo", 0x7f0000001000).kv_hex("hi", 0x7f0000002000).kv("buildid", "-"));

  Experiment e = open();
  EXPECT_EQ(problems_of(e),
            std::vector<std::string>{"map: /nonexistent/libgone.so is missing; no archived copy: its functions may be "
                                     "named wrongly or not at all (record with collect -A copy, or run er_archive -A "
                                     "before changing it)"});
  ASSERT_EQ(e.objects.size(), 4u);
  struct Expect {
    std::string path, build_id;
    uint64_t bias, lo, hi, load_ns, unload_ns;
  };
  const Expect want[] = {
      {dir_ + "/libplugin.so", "", 0x7f0000000000, 0x7f0000001000, 0x7f0000003000, 100, 500},
      {"/nonexistent/libgone.so", "00ff", 0x7e0000000000, 0x7e0000001000, 0x7e0000002000, 150, UINT64_MAX},
      {exe, exe_id, 0x555555554000, 0x555555555000, 0x555555559000, 0, UINT64_MAX},
      {dir_ + "/libother.so", "", 0x7f0000000000, 0x7f0000001000, 0x7f0000002000, 600, UINT64_MAX},
  };
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(want[i].path);
    const LoadObject& o = e.objects[i];
    EXPECT_EQ(o.path, want[i].path);
    EXPECT_EQ(o.build_id, want[i].build_id);
    EXPECT_EQ(o.bias, want[i].bias);
    EXPECT_EQ(o.lo, want[i].lo);
    EXPECT_EQ(o.hi, want[i].hi);
    EXPECT_EQ(o.load_ns, want[i].load_ns);
    EXPECT_EQ(o.unload_ns, want[i].unload_ns);
    EXPECT_EQ(o.symbol_file(), o.path);  // no archived copy replaces it
  }
  // Load and unload times decide which object a pc belonged to at a given time.
  EXPECT_EQ(e.object_at(0x7f0000001800, 300), &e.objects[0]);
  EXPECT_EQ(e.object_at(0x7f0000001800, 650), &e.objects[3]);
  EXPECT_EQ(e.object_at(0x7f0000002800, 650), &e.objects[0]);  // nothing live there: the last known
  EXPECT_EQ(e.object_at(0x555555556000, 10), &e.objects[2]);
  EXPECT_EQ(e.object_at(0x555555559000, 10), nullptr);  // hi is exclusive
}

TEST_F(RoundTripTest, DataRecordsAndStacks) {
  uint64_t s_main, s_leaf, s_again;
  {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    s_main = w.stack({0x401100, 0x401000});
    s_leaf = w.stack({0x401200, 0x401100, 0x401000});
    s_again = w.stack({0x401100, 0x401000});  // the same stack: stored once
    format::ClockSampleRecord c{};
    c.tid = 100;
    c.tstamp_ns = 20000000;
    c.stack_id = s_leaf;
    c.cpu = 3;
    c.flags = format::kClockFlagMainThread;
    for (uint32_t i = 0; i < format::kMsCount; ++i) c.ns[i] = 1000000u * (i + 1) + i;
    w.clock_sample(c);
    c.tid = 101;
    c.tstamp_ns = 10000000;  // earlier than the first: the reader orders by time
    c.stack_id = s_main;
    c.cpu = -1;
    c.flags = format::kClockFlagBlockedSample;
    for (uint32_t i = 0; i < format::kMsCount; ++i) c.ns[i] = i == format::kMsOtherWait ? 10007000 : 0;
    w.clock_sample(c);
    format::OverviewSampleRecord ov{};
    ov.reason = format::kSampleApi;
    ov.tstamp_ns = 15000000;
    ov.number = 2;
    ov.nthreads = 2;
    ov.utime_ns = 11;
    ov.stime_ns = 12;
    ov.minflt = 13;
    ov.majflt = 14;
    ov.nvcsw = 15;
    ov.nivcsw = 16;
    ov.inblock = 17;
    ov.oublock = 18;
    ov.maxrss_kb = 19;
    ov.rss_kb = 20;
    ov.read_bytes = -1;
    ov.write_bytes = 22;
    std::strcpy(ov.label, "phase two");
    w.overview_sample(ov);
    w.heap_event({3000, s_leaf, 4096, 0x5000, 0x4000, 100, format::kHeapRealloc, 77});
    w.sync_event({0, 101, 4000, s_main, format::kSyncMutex, 0, 2500000, 0x601040});
    w.io_event({0, 100, 5000, s_leaf, format::kIoRead, 7, 12345, -1, 2, 0});
    w.mpi_event({0, 100, 6000, s_leaf, format::kMpi_Bcast, 4, 7000, 0, -1, 4, 1, 4096, 1024});
  }
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  EXPECT_EQ(e.incomplete_records, 0u);

  EXPECT_EQ(s_again, s_main);
  ASSERT_EQ(e.stacks.size(), 2u);
  EXPECT_EQ(e.stacks.at(s_main), (std::vector<uint64_t>{0x401100, 0x401000}));
  EXPECT_EQ(e.stacks.at(s_leaf), (std::vector<uint64_t>{0x401200, 0x401100, 0x401000}));

  ASSERT_EQ(e.clock.size(), 2u);
  const ClockSample& a = e.clock[0];
  EXPECT_EQ(a.tstamp_ns, 10000000u);
  EXPECT_EQ(a.tid, 101u);
  EXPECT_EQ(a.stack_id, s_main);
  EXPECT_EQ(a.cpu, -1);
  EXPECT_EQ(a.flags, format::kClockFlagBlockedSample);
  for (uint32_t i = 0; i < format::kMsCount; ++i) EXPECT_EQ(a.ns[i], i == format::kMsOtherWait ? 10007000u : 0u) << i;
  const ClockSample& b = e.clock[1];
  EXPECT_EQ(b.tstamp_ns, 20000000u);
  EXPECT_EQ(b.tid, 100u);
  EXPECT_EQ(b.stack_id, s_leaf);
  EXPECT_EQ(b.cpu, 3);
  EXPECT_EQ(b.flags, format::kClockFlagMainThread);
  for (uint32_t i = 0; i < format::kMsCount; ++i) EXPECT_EQ(b.ns[i], 1000000u * (i + 1) + i) << i;

  ASSERT_EQ(e.samples.size(), 1u);
  const format::OverviewSampleRecord& o = e.samples[0].rec;
  EXPECT_EQ(o.word, format::make_record_word(format::kRecOverviewSample, sizeof o));
  EXPECT_EQ(o.reason, format::kSampleApi);
  EXPECT_EQ(o.tstamp_ns, 15000000u);
  EXPECT_EQ(o.number, 2u);
  EXPECT_EQ(o.nthreads, 2u);
  EXPECT_EQ(std::vector<int64_t>({o.utime_ns, o.stime_ns, o.minflt, o.majflt, o.nvcsw, o.nivcsw, o.inblock,
                                  o.oublock, o.maxrss_kb, o.rss_kb, o.read_bytes, o.write_bytes}),
            std::vector<int64_t>({11, 12, 13, 14, 15, 16, 17, 18, 19, 20, -1, 22}));
  EXPECT_STREQ(o.label, "phase two");

  ASSERT_EQ(e.mpi.size(), 1u);
  const format::MpiEventRecord& m = e.mpi[0];
  EXPECT_EQ(m.word, format::make_record_word(format::kRecMpiEvent, sizeof m));
  EXPECT_EQ(std::vector<int64_t>({m.tid, int64_t(m.tstamp_ns), int64_t(m.stack_id), m.function, m.comm_size,
                                  int64_t(m.duration_ns), m.peer, m.tag, m.sends, m.receives,
                                  int64_t(m.bytes_sent), int64_t(m.bytes_received)}),
            std::vector<int64_t>({100, 6000, int64_t(s_leaf), format::kMpi_Bcast, 4, 7000, 0, -1, 4, 1, 4096, 1024}));

  ASSERT_EQ(e.heap.size(), 1u);
  const format::HeapEvent& h = e.heap[0];
  EXPECT_EQ(h.tid, 100u);
  EXPECT_EQ(h.tstamp_ns, 3000u);
  EXPECT_EQ(h.stack_id, s_leaf);
  EXPECT_EQ(h.op, format::kHeapRealloc);
  EXPECT_EQ(h.duration_ns, 77u);
  EXPECT_EQ(h.size, 4096u);
  EXPECT_EQ(h.address, 0x5000u);
  EXPECT_EQ(h.old_address, 0x4000u);

  ASSERT_EQ(e.sync.size(), 1u);
  const format::SyncEventRecord& s = e.sync[0];
  EXPECT_EQ(s.tid, 101u);
  EXPECT_EQ(s.tstamp_ns, 4000u);
  EXPECT_EQ(s.stack_id, s_main);
  EXPECT_EQ(s.op, format::kSyncMutex);
  EXPECT_EQ(s.wait_ns, 2500000u);
  EXPECT_EQ(s.object, 0x601040u);

  ASSERT_EQ(e.io.size(), 1u);
  const format::IoEventRecord& io = e.io[0];
  EXPECT_EQ(io.tid, 100u);
  EXPECT_EQ(io.tstamp_ns, 5000u);
  EXPECT_EQ(io.stack_id, s_leaf);
  EXPECT_EQ(io.op, format::kIoRead);
  EXPECT_EQ(io.fd, 7);
  EXPECT_EQ(io.duration_ns, 12345u);
  EXPECT_EQ(io.bytes, -1);
  EXPECT_EQ(io.file_id, 2u);
}

// Issue 16: the periodic samples collect takes from outside (overview.outside) are merged with
// the collector's in time order and numbered 1..N; one taken after the collector's end sample
// (while it was ending) is dropped.
TEST_F(RoundTripTest, OutsidePeriodicSamplesMergeWithTheCollectorsInTimeOrder) {
  auto sample = [](uint32_t reason, uint64_t t, uint32_t number) {
    format::OverviewSampleRecord r{};
    r.reason = reason;
    r.tstamp_ns = t;
    r.number = number;
    r.nthreads = 1;
    r.utime_ns = int64_t(t);
    return r;
  };
  {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    w.overview_sample(sample(format::kSampleStart, 0, 1));
    w.overview_sample(sample(format::kSampleApi, 150, 2));
    w.overview_sample(sample(format::kSampleEnd, 300, 3));
  }
  {
    const std::string other = root_ + "/o.er";  // collect's file, written in its own layout
    format::HostExperimentWriter w(other);
    ASSERT_TRUE(w.ok()) << w.error();
    w.overview_sample(sample(format::kSamplePeriodic, 100, 1));
    w.overview_sample(sample(format::kSamplePeriodic, 200, 2));
    w.overview_sample(sample(format::kSamplePeriodic, 310, 3));  // after the end sample
    w.finish();
    fs::rename(other + "/overview", file("overview.outside"));
  }
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  std::vector<std::pair<uint32_t, uint64_t>> got;
  for (const auto& s : e.samples) got.push_back({s.rec.reason, s.rec.tstamp_ns});
  const std::vector<std::pair<uint32_t, uint64_t>> want = {{format::kSampleStart, 0},
                                                           {format::kSamplePeriodic, 100},
                                                           {format::kSampleApi, 150},
                                                           {format::kSamplePeriodic, 200},
                                                           {format::kSampleEnd, 300}};
  EXPECT_EQ(got, want);
  for (size_t i = 0; i < e.samples.size(); ++i) EXPECT_EQ(e.samples[i].rec.number, i + 1);
  // Without the file: the collector's samples alone.
  fs::remove(file("overview.outside"));
  EXPECT_EQ(open().samples.size(), 3u);
}

TEST_F(RoundTripTest, EveryHeapOperationInItsCompactRecord) {
  using format::HeapEvent;
  std::vector<HeapEvent> in = {
      {1000, 0, 100, 0x1000, 0, 5, format::kHeapMalloc, 0},
      {2000, 0, 0, 0x1000, 0, 6, format::kHeapFree, 0},
      {3000, 0, 200, 0x3000, 0x2000, 5, format::kHeapRealloc, 40},
      {4000, 0, 8192, 0x7f0000, 0, 5, format::kHeapMmap, 0},
      {5000, 0, 4096, 0x7f0000, 0, 6, format::kHeapMunmap, 0},
      {6000, 0, 1016, 0, 0, 7, format::kHeapJavaAlloc, 0},
      {7000, 0, 24, 0, 0, 7, format::kHeapJavaSample, 0, 16384},
  };
  {
    format::HostExperimentWriter w(dir_);
    uint64_t s = w.stack({0x401000});
    for (HeapEvent& h : in) {
      if (h.op != format::kHeapFree && h.op != format::kHeapMunmap) h.stack_id = s;
      w.heap_event(h);
    }
  }
  // Record sizes: alloc 40, free 24, realloc 56, mmap 40, munmap 40, Java alloc 40, Java sample 40.
  EXPECT_EQ(fs::file_size(file("heaptrace")), format::kHeaderSize + format::kBlockSize);
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  ASSERT_EQ(e.heap.size(), in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const HeapEvent &a = e.heap[i], &b = in[i];
    EXPECT_EQ(std::vector<uint64_t>({a.tstamp_ns, a.stack_id, a.size, a.address, a.old_address, a.tid, a.op,
                                     a.duration_ns, a.interval}),
              std::vector<uint64_t>({b.tstamp_ns, b.stack_id, b.size, b.address, b.old_address, b.tid, b.op,
                                     b.duration_ns, b.interval}))
        << i;
  }
  EXPECT_EQ(format::heap_record_size(format::kHeapMalloc) + format::heap_record_size(format::kHeapFree), 64u);
}

TEST_F(RoundTripTest, ManyRecordsAcrossBlocksComeBackInOrder) {
  // 3000 clock samples (five blocks of 744), 600 distinct stacks of 1..60 frames and a second
  // reference to each: every record of every block is read, each stack once.
  std::vector<uint64_t> ids;
  {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    for (uint32_t s = 0; s < 600; ++s) {
      std::vector<uint64_t> pcs(1 + s % 60);
      for (size_t i = 0; i < pcs.size(); ++i) pcs[i] = 0x400000 + s * 0x1000 + i * 8;
      ids.push_back(w.stack(pcs));
      EXPECT_EQ(w.stack(pcs), ids.back());
    }
    for (uint32_t i = 0; i < 3000; ++i) {
      format::ClockSampleRecord c{};
      c.tid = 1 + i % 4;
      c.tstamp_ns = uint64_t(i) * 1000;
      c.stack_id = ids[i % ids.size()];
      c.cpu = int32_t(i % 16);
      c.ns[format::kMsUser] = i;
      w.clock_sample(c);
    }
  }
  EXPECT_EQ(fs::file_size(file("profile")), format::kHeaderSize + 5 * format::kBlockSize);
  Experiment e = open();
  EXPECT_EQ(problems_of(e), std::vector<std::string>{});
  ASSERT_EQ(e.stacks.size(), 600u);
  for (uint32_t s = 0; s < 600; ++s) {
    const auto& pcs = e.stacks.at(ids[s]);
    ASSERT_EQ(pcs.size(), 1 + s % 60) << s;
    EXPECT_EQ(pcs.back(), 0x400000 + s * 0x1000 + (pcs.size() - 1) * 8) << s;
  }
  ASSERT_EQ(e.clock.size(), 3000u);
  for (uint32_t i = 0; i < 3000; ++i) {
    const ClockSample& c = e.clock[i];
    ASSERT_EQ(c.tstamp_ns, uint64_t(i) * 1000) << i;
    EXPECT_EQ(c.tid, 1 + i % 4) << i;
    EXPECT_EQ(c.stack_id, ids[i % ids.size()]) << i;
    EXPECT_EQ(c.cpu, int32_t(i % 16)) << i;
    EXPECT_EQ(c.ns[format::kMsUser], i) << i;
  }
}

}  // namespace
}  // namespace erkit::reader
