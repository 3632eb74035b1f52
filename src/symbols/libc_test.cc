// glibc with its libc6-dbg debug file (found by build-id under /usr/lib/debug): local
// functions must carry the names perf shows for them.
#include <gtest/gtest.h>
#include <limits.h>
#include <stdlib.h>

#include <algorithm>
#include <string>

#include "symbols/symbols.h"

namespace erkit::symbols {
namespace {

std::string libc_path() {
  char buf[PATH_MAX];
  return realpath("/lib/x86_64-linux-gnu/libc.so.6", buf) ? buf : "";
}

class Libc : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = libc_path();
    if (path_.empty()) GTEST_SKIP() << "no x86-64 glibc here";
    std::string err;
    obj_ = cache_.get(path_, read_build_id(path_), &err);
    ASSERT_TRUE(obj_) << err;
    if (obj_->debug_file().empty()) GTEST_SKIP() << "libc6-dbg is not installed";
  }
  const FunctionInfo* find(const std::string& name) {
    for (const FunctionInfo& f : obj_->functions()) {
      if (f.name == name) return &f;
    }
    return nullptr;
  }
  static inline SymbolCache cache_;
  std::string path_;
  const ObjectSymbols* obj_ = nullptr;
};

TEST_F(Libc, DebugFileFoundByBuildId) {
  EXPECT_EQ(obj_->debug_file().rfind("/usr/lib/debug/.build-id/", 0), 0u) << obj_->debug_file();
  EXPECT_TRUE(obj_->has_dwarf());
}

TEST_F(Libc, QsortHelperIsAPartClone) {
  const FunctionInfo* f = find("msort_with_tmp.part.0");
  ASSERT_TRUE(f);
  std::vector<Frame> fr = obj_->lookup(f->addr + 8);
  ASSERT_FALSE(fr.empty());
  EXPECT_EQ(fr.back().name, "msort_with_tmp.part.0");
  EXPECT_EQ(fr.back().original, "msort_with_tmp");
  EXPECT_NE(fr.back().loc.file.find("msort.c"), std::string::npos) << fr.back().loc.file;
  EXPECT_GT(fr.back().loc.line, 0u);
}

TEST_F(Libc, StartCallMain) {
  const FunctionInfo* f = find("__libc_start_call_main");
  ASSERT_TRUE(f);
  EXPECT_NE(f->source_file.find("libc_start_call_main.h"), std::string::npos) << f->source_file;
  std::vector<Frame> fr = obj_->lookup(f->addr);
  ASSERT_FALSE(fr.empty());
  EXPECT_EQ(fr.back().name, "__libc_start_call_main");
}

TEST_F(Libc, AliasesPreferThePublicName) {
  const FunctionInfo* q = find("qsort");
  ASSERT_TRUE(q);
  EXPECT_NE(std::find(q->aliases.begin(), q->aliases.end(), "__GI_qsort"), q->aliases.end());
  const FunctionInfo* m = find("malloc");
  ASSERT_TRUE(m);
  EXPECT_NE(std::find(m->aliases.begin(), m->aliases.end(), "__libc_malloc"), m->aliases.end());
  EXPECT_EQ(obj_->lookup(m->addr + 2).back().name, "malloc");
}

// Issue 15: glibc's read is exported weak (read, __read) beside the strong __libc_read and the
// local __GI___libc_read; users know `read`, and no frame of its code names an alias.
TEST_F(Libc, ReadIsNamedReadWithoutAliasFrames) {
  const FunctionInfo* r = find("read");
  ASSERT_TRUE(r);
  EXPECT_NE(std::find(r->aliases.begin(), r->aliases.end(), "__libc_read"), r->aliases.end());
  for (uint64_t a = r->addr; a < r->addr + r->size; ++a)
    for (const Frame& f : obj_->lookup(a)) {
      EXPECT_EQ(f.name.find("__GI_"), std::string::npos) << std::hex << a;
      EXPECT_EQ(f.name.find("__libc_read"), std::string::npos) << std::hex << a;
    }
  EXPECT_EQ(obj_->lookup(r->addr + 1).back().name, "read");
}

TEST_F(Libc, InlinedFramesInsideQsort) {
  // Some PC of libc is inside inlined code with a caller chain; just check shape.
  size_t seen = 0;
  for (const FunctionInfo& f : obj_->functions()) {
    for (uint64_t a = f.addr; a < f.addr + f.size && seen < 50; a += 4) {
      std::vector<Frame> fr = obj_->lookup(a);
      if (fr.size() < 2) continue;
      ++seen;
      for (size_t i = 0; i + 1 < fr.size(); ++i) EXPECT_TRUE(fr[i].inlined);
      EXPECT_FALSE(fr.back().inlined);
      EXPECT_FALSE(fr[0].name.empty());
    }
    if (seen >= 50) break;
  }
  EXPECT_GE(seen, 50u);
}

}  // namespace
}  // namespace erkit::symbols
