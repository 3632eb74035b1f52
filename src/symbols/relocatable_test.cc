// Relocatable objects (issue 15 item 8): testdata/inline.c compiled with -ffunction-sections
// but not linked (sym_inline_rel.o). libdwfl's layout is the one the symbols use, and the DWARF
// is read with its relocations: lines and inline chains as in the linked program.
#include "symbols/relocatable.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "symbols/symbols.h"

namespace erkit::symbols {
namespace {

const std::string kSrc = SYMBOLS_TESTDATA_SRC;
const std::string kBin = SYMBOLS_TESTDATA_BIN;
const std::string kRel = kBin + "/sym_inline_rel.o";

uint32_t marker(const std::string& tag) {
  std::ifstream in(kSrc + "/inline.c");
  std::string text;
  for (uint32_t n = 1; std::getline(in, text); ++n)
    if (text.find("LINE:" + tag) != std::string::npos) return n;
  ADD_FAILURE() << "no marker " << tag;
  return 0;
}

const PlacedSection* named(const RelocatableObject& r, const std::string& name) {
  for (const auto& s : r.sections())
    if (s.name == name) return &s;
  return nullptr;
}

TEST(Relocatable, OnlyEtRelIsRelocatable) {
  EXPECT_TRUE(is_relocatable(kRel));
  EXPECT_FALSE(is_relocatable(kBin + "/sym_inline_dw5"));
  EXPECT_FALSE(is_relocatable(kBin + "/no-such-file"));
  std::string err;
  EXPECT_FALSE(RelocatableObject::open(kBin + "/sym_inline_dw5", &err));
  EXPECT_NE(err.find("not a relocatable object"), std::string::npos) << err;
}

TEST(Relocatable, SectionsAreLaidOutApartAndSymbolsUseTheLayout) {
  std::string err;
  auto rel = RelocatableObject::open(kRel, &err);
  ASSERT_TRUE(rel) << err;
  ASSERT_TRUE(rel->dwarf());
  const auto& secs = rel->sections();
  ASSERT_GE(secs.size(), 2u);
  for (size_t i = 0; i < secs.size(); ++i) {
    EXPECT_GE(secs[i].addr, kRelocatableBase) << secs[i].name;
    if (i) {
      EXPECT_GE(secs[i].addr, secs[i - 1].addr + secs[i - 1].size) << secs[i].name << " overlaps";
    }
  }
  const PlacedSection* compute = named(*rel, ".text.compute");
  const PlacedSection* main = named(*rel, ".text.startup.main");
  ASSERT_TRUE(compute && main);
  // main calls compute (defined here) and puts (not): both are relocations of main's code.
  auto reloc_to = [&](const std::string& sym) {
    return std::find_if(main->relocs.begin(), main->relocs.end(), [&](const PlacedReloc& r) { return r.symbol == sym; });
  };
  auto c = reloc_to("compute");
  ASSERT_NE(c, main->relocs.end());
  EXPECT_TRUE(c->defined);
  EXPECT_EQ(c->value, compute->addr);
  EXPECT_GE(c->at, main->addr);
  EXPECT_LT(c->at, main->addr + main->size);
  auto p = reloc_to("puts");
  ASSERT_NE(p, main->relocs.end());
  EXPECT_FALSE(p->defined);

  auto syms = ObjectSymbols::open(kRel, "", &err);
  ASSERT_TRUE(syms) << err;
  const FunctionInfo* f = syms->function_at(compute->addr);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->name, "compute");
  EXPECT_EQ(f->addr, compute->addr);
}

// The inline chain at square's body: only right with the DWARF's relocations applied (in the
// file every address and every string offset of the DWARF is 0).
TEST(Relocatable, LinesAndInlineChainFromRelocatedDwarf) {
  std::string err;
  auto o = ObjectSymbols::open(kRel, "", &err);
  ASSERT_TRUE(o) << err;
  uint32_t body = marker("square_body");
  auto ranges = o->line_addresses("inline.c", body);
  ASSERT_FALSE(ranges.empty());
  bool chain = false;
  for (const AddrRange& r : ranges) {
    auto fr = o->lookup(r.lo);
    ASSERT_FALSE(fr.empty());
    EXPECT_EQ(fr[0].name, "square");
    EXPECT_EQ(fr[0].loc.line, body);
    if (fr.size() == 3 && fr[2].name == "compute") {
      chain = true;
      EXPECT_EQ(fr[1].name, "add_sq");
      EXPECT_EQ(fr[1].loc.line, marker("add_sq_calls_square"));
      EXPECT_EQ(fr[2].loc.line, marker("compute_calls_add_sq"));
    }
  }
  EXPECT_TRUE(chain);
  EXPECT_EQ(o->cu_name(o->function_at(ranges.front().lo)->addr).find("inline.c/inline.c"), std::string::npos);
}

}  // namespace
}  // namespace erkit::symbols
