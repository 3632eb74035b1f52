// Demangling and clone-name splitting on fixed strings.
#include <gtest/gtest.h>

#include "symbols/internal.h"
#include "symbols/symbols.h"

namespace erkit::symbols {
namespace {

TEST(Demangle, PlainCName) {
  Names n = demangle("compute");
  EXPECT_EQ(n.long_name, "compute");
  EXPECT_EQ(n.short_name, "compute");
  EXPECT_EQ(n.original_long, "");
}

TEST(Demangle, CClones) {
  EXPECT_EQ(demangle("msort_with_tmp.part.0").original_long, "msort_with_tmp");
  EXPECT_EQ(demangle("foo.constprop.0.isra.0").original_long, "foo");
  EXPECT_EQ(demangle("foo.cold").original_long, "foo");
  EXPECT_EQ(demangle("foo.lto_priv.3").original_long, "foo");
  EXPECT_EQ(demangle("foo.cold").long_name, "foo.cold");
  // A dot that starts no clone suffix is part of the name.
  EXPECT_EQ(demangle("_GLOBAL__sub_I_a.cc").original_long, "");
}

TEST(Demangle, Cxx) {
  Names n = demangle("_ZNK5outer5inner4CalcIiE5twiceEi");
  EXPECT_EQ(n.long_name, "outer::inner::Calc<int>::twice(int) const");
  EXPECT_EQ(n.short_name, "outer::inner::Calc<int>::twice");
  n = demangle("_ZN5outer5inner4sum3IlEET_S2_S2_S2_");
  EXPECT_EQ(n.long_name, "long outer::inner::sum3<long>(long, long, long)");
  EXPECT_EQ(n.short_name, "outer::inner::sum3<long>");
}

TEST(Demangle, CxxClone) {
  Names n = demangle("_Z3fooi.constprop.0");
  EXPECT_EQ(n.long_name, "foo(int) [clone .constprop.0]");
  EXPECT_EQ(n.short_name, "foo.constprop.0");
  EXPECT_EQ(n.original_long, "foo(int)");
}

TEST(Demangle, ShortNames) {
  EXPECT_EQ(strip_parameters("std::vector<int, std::allocator<int> >::push_back(int const&)"),
            "std::vector<int, std::allocator<int> >::push_back");
  EXPECT_EQ(strip_parameters("(anonymous namespace)::helper(int)"), "(anonymous namespace)::helper");
  EXPECT_EQ(strip_parameters("Foo::operator()(int) const"), "Foo::operator()");
  EXPECT_EQ(strip_parameters("bool operator< <int>(X<int> const&, X<int> const&)"), "operator< <int>");
  EXPECT_EQ(strip_parameters("Foo::operator unsigned long() const"), "Foo::operator unsigned long");
  EXPECT_EQ(strip_parameters("main::{lambda(int)#1}::operator()(int) const"),
            "main::{lambda(int)#1}::operator()");
}

TEST(Demangle, RustLegacy) {
  Names n = demangle("_ZN4core3fmt5write17h0123456789abcdefE");
  EXPECT_EQ(n.long_name, "core::fmt::write");
  n = demangle("_ZN70_$LT$alloc..vec..Vec$LT$T$C$A$GT$$u20$as$u20$core..ops..drop..Drop$GT$4drop17h0123456789abcdefE");
  EXPECT_EQ(n.long_name, "<alloc::vec::Vec<T,A> as core::ops::drop::Drop>::drop");
}

TEST(Demangle, RustV0) {
  if (!SYMBOLS_HAVE_LIBIBERTY) GTEST_SKIP() << "built without libiberty-dev: v0 names stay mangled";
  // From a rustc 1.95 std: core::ptr::drop_in_place::<std::sync::poison::mutex::MutexGuard<()>>-like.
  Names n = demangle("_RNvNtCs1234_7mycrate3foo3bar");
  EXPECT_EQ(n.long_name, "mycrate::foo::bar");
  n = demangle("_RINvNtCsgEmfK2I1SDS_4core3ptr13drop_in_placeINtNtCslNYArtu3iFV_5alloc3vec3VechEECsjrHSEGnQ3l9_3std");
  EXPECT_EQ(n.long_name, "core::ptr::drop_in_place::<alloc::vec::Vec<u8>>");
}

TEST(Demangle, InvalidMangledNameIsKept) {
  EXPECT_EQ(demangle("_Zgarbage").long_name, "_Zgarbage");
}

}  // namespace
}  // namespace erkit::symbols
