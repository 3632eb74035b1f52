#include <gtest/gtest.h>

#include <chrono>

#include "test_util.h"

namespace erkit::filter {
namespace {
using testing::eval_const;
using testing::must_parse;
using testing::VecNames;

struct Fixture : ::testing::Test {
  // ids:            0       1        2         3          4        5
  VecNames funcs{{"main", "foo", "foobar", "std::vector<int>::at", "bar", "_start"}};
  uint32_t stack[4] = {2, 4, 0, 5};  // foobar <- bar <- main <- _start
  EventView ev;
  Fixture() {
    ev.expid = 2;
    ev.pid = 4242;
    ev.rank = 3;
    ev.thrid = 3;
    ev.lwpid = 7;
    ev.cpuid = 1;
    ev.tstamp_ns = 2500000000;
    ev.sample = 5;
    ev.stack_funcs = stack;
  }
  bool m(std::string_view text) {
    Expr e = must_parse(text);
    std::string err;
    EXPECT_TRUE(e.bind(funcs, &err)) << err;
    return e.matches(ev);
  }
};

TEST_F(Fixture, EveryField) {
  EXPECT_TRUE(m("THRID == 3"));
  EXPECT_TRUE(m("LWPID == 7"));
  EXPECT_TRUE(m("CPUID == 1"));
  EXPECT_TRUE(m("LEAF == 2"));
  EXPECT_TRUE(m("TSTAMP >= 2000000000 && TSTAMP < 4000000000"));
  EXPECT_FALSE(m("TSTAMP < 2000000000"));
  EXPECT_TRUE(m("SAMPLE == 5"));
  EXPECT_TRUE(m("EXPID == 2"));
  EXPECT_TRUE(m("PID == 4242"));
  EXPECT_TRUE(m("RANK == 3"));
  EXPECT_TRUE(m("rank IN (1,3)"));
  EXPECT_FALSE(m("RANK == 0"));
  EXPECT_FALSE(m("THRID == 4"));
}

TEST_F(Fixture, ManualIdioms) {
  EXPECT_TRUE(m("LWPID IN (1,2,5,7)"));
  EXPECT_FALSE(m("LWPID IN (1,2,5)"));
  EXPECT_TRUE(m("SAMPLE IN (2,3,5)"));
  EXPECT_TRUE(m("LEAF IN FNAME(\"foo.*\")"));
  EXPECT_FALSE(m("LEAF IN FNAME(\"foo\")"));  // whole name must match
  EXPECT_TRUE(m("(FNAME(\"main\") SOME IN STACK)"));
  EXPECT_TRUE(m("(FNAME(\"ba.\") SOME IN STACK)"));
  EXPECT_FALSE(m("(FNAME(\"foo\") SOME IN STACK)"));
}

TEST_F(Fixture, InVersusSomeIn) {
  EXPECT_TRUE(m("(2, 4) IN STACK"));
  EXPECT_FALSE(m("(2, 3) IN STACK"));
  EXPECT_TRUE(m("(2, 3) SOME IN STACK"));
  EXPECT_FALSE(m("(1, 3) SOME IN STACK"));
  EXPECT_FALSE(m("STACK IN (0, 2, 4)"));  // _start (5) is missing
  EXPECT_TRUE(m("STACK IN (0, 2, 4, 5, 9)"));
  EXPECT_TRUE(m("STACK SOME IN (5)"));
  EXPECT_TRUE(m("FNAME(\"foo.*\") SOME IN STACK"));
  EXPECT_FALSE(m("FNAME(\"foo.*\") IN STACK"));  // foo (1) is not on the stack
  EXPECT_TRUE(m("FNAME(\"foob.*\") IN STACK"));
  EXPECT_TRUE(m("STACK SOME IN FNAME(\"_st.*\")"));
  EXPECT_TRUE(m("FNAME(\"main|foo\") SOME IN FNAME(\"m.*\")"));
  EXPECT_FALSE(m("FNAME(\"main|foo\") IN FNAME(\"m.*\")"));
  EXPECT_TRUE(m("FNAME(\"nothing\") IN STACK"));  // empty set is vacuously contained
  EXPECT_FALSE(m("FNAME(\"nothing\") SOME IN STACK"));
  EXPECT_TRUE(m("3 IN 3"));
  EXPECT_TRUE(m("THRID SOME IN (3)"));
}

TEST_F(Fixture, ScalarComparedWithSet) {
  EXPECT_TRUE(m("STACK == 5"));
  EXPECT_TRUE(m("5 == STACK"));
  EXPECT_TRUE(m("STACK != 6"));
  EXPECT_TRUE(m("LEAF == FNAME(\"foobar\")"));
  EXPECT_TRUE(m("LEAF != (1, 3)"));
}

TEST_F(Fixture, RegexIsPosixExtendedOnFullName) {
  EXPECT_TRUE(m("FNAME(\"std::vector<int>::at\") SOME IN (3)"));
  EXPECT_TRUE(m("FNAME(\"[a-z]+\") SOME IN (0)"));
  EXPECT_TRUE(m("FNAME(\"(foo|bar)\") IN (1, 4)"));
  EXPECT_TRUE(m("FNAME(\"fo+\\.?\") IN (1)"));
}

TEST_F(Fixture, UnboundSetsAreEmpty) {
  Expr e = must_parse("LEAF IN FNAME(\".*\")");
  EXPECT_TRUE(e.uses_functions());
  EXPECT_FALSE(e.matches(ev));
  std::string err;
  ASSERT_TRUE(e.bind(funcs, &err));
  EXPECT_TRUE(e.matches(ev));
  Expr copy = e;  // bound sets travel with copies
  EXPECT_TRUE(copy.matches(ev));
  VecNames other{{"x"}};
  ASSERT_TRUE(e.bind(other, &err));  // rebinding replaces the sets
  EXPECT_FALSE(e.matches(ev));
}

TEST_F(Fixture, DnameWithoutDataObjectsIsEmpty) {
  Expr e = must_parse("(DNAME(\".*\") SOME IN DOBJ)");
  EXPECT_TRUE(e.uses_dataspace());
  std::string err;
  ASSERT_TRUE(e.bind(funcs, nullptr, &err));
  ev.has_dataspace = true;
  ev.dobj = 0;
  EXPECT_FALSE(e.matches(ev));
  VecNames dobjs{{"struct foo", "int"}};
  ASSERT_TRUE(e.bind(funcs, &dobjs, &err));
  EXPECT_TRUE(e.matches(ev));
  ev.has_dataspace = false;  // non-dataspace packets never match dataspace filters
  EXPECT_FALSE(e.matches(ev));
}

TEST_F(Fixture, DataspaceFields) {
  ParseOptions o;
  o.memobj_names = {"Vpage_8K"};
  int64_t idx[] = {1234};
  ev.memobj_idx = idx;
  ev.vaddr = 0x7fff0000;
  ev.paddr = 0x1000;
  Expr e = must_parse("Vpage_8K == 1234 && VADDR >= 0x7fff0000 && PADDR < 0x2000", o);
  EXPECT_FALSE(e.matches(ev));  // no dataspace data
  ev.has_dataspace = true;
  EXPECT_TRUE(e.matches(ev));
  Expr idxe = must_parse("VADDR>255?VADDR>>13:-1");
  EXPECT_EQ(idxe.eval(ev), 0x7fff0000 >> 13);
  ev.vaddr = 10;
  EXPECT_EQ(idxe.eval(ev), -1);
  // A missing index slot reads as <Unknown>.
  ev.memobj_idx = {};
  EXPECT_EQ(must_parse("Vpage_8K", o).eval(ev), -1);
}

TEST_F(Fixture, EmptyStack) {
  ev.stack_funcs = {};
  EXPECT_TRUE(m("LEAF == -1"));
  EXPECT_FALSE(m("FNAME(\".*\") SOME IN STACK"));
  EXPECT_TRUE(m("STACK IN (1)"));  // vacuous
}

TEST(FilterEval, DivisionByZeroIsZero) {
  EXPECT_EQ(eval_const("7 / 0"), 0);
  EXPECT_EQ(eval_const("7 % 0"), 0);
  EXPECT_EQ(eval_const("-7 / 2"), -3);  // C truncation
  EXPECT_EQ(eval_const("-7 % 2"), -1);
  EXPECT_EQ(eval_const("(-9223372036854775807 - 1) / -1"), INT64_MIN);  // wraps, no trap
  EXPECT_EQ(eval_const("(-9223372036854775807 - 1) % -1"), 0);
}

TEST(FilterEval, OverflowAndShiftsAreDefined) {
  EXPECT_EQ(eval_const("9223372036854775807 + 1"), INT64_MIN);
  EXPECT_EQ(eval_const("-(-9223372036854775807 - 1)"), INT64_MIN);
  EXPECT_EQ(eval_const("1 << 63"), INT64_MIN);
  EXPECT_EQ(eval_const("1 << 64"), 0);
  EXPECT_EQ(eval_const("1 << -1"), 0);
  EXPECT_EQ(eval_const("-8 >> 1"), -4);
  EXPECT_EQ(eval_const("-8 >> 70"), -1);
  EXPECT_EQ(eval_const("8 >> 70"), 0);
}

TEST(FilterEval, LogicalOperatorsYieldZeroOrOne) {
  EXPECT_EQ(eval_const("5 && 7"), 1);
  EXPECT_EQ(eval_const("0 || 9"), 1);
  EXPECT_EQ(eval_const("!5"), 0);
  EXPECT_EQ(eval_const("3 < 4"), 1);
  // Short circuit: the division by zero on the right is not what decides the value.
  EXPECT_EQ(eval_const("0 && 1 / 0"), 0);
  EXPECT_EQ(eval_const("1 || 1 / 0"), 1);
}

TEST(FilterEval, MatchesIsNonZero) {
  EXPECT_TRUE(must_parse("2").matches(EventView{}));
  EXPECT_TRUE(must_parse("-1").matches(EventView{}));
  EXPECT_FALSE(must_parse("0").matches(EventView{}));
}

TEST(FilterEval, ManyEventsPerSecond) {
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i) names.push_back("func_" + std::to_string(i));
  VecNames funcs(names);
  Expr e = must_parse("THRID IN (1,3,5) && TSTAMP < 4000000000 && (FNAME(\"func_4.*\") SOME IN STACK)");
  std::string err;
  ASSERT_TRUE(e.bind(funcs, &err));
  uint32_t stack[16];
  for (uint32_t i = 0; i < 16; ++i) stack[i] = i * 300;
  EventView ev;
  ev.stack_funcs = stack;
  const auto t0 = std::chrono::steady_clock::now();
  int64_t hits = 0;
  constexpr int kEvents = 2'000'000;
  for (int i = 0; i < kEvents; ++i) {
    ev.thrid = static_cast<uint64_t>(i & 7);
    ev.tstamp_ns = static_cast<uint64_t>(i) * 3000;
    hits += e.matches(ev);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GT(hits, 0);
  // Generous bound (sanitizer/debug builds, shared machines); real rate is far higher.
  EXPECT_LT(secs, 10.0) << kEvents / secs << " events/s";
  RecordProperty("events_per_second", static_cast<int>(kEvents / secs));
}

}  // namespace
}  // namespace erkit::filter
