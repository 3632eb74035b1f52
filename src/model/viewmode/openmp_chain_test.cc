// The fork-stack relation of nested regions and tasks, from region and task records.
#include "model/viewmode/openmp_chain.h"

#include <gtest/gtest.h>

namespace erkit::model::viewmode {
namespace {

format::OmpRegionRecord region(uint64_t id, uint64_t parent, uint64_t stack) {
  format::OmpRegionRecord r{};
  r.region_id = id;
  r.parent_id = parent;
  r.stack_id = stack;
  return r;
}

TEST(OpenMpChain, NestedRegionsAndTasks) {
  reader::Experiment e;
  e.omp_regions = {region(1, 0, 100), region(2, 1, 200), region(3, 1, 200), region(4, 0, 100)};
  format::OmpTaskRecord t{};
  t.stack_id = 300;
  t.region_id = 2;
  e.omp_tasks.push_back(t);
  ForkParents p = fork_parents(e);
  EXPECT_EQ(p.count(100), 0u);  // top level
  EXPECT_EQ(p.at(200).parent, 100u);
  EXPECT_FALSE(p.at(200).task);
  EXPECT_EQ(p.at(300).parent, 200u);
  EXPECT_TRUE(p.at(300).task);
  auto chain = fork_chain(p, 300);
  ASSERT_EQ(chain.size(), 3u);
  EXPECT_EQ(chain[0], std::make_pair(uint64_t(300), true));
  EXPECT_EQ(chain[1], std::make_pair(uint64_t(200), false));
  EXPECT_EQ(chain[2], std::make_pair(uint64_t(100), false));
  EXPECT_TRUE(fork_chain(p, 0).empty());
  EXPECT_EQ(fork_chain(p, 999).size(), 1u);  // a fork stack no record names: its own level only
  // A cycle (damaged records) ends the chain.
  p[100] = {300, false};
  EXPECT_EQ(fork_chain(p, 300).size(), 3u);
}

format::OmpTaskRecord task(uint32_t tid, uint64_t begin, uint64_t duration, uint32_t create_tid, uint64_t create_ns,
                           uint64_t stack, uint64_t region = 1) {
  format::OmpTaskRecord t{};
  t.tid = tid;
  t.tstamp_ns = begin;
  t.duration_ns = duration;
  t.create_tid = create_tid;
  t.create_ns = create_ns;
  t.stack_id = stack;
  t.region_id = region;
  return t;
}

// Tasks created in tasks: the creator is the innermost task the creating thread ran at the
// creation time, whatever order the records were written in (a task's record is written when it
// completes: children first).
TEST(OpenMpChain, TasksCreatedInTasks) {
  std::vector<format::OmpTaskRecord> t = {
      task(2, 150, 10, 2, 120, 500),    // 0: created by 3 (thread 2 runs 3 over 110..190)
      task(1, 200, 50, 2, 130, 500),    // 1: created by 3, run by thread 1
      task(2, 195, 5, 2, 192, 600),     // 2: created after 3 ended: by 4 (100..300), not 3
      task(2, 110, 80, 2, 105, 400),    // 3: created by 4
      task(2, 100, 200, 1, 50, 300),    // 4: created by the implicit task of thread 1
      task(3, 100, 10, 2, 300, 700),    // 5: created at 4's very end: by 4
      task(3, 400, 10, 1, 400, 700),    // 6: thread 1 runs 1 over 200..250 only: implicit task
      task(3, 500, 10, 9, 400, 700),    // 7: a thread that ran no task
  };
  std::vector<size_t> c = creating_tasks(t);
  std::vector<size_t> want = {3, 3, 4, 4, kNoTask, 4, kNoTask, kNoTask};
  EXPECT_EQ(c, want);

  reader::Experiment e;
  e.omp_regions = {region(1, 0, 100)};
  e.omp_tasks = t;
  ForkParents p = fork_parents(e);
  EXPECT_EQ(p.at(300).parent, 100u);  // 4: under the region
  EXPECT_EQ(p.at(400).parent, 300u);  // 3: under 4
  EXPECT_EQ(p.at(500).parent, 400u);  // 0, 1: under 3
  EXPECT_TRUE(p.at(500).task);
  auto chain = fork_chain(p, 500);
  ASSERT_EQ(chain.size(), 4u);
  EXPECT_EQ(chain[1], std::make_pair(uint64_t(400), true));
  EXPECT_EQ(chain[2], std::make_pair(uint64_t(300), true));
  EXPECT_EQ(chain[3], std::make_pair(uint64_t(100), false));
  // A task created at its creator's own creation point (the same stack): under the region.
  e.omp_tasks = {task(1, 100, 100, 1, 50, 800), task(2, 160, 10, 1, 150, 800)};
  EXPECT_EQ(fork_parents(e).at(800).parent, 100u);
}

}  // namespace
}  // namespace erkit::model::viewmode
