// Issue 18's property: thread_select, sample_select, filters and object_hide change every
// report consistently. One multi-threaded synthetic experiment with clock, heap, I/O and sync
// data; for every selection tried, each trace report's rows sum to its <Total>, and that
// <Total> equals the function list's <Total> of the same metrics under that selection.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "synthetic_experiment.h"
#include "views/json.h"

namespace erkit::erprint {
namespace {

constexpr const char* kMetrics[] = {"sync",       "syncn",      "iotime",     "ioreadbytes", "iowritebytes",
                                    "ioreadcnt",  "iowritecnt", "ioothercnt", "alloc",       "balloc",
                                    "leak",       "bleak",      "total"};

class SelectionConsistency : public testing::SessionFixture {
 protected:
  void SetUp() override {
    testing::Synthetic s;
    // Threads: 1000 (the process, thread 1), 1001 (thread 2), 1002 (thread 3).
    s.clock = {"main;solve;kernel 6", "main;solve 3 tid=1001 cpu=1", "main;init 2 tid=1002 cpu=2",
               "main;work 4 tid=1001"};
    s.heap = {"main;solve;kernel 3 size=1024 freed=1 tid=1001", "main;init 2 size=100",
              "main;work 4 size=64 freed=2 tid=1002"};
    s.io = {"main;solve 4 op=read bytes=512 ns=2000 file=/tmp/a.dat tid=1001",
            "main;init 1 op=write bytes=64 ns=500 file=/tmp/b.dat", "main;work 2 op=open ns=300 file=/tmp/b.dat tid=1002",
            "main;work 3 op=write bytes=10 ns=700 file=/tmp/a.dat tid=1002"};
    s.sync = {"main;solve 2 ns=3000 object=0x7000 tid=1001", "main;init 1 ns=1000 object=0x8000",
              "main;work 3 ns=2000 object=0x7000 tid=1002"};
    // 15 clock samples of 10 ms, then one trace event per µs (9 + 5 frees, 10, 6): sample
    // points split the trace events into three samples.
    const uint64_t c = 150000000;
    s.samples = {{0, 0}, {c + 7000, 1}, {c + 22000, 2}, {c + 40000, 3}};
    add(s);
    open();
    run("outformat json\nlimit 0");
    std::string m;
    for (const char* k : kMetrics) m += std::string(m.empty() ? "" : ":") + "e." + k;
    run("metrics " + m);
    ASSERT_TRUE(ok_) << last_error_;
  }
  json::Value data_of(const std::string& cmd) {
    std::string out = run(cmd);
    EXPECT_TRUE(ok_) << cmd << ": " << last_error_;
    while (!out.empty() && out.back() == '\n') out.pop_back();
    out = out.substr(out.rfind('\n') == std::string::npos ? 0 : out.rfind('\n') + 1);
    json::Value v;
    std::string error;
    EXPECT_TRUE(json::parse(out, &v, &error)) << cmd << ": " << error << "\n" << out;
    return v["data"];
  }
  // The function list's <Total> per metric.
  std::map<std::string, int64_t> function_totals() {
    const json::Value d = data_of("functions");
    std::map<std::string, int64_t> t;
    for (const auto& row : d["rows"].elements()) {
      if (row["name"].as_string() != "<Total>") continue;
      for (size_t i = 0; i < d["columns"].size(); ++i) t[d["columns"][i]["metric"].as_string()] = row["values"][i].as_int();
    }
    EXPECT_EQ(t.size(), std::size(kMetrics));
    return t;
  }

  // Checks every report against the function list under the current selection; returns the
  // function list's totals.
  std::map<std::string, int64_t> expect_consistent(const std::string& what) {
    SCOPED_TRACE(what);
    auto t = function_totals();

    const json::Value sync = data_of("syncstat");
    EXPECT_EQ(sync["total"]["wait_ns"].as_int(), t["sync"]);
    EXPECT_EQ(sync["total"]["waits"].as_int(), t["syncn"]);
    int64_t ns = 0, waits = 0;
    for (const auto& o : sync["objects"].elements()) ns += o["wait_ns"].as_int(), waits += o["waits"].as_int();
    EXPECT_EQ(ns, t["sync"]);
    EXPECT_EQ(waits, t["syncn"]);

    const std::vector<std::pair<const char*, const char*>> io_fields = {
        {"time_ns", "iotime"},  {"read_bytes", "ioreadbytes"}, {"write_bytes", "iowritebytes"},
        {"reads", "ioreadcnt"}, {"writes", "iowritecnt"},      {"other_calls", "ioothercnt"}};
    for (const char* cmd : {"ioactivity", "iodetail"}) {
      SCOPED_TRACE(cmd);
      const json::Value d = data_of(cmd);
      for (const auto& [field, metric] : io_fields) {
        EXPECT_EQ(d["total"][field].as_int(), t[metric]) << field;
        int64_t sum = 0;
        for (const auto& f : d["files"].elements()) sum += f[field].as_int();
        EXPECT_EQ(sum, t[metric]) << field;
      }
    }
    const json::Value stacks = data_of("iocallstack");
    for (const auto& [field, metric] : io_fields) {
      EXPECT_EQ(stacks["total"][field].as_int(), t[metric]) << field;
      int64_t sum = 0;
      for (const auto& s : stacks["stacks"].elements()) sum += s[field].as_int();
      EXPECT_EQ(sum, t[metric]) << field;
    }
    const json::Value st = data_of("iostat");
    EXPECT_EQ(st["read"]["calls"].as_int(), t["ioreadcnt"]);
    EXPECT_EQ(st["write"]["calls"].as_int(), t["iowritecnt"]);
    EXPECT_EQ(st["other"]["calls"].as_int(), t["ioothercnt"]);
    EXPECT_EQ(st["read"]["time_ns"].as_int() + st["write"]["time_ns"].as_int() + st["other"]["time_ns"].as_int(),
              t["iotime"]);

    for (const auto& [cmd, count, bytes] : std::vector<std::tuple<const char*, const char*, const char*>>{
             {"leaks", "leak", "bleak"}, {"allocs", "alloc", "balloc"}}) {
      SCOPED_TRACE(cmd);
      const json::Value d = data_of(cmd);
      EXPECT_EQ(d["summary"]["instances"].as_int(), t[count]);
      EXPECT_EQ(d["summary"]["bytes"].as_int(), t[bytes]);
      int64_t n = 0, b = 0;
      for (const auto& e : d["entries"].elements()) n += e["count"].as_int(), b += e["bytes"].as_int();
      EXPECT_EQ(n, t[count]);
      EXPECT_EQ(b, t[bytes]);
    }
    const json::Value heap = data_of("heapstat");
    EXPECT_EQ(heap["allocations"]["count"].as_int(), t["alloc"]);
    EXPECT_EQ(heap["allocations"]["bytes"].as_int(), t["balloc"]);
    EXPECT_EQ(heap["leaks"]["count"].as_int(), t["leak"]);
    EXPECT_EQ(heap["leaks"]["bytes"].as_int(), t["bleak"]);
    return t;
  }
};

TEST_F(SelectionConsistency, EveryThreadAndSampleSelection) {
  const auto all = expect_consistent("all");
  // Ground truth of the whole experiment (a test that cannot fail is worse than none).
  EXPECT_EQ(all.at("sync"), 2 * 3000 + 1000 + 3 * 2000);
  EXPECT_EQ(all.at("balloc"), 3 * 1024 + 2 * 100 + 4 * 64);
  EXPECT_EQ(all.at("iotime"), 4 * 2000 + 500 + 2 * 300 + 3 * 700);
  const std::vector<std::string> threads = {"1", "2", "3", "1,2", "1,3", "2,3"};
  const std::vector<std::string> samples = {"all", "1", "2", "3", "4", "1,3", "2-4"};
  std::map<std::string, int64_t> sync_by_thread;
  for (const auto& th : threads)
    for (const auto& sa : samples) {
      run("thread_select " + th + "\nsample_select " + sa);
      ASSERT_TRUE(ok_) << last_error_;
      auto t = expect_consistent("thread_select " + th + ", sample_select " + sa);
      if (sa == "all") sync_by_thread[th] = t["sync"];
    }
  // The selections do select: thread 2 (tid 1001) waited 2 × 3 µs, thread 3 3 × 2 µs.
  EXPECT_EQ(sync_by_thread["1"], 1000);
  EXPECT_EQ(sync_by_thread["2"], 6000);
  EXPECT_EQ(sync_by_thread["3"], 6000);
  EXPECT_EQ(sync_by_thread["2,3"], 12000);
}

TEST_F(SelectionConsistency, FiltersAndHiddenObjects) {
  const auto all = expect_consistent("all");
  run("filters THRID==3");
  ASSERT_TRUE(ok_) << last_error_;
  auto t = expect_consistent("filters THRID==3");
  EXPECT_EQ(t["sync"], 6000);
  EXPECT_EQ(t["balloc"], 4 * 64);
  EXPECT_EQ(t["leak"], 2);
  run("filters LWPID==1001 && SAMPLE==2");
  ASSERT_TRUE(ok_) << last_error_;
  expect_consistent("filters LWPID==1001 && SAMPLE==2");
  run("filters 1\nobject_hide libsynth.so");
  ASSERT_TRUE(ok_) << last_error_;
  EXPECT_EQ(expect_consistent("object_hide libsynth.so"), all);
  run("thread_select 2");
  t = expect_consistent("object_hide libsynth.so, thread_select 2");
  EXPECT_EQ(t["iotime"], 4 * 2000);
}

}  // namespace
}  // namespace erkit::erprint
