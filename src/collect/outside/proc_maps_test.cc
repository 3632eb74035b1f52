#include "collect/outside/proc_maps.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace erkit::collect::outside {
namespace {

// Captured from a PIE program with one shared library (trimmed).
const char* kMaps =
    "55d0c1a00000-55d0c1a01000 r--p 00000000 fd:01 123 /tmp/prog\n"
    "55d0c1a01000-55d0c1a02000 r-xp 00001000 fd:01 123 /tmp/prog\n"
    "55d0c1a03000-55d0c1a04000 rw-p 00002000 fd:01 123 /tmp/prog\n"
    "55d0c2000000-55d0c2021000 rw-p 00000000 00:00 0    [heap]\n"
    "7f1000000000-7f1000028000 r--p 00000000 fd:01 456 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
    "7f1000028000-7f10001bd000 r-xp 00028000 fd:01 456 /usr/lib/x86_64-linux-gnu/libc.so.6\n"
    "7f10001bd000-7f1000200000 rw-p 00000000 00:00 0 \n"
    "7f1000300000-7f1000301000 r-xp 00000000 fd:01 789 /tmp/gone.so (deleted)\n"
    "7f1000400000-7f1000401000 r--p 00001000 fd:01 790 /tmp/headerless.so\n"
    "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0    [stack]\n"
    "7ffd00100000-7ffd00102000 r-xp 00000000 00:00 0    [vdso]\n";

TEST(ProcMaps, GroupsMappingsByObjectAndKeepsOnlyPlaceableFiles) {
  auto objs = parse_proc_maps(kMaps);
  ASSERT_EQ(objs.size(), 3u);
  EXPECT_EQ(objs[0].path, "/tmp/prog");
  EXPECT_EQ(objs[0].lo, 0x55d0c1a00000u);
  EXPECT_EQ(objs[0].hi, 0x55d0c1a04000u);
  EXPECT_EQ(objs[0].first_start, 0x55d0c1a00000u);
  EXPECT_EQ(objs[1].path, "/usr/lib/x86_64-linux-gnu/libc.so.6");
  EXPECT_EQ(objs[1].hi, 0x7f10001bd000u);
  EXPECT_EQ(objs[2].path, "[vdso]");
}

TEST(ProcMaps, BiasOfThisProcessMatchesItsOwnMaps) {
  std::ifstream in("/proc/self/maps");
  std::stringstream ss;
  ss << in.rdbuf();
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  ASSERT_GT(n, 0);
  exe[n] = 0;
  bool found = false;
  for (const auto& o : parse_proc_maps(ss.str())) {
    if (o.path != exe) continue;
    found = true;
    // This function's address, less the bias, is its ELF address: inside the object's range.
    uint64_t bias = load_bias(o.path, o.first_start);
    uint64_t fn = uint64_t(reinterpret_cast<uintptr_t>(&parse_proc_maps));
    EXPECT_GE(fn, o.lo);
    EXPECT_LT(fn, o.hi);
    EXPECT_LT(fn - bias, o.hi - o.lo + 0x1000000u);  // a PIE: small ELF addresses
  }
  EXPECT_TRUE(found);
  EXPECT_EQ(load_bias("/nonexistent", 0x1000), 0x1000u);
}

}  // namespace
}  // namespace erkit::collect::outside
