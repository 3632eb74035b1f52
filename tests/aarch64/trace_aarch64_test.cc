// Tracing and descendants of aarch64 programs under qemu-user: heap tracing's exact counts from
// 16 threads (the interposers, stacks from unwind_from_here), I/O tracing's exact bytes and
// calls, and a forked child followed into
// its own experiment (the descendant machinery). exec'd descendants cannot run here: qemu-user
// executes an exec'd aarch64 program only where binfmt_misc registers it (docs/platforms.md).
#include "aarch64_fixture.h"
#include "trace_util.h"

namespace erkit::e2e {
namespace {

TEST_F(Aarch64, HeapTracingCountsExactlyFromManyThreads) {
  auto c = collect("-H on -p off " + arm_program("trace_heap_threads") + " truth.txt");
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  ASSERT_EQ(read("truth.txt"), "threads 16\n");
  auto p = er_print("-leaks test.1.er");
  ASSERT_EQ(p.status, 0) << p.err;
  auto r = parse_heap_report(p.out);
  long thread_leaks = 0, thread_bytes = 0, other = 0;
  for (const auto& b : r.blocks) {
    if (b.has("thread_leak")) {
      thread_leaks += b.instances;
      thread_bytes += b.bytes;
    } else if (!b.has("pthread_create")) {  // glibc keeps new threads' TLS vectors for reuse
      other += b.instances;
    }
  }
  EXPECT_EQ(thread_leaks, 16 * 3) << p.out;
  EXPECT_EQ(thread_bytes, 16 * 3 * 24) << p.out;
  EXPECT_EQ(other, 0) << p.out;
  auto a = parse_heap_report(er_print("-allocs test.1.er").out);
  long handed = 0, churned = 0;
  for (const auto& b : a.blocks) {
    if (b.has("hand_over")) handed += b.instances;
    else if (b.has("worker") && !b.has("thread_leak")) churned += b.instances;
  }
  EXPECT_EQ(handed, 16 * 100);
  EXPECT_EQ(churned, 16 * 2000);
}

// The I/O interposers: bytes and calls exact per file (tests/programs/trace_io.c's truth).
TEST_F(Aarch64, IoTracingCountsBytesAndCallsExactly) {
  auto c = collect("-i on -p off " + arm_program("trace_io"));
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  auto p = er_print("-ioactivity test.1.er");
  ASSERT_EQ(p.status, 0) << p.err;
  auto rows = parse_function_list(p.out);
  // Columns after the time: read bytes, reads, write bytes, writes, other calls, errors.
  auto row = [&](const std::string& name) {
    auto it = rows.find(name);
    return it == rows.end() ? std::vector<double>{} : it->second.values;
  };
  EXPECT_EQ(row("io_a.dat"), (std::vector<double>{row("io_a.dat").empty() ? -1 : row("io_a.dat")[0], 4000, 11, 3900, 6, 7, 0}))
      << p.out;
  EXPECT_EQ(row("io_b.txt"), (std::vector<double>{row("io_b.txt").empty() ? -1 : row("io_b.txt")[0], 159, 16, 159, 20, 4, 0}))
      << p.out;
}

TEST_F(Aarch64, ForkedChildIsFollowedIntoItsOwnExperiment) {
  auto c = collect("-F on " + arm_program("lifecycle_family") + " burn:60 fork:200");
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  ASSERT_TRUE(std::filesystem::exists(dir_ + "/test.1.er/_f1.er/log")) << c.out << c.err;
  auto child = functions("test.1.er/_f1.er");
  // The child's own work (its CPU clock under qemu), and none of the parent's.
  EXPECT_NEAR(at(child, "burn_forked"), 0.2, 0.2 * 0.25 + 0.02) << listing_;
  EXPECT_EQ(at(child, "burn_main"), 0) << listing_;
  // The founder alone: descendants are included by default (issue 15), en_desc off excludes them.
  auto founder = functions("test.1.er", "-en_desc off");
  EXPECT_GT(at(founder, "burn_main"), 0.03) << listing_;
  EXPECT_EQ(at(founder, "burn_forked"), 0) << listing_;
}

}  // namespace
}  // namespace erkit::e2e
