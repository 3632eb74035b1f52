// End-to-end: the collector API (seed-spec §4.1) through libcollectorAPI.so, with and without
// the collector: pause/resume (idempotent, overriding per-thread resume), per-thread pause,
// named samples, dynamic functions (map + dyntext), a JIT's perf map, terminate.
#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

class CollectApi : public CollectTest {
 protected:
  // The program's own measurement of each phase (thread CPU time).
  std::map<std::string, double> truth() {
    std::map<std::string, double> t;
    std::istringstream in(read("truth.txt"));
    std::string name;
    double s;
    while (in >> name >> s) t[name] = s;
    return t;
  }
};

TEST_F(CollectApi, WithoutTheCollectorEveryCallIsANoOp) {
  auto r = run("cd " + dir_ + " && " + program("lifecycle_api") + " truth.txt");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(truth().size(), 8u);
}

TEST_F(CollectApi, PauseResumeThreadPauseAndTerminate) {
  auto c = collect("-S off " + program("lifecycle_api") + " truth.txt");
  ASSERT_EQ(c.status, 0) << c.err;
  auto t = truth();
  ASSERT_EQ(t.size(), 8u) << read("truth.txt");
  auto rows = user_seconds("test.1.er");
  // Recorded phases, within 40 ms of the program's own measurement, or two of the largest
  // samples (each end of a phase is as exact as the sample straddling it; under load late CPU
  // timers make samples longer than 10 ms).
  double edge = largest_cpu_sample_seconds(path("test.1.er"));
  for (const char* fn : {"work_recorded", "thread_resumed", "dyn_compute", "jit_compute"})
    EXPECT_NEAR(seconds_of(rows, fn), t[fn], std::max(0.04, 2 * edge + 0.01)) << fn << ", largest sample " << edge;
  // Paused (globally, per thread, per thread resumed while the process is paused), or after
  // the experiment ended: nothing.
  for (const char* fn : {"work_paused", "thread_paused", "thread_globally_paused", "work_after_end"})
    EXPECT_EQ(seconds_of(rows, fn), 0.0) << fn;

  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->log.collector_exit, "terminated");
  EXPECT_EQ(e->log.end_status, 0);  // the program went on and ended normally
  // pause, pause (ignored), resume; pause, resume around the globally paused thread.
  ASSERT_EQ(e->log.recording_changes.size(), 4u);
  std::vector<std::string> labels;
  for (const auto& s : e->samples)
    if (s.rec.reason == format::kSampleApi) labels.emplace_back(s.rec.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"begin", "after pause", "end of work"}));
  EXPECT_EQ(e->samples.back().rec.reason, format::kSampleEnd);
}

TEST_F(CollectApi, DynamicFunctionsKeepTheirCodeAndLines) {
  ASSERT_EQ(collect("-S off " + program("lifecycle_api") + " truth.txt").status, 0);
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  const reader::DynamicFunction* dyn = nullptr;
  const reader::DynamicFunction* jit = nullptr;
  for (const auto& f : e->dynamic_functions) {
    if (f.name == "dyn_compute") dyn = &f;
    if (f.name == "jit_compute") jit = &f;
  }
  ASSERT_TRUE(dyn && jit);
  EXPECT_EQ(dyn->alias, "copy of compute_template");
  EXPECT_EQ(dyn->source, "dyn_source.c");
  EXPECT_EQ(dyn->size, 256u);
  ASSERT_EQ(dyn->code.size(), 256u);  // copied at load time: it can be disassembled later
  EXPECT_NE(dyn->unload_ns, UINT64_MAX);
  EXPECT_EQ(dyn->line_at(0), 10u);
  EXPECT_EQ(dyn->line_at(20), 11u);
  EXPECT_TRUE(jit->from_jit_map);
  EXPECT_EQ(jit->size, 0x100u);
  EXPECT_TRUE(exists("test.1.er/jit.map"));
  // The copy in dyntext is exactly the code the program generated.
  std::string code = read("truth.txt.code");
  ASSERT_EQ(code.size(), 256u);
  EXPECT_TRUE(std::equal(code.begin(), code.end(), dyn->code.begin(),
                         [](char a, uint8_t b) { return uint8_t(a) == b; }));
}

}  // namespace
}  // namespace erkit::e2e
