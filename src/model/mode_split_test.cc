#include "model/mode_split.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "format/experiment_format.h"

namespace erkit::model {
namespace {

using format::kMsSystem;
using format::kMsUser;

struct Sample {
  uint64_t stack;
  bool in_syscall;
  uint64_t user, system;
};

// Runs samples of one thread through the splitter; returns (stack, state) -> ns charged.
std::map<std::pair<uint64_t, uint32_t>, uint64_t> charge(const std::vector<Sample>& samples) {
  ModeSplitter m;
  std::map<std::pair<uint64_t, uint32_t>, uint64_t> out;
  std::vector<ModeSplitter::Share> moved;
  uint64_t t = 0;
  for (const Sample& s : samples) {
    uint64_t ns[format::kMsCount] = {};
    ns[kMsUser] = s.user;
    ns[kMsSystem] = s.system;
    moved.clear();
    m.split(7, t += 10, s.stack, s.in_syscall, ns, &moved);
    out[{s.stack, kMsUser}] += ns[kMsUser];
    out[{s.stack, kMsSystem}] += ns[kMsSystem];
    for (const auto& sh : moved) out[{sh.stack_id, sh.state}] += sh.ns;
  }
  moved.clear();
  m.finish(&moved);
  for (const auto& sh : moved) out[{sh.stack_id, sh.state}] += sh.ns;
  return out;
}

uint64_t at(std::map<std::pair<uint64_t, uint32_t>, uint64_t>& c, uint64_t stack, uint32_t state) {
  return c[{stack, state}];
}

// A read-then-hash loop: stack 1 = hash (user code), stack 2 = read (in a system call).
TEST(ModeSplitter, SystemTimeGoesToTheSystemCallStackUserTimeToUserCode) {
  auto c = charge({{1, false, 8, 3}, {2, true, 6, 4}, {1, false, 9, 2}, {1, false, 7, 5}, {2, true, 5, 5}});
  // Totals are unchanged.
  EXPECT_EQ(at(c, 1, kMsUser) + at(c, 2, kMsUser), 8u + 6 + 9 + 7 + 5);
  EXPECT_EQ(at(c, 1, kMsSystem) + at(c, 2, kMsSystem), 3u + 4 + 2 + 5 + 5);
  // The hash gets no System time: the first sample's 3 waited for the first syscall stack.
  EXPECT_EQ(at(c, 1, kMsSystem), 0u);
  EXPECT_EQ(at(c, 2, kMsSystem), 19u);
  // read gets no User time: its samples' user time went to the latest user-code stack.
  EXPECT_EQ(at(c, 2, kMsUser), 0u);
  EXPECT_EQ(at(c, 1, kMsUser), 35u);
}

TEST(ModeSplitter, TimeWithNoStackOfItsModeStaysWhereItWasSampled) {
  auto c = charge({{1, false, 8, 3}, {3, false, 2, 1}});
  EXPECT_EQ(at(c, 1, kMsSystem), 3u);
  EXPECT_EQ(at(c, 3, kMsSystem), 1u);
  EXPECT_EQ(at(c, 1, kMsUser), 8u);
}

TEST(ModeSplitter, ThreadsAreSplitApart) {
  ModeSplitter m;
  std::vector<ModeSplitter::Share> moved;
  uint64_t a[format::kMsCount] = {5, 0}, b[format::kMsCount] = {4, 6};
  m.split(1, 10, 100, true, a, &moved);  // thread 1 in a system call at stack 100
  m.split(2, 20, 200, false, b, &moved);  // thread 2's system time must not go to stack 100
  m.finish(&moved);
  for (const auto& s : moved) {
    if (s.tid == 2) {
      EXPECT_EQ(s.stack_id, 200u);
    }
  }
}

}  // namespace
}  // namespace erkit::model
