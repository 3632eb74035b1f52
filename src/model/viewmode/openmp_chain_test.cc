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

}  // namespace
}  // namespace erkit::model::viewmode
