#include "model/function_table.h"

#include <gtest/gtest.h>

namespace erkit::model {
namespace {

FunctionEntry fn(const std::string& name, ObjId obj, uint64_t addr = 0, uint64_t size = 0,
                 const std::string& file = "") {
  FunctionEntry e;
  e.name = e.short_name = name;
  e.object = obj;
  e.addr = addr;
  e.size = size;
  e.source_file = file;
  return e;
}

class FunctionTableTest : public ::testing::Test {
 protected:
  FunctionTable t_;
  ObjId prog_ = t_.intern_object("/bin/prog", "ab");
  ObjId lib_ = t_.intern_object("/lib/libx.so", "cd");
};

// Two `static work()` of a.c and b.c in one executable are two functions; each is found
// again by its address.
TEST_F(FunctionTableTest, SameNameAtTwoAddressesOfOneObjectIsTwoFunctions) {
  FuncId a = t_.intern(fn("work", prog_, 0x1100, 0x40, "/src/a.c"));
  FuncId b = t_.intern(fn("work", prog_, 0x1200, 0x40, "/src/b.c"));
  EXPECT_NE(a, b);
  EXPECT_EQ(t_.intern(fn("work", prog_, 0x1200, 0x40, "/src/b.c")), b);
  EXPECT_FALSE(t_.name_is_unique(a));
  EXPECT_FALSE(t_.name_is_unique_in_object(a));
  EXPECT_FALSE(t_.name_is_unique_in_object(b));
  // The same name in another object is another function, but unique in its object.
  FuncId l = t_.intern(fn("work", lib_, 0x1100, 0x40));
  EXPECT_NE(l, a);
  EXPECT_TRUE(t_.name_is_unique_in_object(l));
}

// Several symbols at one address (weak/strong, versioned names) are one function.
TEST_F(FunctionTableTest, AliasesAtOneAddressAreOneFunction) {
  FuncId a = t_.intern(fn("__libc_malloc", lib_, 0x9000, 0x100));
  EXPECT_EQ(t_.intern(fn("malloc", lib_, 0x9000, 0x100)), a);
  EXPECT_EQ(t_.at(a).name, "__libc_malloc");
  EXPECT_TRUE(t_.name_is_unique(a));
}

// A function seen only inlined (no address) merges with its out-of-line copy, whichever
// comes first; among same-named copies the inlined frame's file picks one.
TEST_F(FunctionTableTest, InlinedSightingsMergeWithTheOutOfLineCopy) {
  FuncId inl = t_.intern(fn("helper", prog_), "/src/h.h");
  EXPECT_EQ(t_.at(inl).addr, 0u);
  FuncId conc = t_.intern(fn("helper", prog_, 0x2000, 0x10, "/src/h.h"));
  EXPECT_EQ(conc, inl);
  EXPECT_EQ(t_.at(conc).addr, 0x2000u);
  EXPECT_EQ(t_.intern(fn("helper", prog_), "/src/h.h"), conc);

  FuncId a = t_.intern(fn("work", prog_, 0x1100, 0x40, "/src/a.c"));
  FuncId b = t_.intern(fn("work", prog_, 0x1200, 0x40, "/src/b.c"));
  EXPECT_EQ(t_.intern(fn("work", prog_), "/src/b.c"), b);
  EXPECT_EQ(t_.intern(fn("work", prog_), "b.c"), b);
  EXPECT_EQ(t_.intern(fn("work", prog_), "/src/a.c"), a);
  EXPECT_EQ(t_.intern(fn("work", prog_), "/src/other.c"), a) << "no match: the first";
  EXPECT_EQ(t_.intern(fn("work", prog_)), a);
  EXPECT_EQ(t_.size(), 3u + 3u);  // pseudo-functions, helper, two works
}

// Generated code is keyed by name: one name regenerated elsewhere stays one function, and a
// reused address with another name is another function.
TEST_F(FunctionTableTest, NamedInternKeysGeneratedCodeByName) {
  ObjId dyn = t_.intern_object("<dynamic functions>", "");
  FuncId f = t_.intern_named(fn("jit_a", dyn, 0x7000, 0x20));
  EXPECT_EQ(t_.intern_named(fn("jit_a", dyn, 0x8000, 0x20)), f);
  EXPECT_NE(t_.intern_named(fn("jit_b", dyn, 0x7000, 0x20)), f);
}

// Pseudo-functions (no object, no address) keep their fixed ids.
TEST_F(FunctionTableTest, PseudoFunctions) {
  EXPECT_EQ(t_.at(t_.total()).name, "<Total>");
  EXPECT_EQ(t_.at(t_.unknown()).name, "<Unknown>");
  EXPECT_EQ(t_.at(t_.truncated()).name, "<Truncated-stack>");
  FunctionEntry e = fn("<Unknown>", kNoObject);
  e.pseudo = true;
  EXPECT_EQ(t_.intern(e), t_.unknown());
}

}  // namespace
}  // namespace erkit::model
