// End-to-end heap tracing (collect -H on): leak and allocation counts and bytes must be exact
// against what the purpose-built programs do (tests/programs/trace_leaks.c and friends).
#include "trace_util.h"

namespace erkit::e2e {
namespace {

using HeapTrace = TraceTest;

TEST_F(HeapTrace, ExactLeaksFromTwoStacks) {
  auto c = collect("-H on " + program("trace_leaks"));
  ASSERT_EQ(c.status, 0) << c.err;
  auto p = er_print("-leaks test.1.er");
  ASSERT_EQ(p.status, 0) << p.err;
  auto r = parse_heap_report(p.out);
  EXPECT_EQ(r.distinct, 2) << p.out;
  EXPECT_EQ(r.instances, 37 + 5) << p.out;
  EXPECT_EQ(r.bytes, 37 * 100 + 5 * 1000) << p.out;
  ASSERT_EQ(r.blocks.size(), 2u) << p.out;
  // Most bytes first: the five 1000-byte leaks, then the 37 of 100 bytes.
  EXPECT_EQ(r.blocks[0].instances, 5);
  EXPECT_EQ(r.blocks[0].bytes, 5000);
  EXPECT_EQ(r.blocks[1].instances, 37);
  EXPECT_EQ(r.blocks[1].bytes, 3700);
  // Each stack starts at the interposed function, then the program's call site and callers.
  ASSERT_GE(r.blocks[0].frames.size(), 3u) << p.out;
  EXPECT_EQ(r.blocks[0].frames[0], "malloc");
  EXPECT_EQ(r.blocks[0].frames[1], "leak_big");
  EXPECT_EQ(r.blocks[0].frames[2], "main");
  ASSERT_GE(r.blocks[1].frames.size(), 2u) << p.out;
  EXPECT_EQ(r.blocks[1].frames[1], "leak_small");
  // The function list carries the same numbers as metrics.
  auto f = er_print("-metrics i.leak:i.bleak:e.alloc -functions test.1.er");
  auto rows = parse_function_list(f.out);
  ASSERT_TRUE(rows.count("leak_big") && rows.count("leak_small")) << f.out;
  EXPECT_EQ(rows["leak_big"].values[0], 5);
  EXPECT_EQ(rows["leak_big"].values[1], 5000);
  EXPECT_EQ(rows["leak_small"].values[0], 37);
  EXPECT_EQ(rows["<Total>"].values[1], 8700);
}

TEST_F(HeapTrace, EveryAllocationFunctionIsCountedExactly) {
  ASSERT_EQ(collect("-H on " + program("trace_leaks")).status, 0);
  auto p = er_print("-allocs test.1.er");
  ASSERT_EQ(p.status, 0) << p.err;
  auto r = parse_heap_report(p.out);
  // 37 + 5 leaked, 1000 churned, 12 in every_function.
  EXPECT_EQ(r.instances, 37 + 5 + 1000 + 12) << p.out;
  EXPECT_EQ(r.bytes, 3700 + 5000 + 64000 + 6929) << p.out;
  const HeapBlock* churn = nullptr;
  long every_n = 0, every_bytes = 0;
  std::map<std::string, long> leaf_bytes;  // by allocation function, within every_function
  for (const auto& b : r.blocks) {
    if (b.has("churn")) churn = &b;
    if (b.has("every_function")) {
      every_n += b.instances;
      every_bytes += b.bytes;
      leaf_bytes[b.frames[0]] += b.bytes;
    }
  }
  ASSERT_NE(churn, nullptr) << p.out;
  EXPECT_EQ(churn->instances, 1000);
  EXPECT_EQ(churn->bytes, 64000);
  EXPECT_EQ(every_n, 12) << p.out;
  EXPECT_EQ(every_bytes, 300 + 50 + 5000 + 20 + 100 + 128 + 512 + 96 + 300 + 400 + 13 + 10) << p.out;
  EXPECT_EQ(leaf_bytes["calloc"], 300);
  EXPECT_EQ(leaf_bytes["realloc"], 50 + 5000 + 20);
  EXPECT_EQ(leaf_bytes["reallocarray"], 100);
  EXPECT_EQ(leaf_bytes["memalign"], 128);
  EXPECT_EQ(leaf_bytes["aligned_alloc"], 512);
  EXPECT_EQ(leaf_bytes["posix_memalign"], 96);
  EXPECT_EQ(leaf_bytes["valloc"], 300);
  EXPECT_EQ(leaf_bytes["pvalloc"], 400);
  EXPECT_EQ(leaf_bytes["malloc"], 13 + 10);  // strdup's malloc and a block realloc(p, 0) freed
}

TEST_F(HeapTrace, ThreadsLeakAndFreeEachOthersBlocksExactly) {
  ASSERT_EQ(collect("-H on " + program("trace_heap_threads") + " truth.txt").status, 0);
  ASSERT_EQ(file("truth.txt"), "threads 16\n");
  auto p = er_print("-leaks test.1.er");
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
  // The blocks handed to main and freed there, and every worker's churn, are not leaks.
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

TEST_F(HeapTrace, AllocationsBeforeMainAndBeforeTheCollectorsConstructor) {
  // trace_early allocates in a constructor (2 x 55, leaked) and in main (1 x 33, leaked).
  ASSERT_EQ(collect("-H on " + program("trace_early")).status, 0);
  auto r = parse_heap_report(er_print("-leaks test.1.er").out);
  long ctor = 0, in_main = 0;
  for (const auto& b : r.blocks) {
    if (b.has("in_constructor")) ctor += b.bytes;
    if (b.has("in_main")) in_main += b.bytes;
  }
  EXPECT_EQ(ctor, 2 * 55);
  EXPECT_EQ(in_main, 33);
  // libstdc++'s constructor allocates its exception emergency pool before the collector's
  // constructor runs (the program's libraries initialise before the preloaded collector):
  // the first allocation starts the collector, so it is traced.
  ASSERT_EQ(collect("-H on -o cxx.er " + program("trace_cxx_heap")).status, 0);
  auto cx = parse_heap_report(er_print("-leaks cxx.er").out);
  bool pool = false;
  long arrays = 0, array_bytes = 0;
  for (const auto& b : cx.blocks) {
    if (b.has("call_init") || b.has("_dl_init")) pool = true;
    if (b.has("make_array(int)")) {
      arrays += b.instances;
      array_bytes += b.bytes;
      EXPECT_TRUE(b.has("operator new[](unsigned long)") || b.has("operator new(unsigned long)"));
    }
  }
  EXPECT_TRUE(pool) << er_print("-leaks cxx.er").out;
  EXPECT_EQ(arrays, 10);
  EXPECT_EQ(array_bytes, 1000);
}

TEST_F(HeapTrace, ReportsRefuseExperimentsWithoutHeapData) {
  ASSERT_EQ(collect(program("trace_leaks")).status, 0);
  auto p = er_print("-leaks test.1.er");
  EXPECT_NE(p.status, 0);
  EXPECT_NE(p.err.find("no heap trace data"), std::string::npos) << p.err;
}

TEST_F(HeapTrace, HeapStatisticsMatchTheAllocations) {
  ASSERT_EQ(collect("-H on " + program("trace_leaks")).status, 0);
  auto p = er_print("-heapstat test.1.er");
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_EQ(stat_value(p.out, "Total allocations"), 1054) << p.out;
  EXPECT_EQ(stat_value(p.out, "Total leaks"), 42) << p.out;
  EXPECT_EQ(stat_value(p.out, "Largest allocation bytes"), 5000) << p.out;
  EXPECT_EQ(stat_value(p.out, "Smallest leaked bytes"), 100) << p.out;
}

}  // namespace
}  // namespace erkit::e2e
