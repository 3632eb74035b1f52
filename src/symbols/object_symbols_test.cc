// Symbolisation of the programs in testdata/, built with specific flags by CMake.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <thread>

#include "symbols/symbols.h"

namespace erkit::symbols {
namespace {

const std::string kSrc = SYMBOLS_TESTDATA_SRC;
const std::string kBin = SYMBOLS_TESTDATA_BIN;

// Line number of the "LINE:<tag>" marker in a test source.
uint32_t marker_line(const std::string& file, const std::string& tag) {
  std::ifstream in(kSrc + "/" + file);
  std::string text;
  for (uint32_t n = 1; std::getline(in, text); ++n) {
    if (text.find("LINE:" + tag) != std::string::npos) return n;
  }
  ADD_FAILURE() << "no marker " << tag;
  return 0;
}

std::unique_ptr<ObjectSymbols> open_ok(const std::string& name) {
  std::string err;
  auto obj = ObjectSymbols::open(kBin + "/" + name, "", &err);
  EXPECT_TRUE(obj) << err;
  return obj;
}

const FunctionInfo* find_function(const ObjectSymbols& o, const std::string& name) {
  for (const FunctionInfo& f : o.functions()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The inline chain at the body of square(): square <- add_sq <- compute, each with the
// line where it is (innermost) or where it calls the next one in.
void check_inline_chain(const std::string& binary) {
  auto o = open_ok(binary);
  ASSERT_TRUE(o);
  uint32_t body = marker_line("inline.c", "square_body");
  auto ranges = o->line_addresses("inline.c", body);
  ASSERT_FALSE(ranges.empty());
  bool saw_chain = false;
  for (const AddrRange& r : ranges) {
    std::vector<Frame> fr = o->lookup(r.lo);
    ASSERT_FALSE(fr.empty());
    EXPECT_EQ(fr[0].name, "square");
    EXPECT_EQ(fr[0].loc.line, body);
    EXPECT_TRUE(ends_with(fr[0].loc.file, "/testdata/inline.c")) << fr[0].loc.file;
    if (fr.size() == 3 && fr[2].name == "compute") {
      saw_chain = true;
      EXPECT_TRUE(fr[0].inlined);
      EXPECT_EQ(fr[1].name, "add_sq");
      EXPECT_TRUE(fr[1].inlined);
      EXPECT_EQ(fr[1].loc.line, marker_line("inline.c", "add_sq_calls_square"));
      EXPECT_FALSE(fr[2].inlined);
      EXPECT_EQ(fr[2].loc.line, marker_line("inline.c", "compute_calls_add_sq"));
      EXPECT_TRUE(ends_with(fr[2].loc.file, "inline.c"));
    }
  }
  EXPECT_TRUE(saw_chain);
}

TEST(ObjectSymbols, InlineChainDwarf5) { check_inline_chain("sym_inline_dw5"); }
TEST(ObjectSymbols, InlineChainDwarf4) { check_inline_chain("sym_inline_dw4"); }
TEST(ObjectSymbols, InlineChainViaDebuglink) { check_inline_chain("sym_inline_stripped"); }

TEST(ObjectSymbols, DebuglinkFileIsUsed) {
  auto o = open_ok("sym_inline_stripped");
  ASSERT_TRUE(o);
  EXPECT_TRUE(ends_with(o->debug_file(), "sym_inline_stripped.debug")) << o->debug_file();
  EXPECT_TRUE(o->has_dwarf());
  EXPECT_TRUE(find_function(*o, "scale.constprop.0"));
}

TEST(ObjectSymbols, ConstpropClone) {
  auto o = open_ok("sym_inline_dw5");
  ASSERT_TRUE(o);
  const FunctionInfo* f = find_function(*o, "scale.constprop.0");
  ASSERT_TRUE(f);
  EXPECT_TRUE(ends_with(f->source_file, "/testdata/inline.c")) << f->source_file;
  uint32_t loop = marker_line("inline.c", "scale_loop");
  auto ranges = o->line_addresses("testdata/inline.c", loop);
  ASSERT_FALSE(ranges.empty());
  std::vector<Frame> fr = o->lookup(ranges[0].lo);
  ASSERT_EQ(fr.size(), 1u);
  EXPECT_EQ(fr[0].name, "scale.constprop.0");
  EXPECT_EQ(fr[0].original, "scale");
  EXPECT_EQ(fr[0].loc.line, loop);
  const FunctionInfo* at = o->function_at(ranges[0].lo);
  ASSERT_TRUE(at);
  EXPECT_EQ(at->name, f->name);
  EXPECT_EQ(at->addr, f->addr);
  EXPECT_EQ(at->size, f->size);
  EXPECT_EQ(at->source_file, f->source_file);
}

TEST(ObjectSymbols, PlainFunctionAndCuName) {
  auto o = open_ok("sym_inline_dw4");
  ASSERT_TRUE(o);
  const FunctionInfo* f = find_function(*o, "compute");
  ASSERT_TRUE(f);
  EXPECT_GT(f->size, 0u);
  std::vector<Frame> fr = o->lookup(f->addr);
  ASSERT_FALSE(fr.empty());
  EXPECT_EQ(fr.back().name, "compute");
  EXPECT_FALSE(fr.back().inlined);
  EXPECT_TRUE(ends_with(o->cu_name(f->addr), "inline.c"));
  EXPECT_EQ(o->section_at(f->addr)->name, ".text");
  EXPECT_TRUE(o->section_at(f->addr)->executable);
}

void check_plt(const std::string& binary, const std::string& section) {
  auto o = open_ok(binary);
  ASSERT_TRUE(o);
  const FunctionInfo* f = find_function(*o, "puts@plt");
  ASSERT_TRUE(f) << binary;
  EXPECT_TRUE(f->is_plt);
  EXPECT_EQ(o->section_at(f->addr)->name, section);
  std::vector<Frame> fr = o->lookup(f->addr + 4);
  ASSERT_EQ(fr.size(), 1u);
  EXPECT_EQ(fr[0].name, "puts@plt");
  // __cxa_finalize is called through .plt.got (GLOB_DAT slot, no lazy stub).
  const FunctionInfo* g = find_function(*o, "__cxa_finalize@plt");
  ASSERT_TRUE(g);
  EXPECT_EQ(o->section_at(g->addr)->name, ".plt.got");
}

TEST(ObjectSymbols, PltEntries) { check_plt("sym_inline_dw5", ".plt"); }
TEST(ObjectSymbols, PltSecEntries) { check_plt("sym_inline_ibt", ".plt.sec"); }

TEST(ObjectSymbols, MiniDebugInfo) {
  auto o = open_ok("sym_inline_mini");
  ASSERT_TRUE(o);
  EXPECT_FALSE(o->has_dwarf());
  const FunctionInfo* f = find_function(*o, "scale.constprop.0");
  ASSERT_TRUE(f);
  std::vector<Frame> fr = o->lookup(f->addr + 1);
  ASSERT_EQ(fr.size(), 1u);
  EXPECT_EQ(fr[0].name, "scale.constprop.0");
  EXPECT_EQ(fr[0].loc.line, 0u);
}

TEST(ObjectSymbols, FunctionKnownOnlyFromDwarf) {
  auto o = open_ok("sym_inline_nosym");
  ASSERT_TRUE(o);
  const FunctionInfo* f = find_function(*o, "compute");
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->from_dwarf_only);
  EXPECT_TRUE(ends_with(f->source_file, "inline.c"));
  std::vector<Frame> fr = o->lookup(f->addr);
  ASSERT_FALSE(fr.empty());
  EXPECT_EQ(fr.back().name, "compute");
  auto fresh = open_ok("sym_inline_nosym");
  const FunctionInfo* at = fresh->function_at(f->addr + 1);
  ASSERT_TRUE(at);
  EXPECT_EQ(at->name, "compute");
  EXPECT_TRUE(at->from_dwarf_only);
  EXPECT_EQ(at->addr, f->addr);
  EXPECT_EQ(at, fresh->function_at(f->addr + 2));
  check_inline_chain("sym_inline_nosym");
}

TEST(ObjectSymbols, ConcurrentLookupsOnAFreshObject) {
  auto o = open_ok("sym_cxx");
  ASSERT_TRUE(o);
  auto probe = open_ok("sym_cxx");
  std::vector<uint64_t> pcs;
  for (const FunctionInfo& f : probe->functions()) pcs.push_back(f.addr);
  std::vector<std::vector<std::string>> seen(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t pc : pcs) {
        std::vector<Frame> fr = o->lookup(pc);
        seen[t].push_back(fr.empty() ? "" : fr.back().name + ":" + std::to_string(fr.back().loc.line));
      }
    });
  }
  for (auto& th : threads) th.join();
  for (size_t t = 1; t < seen.size(); ++t) EXPECT_EQ(seen[t], seen[0]);
}

TEST(ObjectSymbols, CxxNames) {
  auto o = open_ok("sym_cxx");
  ASSERT_TRUE(o);
  const FunctionInfo* twice = find_function(*o, "outer::inner::Calc<int>::twice(int) const");
  ASSERT_TRUE(twice);
  EXPECT_EQ(twice->mangled, "_ZNK5outer5inner4CalcIiE5twiceEi");
  std::vector<Frame> fr = o->lookup(twice->addr);
  ASSERT_EQ(fr.size(), 1u);
  EXPECT_EQ(fr[0].short_name, "outer::inner::Calc<int>::twice");
  EXPECT_EQ(fr[0].loc.line, marker_line("cxx.cc", "twice"));
  EXPECT_TRUE(ends_with(fr[0].loc.file, "/testdata/cxx.cc"));

  const FunctionInfo* sum3 = find_function(*o, "long outer::inner::sum3<long>(long, long, long)");
  ASSERT_TRUE(sum3);
  fr = o->lookup(sum3->addr);
  ASSERT_EQ(fr.size(), 1u);
  EXPECT_EQ(fr[0].short_name, "outer::inner::sum3<long>");
  EXPECT_EQ(fr[0].loc.line, marker_line("cxx.cc", "sum3"));

  EXPECT_TRUE(find_function(*o, "use_string(std::__cxx11::basic_string<char, std::char_traits<char>, "
                                 "std::allocator<char> > const&)"));
}

TEST(ObjectSymbols, BuildIdCheck) {
  std::string path = kBin + "/sym_inline_dw5";
  std::string id = read_build_id(path);
  ASSERT_EQ(id.size(), 40u);
  std::string err;
  EXPECT_TRUE(ObjectSymbols::open(path, id, &err)) << err;
  EXPECT_FALSE(ObjectSymbols::open(path, "00112233", &err));
  EXPECT_NE(err.find("build-id"), std::string::npos);
  // The debuglink'ed debug file carries the same build-id as the stripped object.
  EXPECT_EQ(read_build_id(kBin + "/sym_inline_stripped.debug"), id);
}

TEST(ObjectSymbols, NothingKnown) {
  auto o = open_ok("sym_inline_dw5");
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->lookup(0x10).empty());
  EXPECT_EQ(o->function_at(0x10), nullptr);
  EXPECT_EQ(o->function_before(0x10), nullptr);
  // Past the last function of .text: nothing contains it, but its predecessor is known.
  const SectionInfo* text = nullptr;
  for (const FunctionInfo& f : o->functions()) {
    if (o->section_at(f.addr) && o->section_at(f.addr)->name == ".text") text = o->section_at(f.addr);
  }
  ASSERT_TRUE(text);
  uint64_t end = text->addr + text->size - 1;
  if (o->function_at(end) == nullptr) {
    const FunctionInfo* before = o->function_before(end);
    ASSERT_TRUE(before);
    EXPECT_LE(before->addr + before->size, end);
  }
}

void check_aarch64(const std::string& name) {
  std::string path = kBin + "/" + name;
  if (read_build_id(path).empty() && !std::ifstream(path)) GTEST_SKIP() << "no clang/lld for aarch64";
  auto o = open_ok(name);
  ASSERT_TRUE(o);
  for (const char* callee : {"ext_one@plt", "ext_two@plt"}) {
    const FunctionInfo* f = find_function(*o, callee);
    ASSERT_TRUE(f) << callee;
    EXPECT_EQ(o->section_at(f->addr)->name, ".plt");
    EXPECT_GE(f->size, 16u);
    std::vector<Frame> fr = o->lookup(f->addr + 12);  // the `br x17`
    ASSERT_EQ(fr.size(), 1u);
    EXPECT_EQ(fr[0].name, callee);
  }
  const FunctionInfo* c = find_function(*o, "call_both");
  ASSERT_TRUE(c);
  std::vector<Frame> fr = o->lookup(c->addr);
  ASSERT_EQ(fr.size(), 1u);
  EXPECT_TRUE(ends_with(fr[0].loc.file, "a64.c"));
  EXPECT_GT(fr[0].loc.line, 0u);
  auto ranges = o->line_addresses("a64.c", marker_line("a64.c", "call_both"));
  EXPECT_FALSE(ranges.empty());
}

TEST(ObjectSymbols, Aarch64Plt) { check_aarch64("sym_a64_plain.so"); }
TEST(ObjectSymbols, Aarch64BtiPlt) { check_aarch64("sym_a64_bti.so"); }

TEST(SymbolCache, OpensOnce) {
  SymbolCache cache;
  std::string path = kBin + "/sym_inline_dw5";
  const ObjectSymbols* a = cache.get(path, "");
  const ObjectSymbols* b = cache.get(path, "");
  ASSERT_TRUE(a);
  EXPECT_EQ(a, b);
  std::string err;
  EXPECT_EQ(cache.get(kBin + "/does-not-exist", "", &err), nullptr);
  EXPECT_FALSE(err.empty());
}

}  // namespace
}  // namespace erkit::symbols
