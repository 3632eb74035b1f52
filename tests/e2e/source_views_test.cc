// End-to-end: annotated source and disassembly, lines and PCs, compiler commentary and
// er_src, on tests/programs/src_hot.c built by the test with gcc and clang at -O0 and -O2
// (each variant compiled and profiled once for all tests that use it).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {

struct Variant {
  std::string cc, opt;
  std::string name() const { return cc + opt; }
};

// One compiled and profiled build of src_hot.c.
struct Build {
  std::string dir;  // holds src_hot.c, its header, the program `hot`, records and test.1.er
  std::string error;
};

std::map<std::string, Build>& builds() {
  static std::map<std::string, Build> b;
  return b;
}

const Build& build(const Variant& v) {
  auto& all = builds();
  auto it = all.find(v.name());
  if (it != all.end()) return it->second;
  Build b;
  b.dir = make_workdir("source_" + v.name());
  std::string src = std::string(ERKIT_SOURCE_DIR) + "/tests/programs/";
  std::string records = v.opt == "-O0" ? "" : " -fsave-optimization-record";
  auto r = run("cd " + b.dir + " && cp " + src + "src_hot.c " + src + "src_hot_helper.h . && " + v.cc + " " + v.opt +
               " -g" + records + " src_hot.c -o hot 2>&1");
  if (r.status != 0) b.error = "compile failed: " + r.out;
  if (b.error.empty()) {
    r = run("cd " + b.dir + " && " + bin("collect") + " -p hi ./hot 2 2>&1");
    if (r.status != 0) b.error = "collect failed: " + r.out;
  }
  return all.emplace(v.name(), b).first->second;
}

RunResult er_print(const Build& b, const std::string& args) {
  return run("cd " + b.dir + " && " + bin("er_print") + " " + args + " test.1.er");
}

// A source row of an annotated listing: its first metric (Excl. User CPU seconds; -1 when
// the columns are blank), its line number, its text and whether it is marked ##.
struct SourceRow {
  double excl = -1;
  bool hot = false;
  int line = 0;
  std::string text;
};

std::vector<SourceRow> source_rows(const std::string& listing) {
  // Cells are numbers, "0." or blank; the line number is the last "N. " before the text.
  static const std::regex row(R"(^(## |   )([0-9. ]*)\s(\d+)\. (.*)$)");
  std::vector<SourceRow> out;
  std::istringstream in(listing);
  std::string l;
  while (std::getline(in, l)) {
    std::smatch m;
    if (!std::regex_match(l, m, row)) continue;
    SourceRow r;
    r.hot = m[1] == "## ";
    std::istringstream cells(m[2].str());
    std::string first;
    if (cells >> first) r.excl = std::stod(first);
    r.line = std::stoi(m[3].str());
    if (r.line == 0) continue;  // an index line whose last cell is "0."
    r.text = m[4].str();
    out.push_back(r);
  }
  return out;
}

// The lines just before the source row containing `marker`.
std::string before_marker(const std::string& listing, const std::string& marker, int n = 6) {
  std::vector<std::string> lines;
  std::istringstream in(listing);
  std::string l;
  while (std::getline(in, l)) {
    if (l.find(marker) != std::string::npos && std::regex_search(l, std::regex(R"(\d+\. )"))) {
      std::string out;
      for (size_t k = lines.size() > size_t(n) ? lines.size() - n : 0; k < lines.size(); ++k) out += lines[k] + "\n";
      return out;
    }
    lines.push_back(l);
  }
  return "";
}

// "[  15]": how a disassembly row shows its source line.
std::string fmt_line(int n) { return "[" + std::string(n < 10 ? "   " : n < 100 ? "  " : n < 1000 ? " " : "") + std::to_string(n) + "]"; }

class SourceViews : public ::testing::TestWithParam<Variant> {
 protected:
  const Build& b() {
    const Build& x = build(GetParam());
    if (!x.error.empty()) ADD_FAILURE() << x.error;
    return x;
  }
};

TEST_P(SourceViews, HotLineOfTheHotLoopCarriesTheLargestMetric) {
  const Build& x = b();
  auto p = er_print(x, "-source hot_loop");
  ASSERT_EQ(p.status, 0) << p.err;
  auto rows = source_rows(p.out);
  ASSERT_GT(rows.size(), 30u) << p.out;
  const SourceRow* hot = nullptr;
  double best_other = 0;
  for (const auto& r : rows) {
    if (r.text.find("HOT:") != std::string::npos) hot = &r;
    else best_other = std::max(best_other, r.excl);
  }
  ASSERT_TRUE(hot) << p.out;
  EXPECT_GT(hot->excl, 0.1) << p.out;
  EXPECT_GT(hot->excl, best_other) << p.out;
  EXPECT_TRUE(hot->hot) << "the hottest line is marked ##\n" << p.out;
  // Comment lines have no code: blank metrics.
  EXPECT_EQ(rows[0].excl, -1) << p.out;
  EXPECT_NE(p.out.find("<Function: hot_loop>"), std::string::npos) << p.out;
}

TEST_P(SourceViews, InlinedHelperLinesShowUnderItsHeader) {
  const Build& x = b();
  auto h = er_print(x, "-source src_hot_helper.h");
  ASSERT_EQ(h.status, 0) << h.err;
  EXPECT_NE(h.out.find("<Function: scramble>"), std::string::npos) << h.out;
  double helper_time = 0;
  for (const auto& r : source_rows(h.out))
    if (r.line >= 3 && r.line <= 5 && r.excl > 0) helper_time += r.excl;
  EXPECT_GT(helper_time, 0) << h.out;
  // The caller's listing points at the header code with an extended index line.
  auto s = er_print(x, "-source mix");
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_NE(s.out.find("<Function: mix, instructions from source file src_hot_helper.h>"), std::string::npos) << s.out;
}

TEST_P(SourceViews, AnnotatedDisassembly) {
  const Build& x = b();
  auto d = er_print(x, "-dcc basic:src:hex -disasm hot_loop");
  ASSERT_EQ(d.status, 0) << d.err;
  EXPECT_NE(d.out.find("<Function: hot_loop>"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("divsd"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("HOT:"), std::string::npos) << "source interleaved\n" << d.out;
  EXPECT_NE(d.out.find("hot_loop ! 0x"), std::string::npos) << "main's call named\n" << d.out;
  EXPECT_TRUE(std::regex_search(d.out, std::regex(R"(@plt ! 0x)"))) << "a PLT call named\n" << d.out;
  EXPECT_TRUE(std::regex_search(d.out, std::regex(R"(\[ *\d+\] [ >] *[0-9a-f]+:  ([0-9a-f]{2} )+)"))) << d.out;
  // The instruction with the most time is marked and sits on the hot line.
  std::istringstream in(d.out);
  std::string l, best;
  double best_v = 0;
  while (std::getline(in, l)) {
    std::smatch m;
    if (!std::regex_search(l, m, std::regex(R"(^(## |   )\s*([0-9.]+)\s.*\[ *(\d+)\] )"))) continue;
    double v = std::stod(m[2].str());
    if (v > best_v) best_v = v, best = l;
  }
  ASSERT_GT(best_v, 0.05) << d.out;
  EXPECT_EQ(best.rfind("## ", 0), 0u) << best;
  auto src = er_print(x, "-source hot_loop");
  int hot_line = 0;
  for (const auto& r : source_rows(src.out))
    if (r.text.find("HOT:") != std::string::npos) hot_line = r.line;
  EXPECT_NE(best.find(fmt_line(hot_line)), std::string::npos) << best;
}

TEST_P(SourceViews, LinesAndPcsPutTheHotLoopFirst) {
  const Build& x = b();
  auto l = er_print(x, "-lines");
  ASSERT_EQ(l.status, 0) << l.err;
  auto rows = parse_function_list(l.out);
  bool found = false;
  for (const auto& [name, row] : rows) found |= name.rfind("hot_loop, line ", 0) == 0;
  EXPECT_TRUE(found) << l.out;
  // First data row after <Total> is a hot_loop line.
  std::istringstream in(l.out);
  std::string line;
  std::vector<std::string> data;
  while (std::getline(in, line))
    if (line.find("<Total>") != std::string::npos || !data.empty()) data.push_back(line);
  ASSERT_GE(data.size(), 2u) << l.out;
  EXPECT_NE(data[1].find("hot_loop, line "), std::string::npos) << l.out;
  auto p = er_print(x, "-pcs");
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_TRUE(std::regex_search(p.out, std::regex(R"(<Total>\n.*hot_loop \+ 0x[0-9A-F]{8})"))) << p.out;
  auto ps = er_print(x, "-limit 3 -psummary");
  EXPECT_NE(ps.out.find("PC Address"), std::string::npos) << ps.out;
}

// object_hide: a collapsed load object is one row in lines and pcs (seed-spec §6.18), with
// the inclusive time of every stack through it counted once.
TEST_P(SourceViews, HiddenLoadObjectIsOneRowInLinesAndPcs) {
  const Build& x = b();
  // libc's own rows: __libc_start_main and, with or without libc's symbols, its caller of main.
  auto libc_rows = [](const std::map<std::string, FunctionRow>& rows) {
    int n = 0;
    for (const auto& [name, row] : rows)
      n += name.find("__libc_start") != std::string::npos || name.find("(<libc.so.6>)") != std::string::npos;
    return n;
  };
  for (const char* view : {"-lines", "-pcs"}) {
    auto shown = er_print(x, view);
    auto all = parse_function_list(shown.out);
    if (view == std::string("-lines")) {
      EXPECT_GT(libc_rows(all), 0) << "inclusive rows of libc's lines\n" << shown.out;
    }
    EXPECT_EQ(all.count("<libc.so.6>"), 0u) << shown.out;
    auto h = er_print(x, std::string("-object_hide libc.so.6 ") + view);
    ASSERT_EQ(h.status, 0) << h.err;
    auto rows = parse_function_list(h.out);
    ASSERT_TRUE(rows.count("<libc.so.6>") && rows.count("<Total>")) << h.out;
    const auto& lib = rows["<libc.so.6>"].values;
    const auto& total = rows["<Total>"].values;
    ASSERT_EQ(lib.size(), 4u) << h.out;
    EXPECT_EQ(lib[2], total[2]) << "every stack passes through libc once\n" << h.out;
    EXPECT_EQ(libc_rows(rows), 0) << h.out;
  }
  auto ls = er_print(x, "-object_hide libc.so.6 -lsummary");
  EXPECT_TRUE(std::regex_search(ls.out, std::regex(R"(\n<libc\.so\.6>\n(.*\n)*? +Load Object:  /\S*libc\.so\.6\n)")))
      << ls.out;
}

INSTANTIATE_TEST_SUITE_P(Compilers, SourceViews,
                         ::testing::Values(Variant{"gcc", "-O0"}, Variant{"gcc", "-O2"}, Variant{"clang", "-O0"},
                                           Variant{"clang", "-O2"}),
                         [](const auto& p) { return p.param.cc + (p.param.opt == "-O0" ? "_O0" : "_O2"); });

class Commentary : public ::testing::TestWithParam<Variant> {};

TEST_P(Commentary, InlinedCallAndVectorisedLoop) {
  const Build& x = build(GetParam());
  ASSERT_EQ(x.error, "");
  auto s = er_print(x, "-source mix");
  ASSERT_EQ(s.status, 0) << s.err;
  // Clang's always-inline remark does not say where the callee is from; GCC's does.
  std::string inl_msg = GetParam().cc == "gcc" ? "Function scramble inlined from source file src_hot_helper.h into "
                                                  "the code for the following line"
                                                : "Function scramble inlined";
  EXPECT_NE(before_marker(s.out, "CALLS-INLINE").find(inl_msg), std::string::npos) << s.out;
  EXPECT_NE(before_marker(s.out, "VECTOR-LOOP").find("Loop below vectorized"), std::string::npos) << s.out;
  // scc none hides it; scc inline keeps the inlining but not the loop.
  auto none = er_print(x, "-scc none -source mix");
  EXPECT_EQ(none.out.find("Function scramble inlined"), std::string::npos) << none.out;
  auto inl = er_print(x, "-scc inline -source mix");
  EXPECT_NE(inl.out.find("Function scramble inlined"), std::string::npos) << inl.out;
  EXPECT_EQ(inl.out.find("Loop below vectorized"), std::string::npos) << inl.out;
}

// Listings of the gcc -O2 build beyond the defaults: function'file', asrc, lsummary and
// er_src's commentary options.
class SourceListings : public ::testing::Test {
 protected:
  const Build& b() {
    const Build& x = build(Variant{"gcc", "-O2"});
    if (!x.error.empty()) ADD_FAILURE() << x.error;
    return x;
  }
  RunResult er_src(const Build& x, const std::string& args) {
    return run("cd " + x.dir + " && " + bin("er_src") + " " + args);
  }
};

TEST_F(SourceListings, FunctionFileContextListsThatFileWithOnlyThatFunctionsMetrics) {
  const Build& x = b();
  auto q = er_print(x, "-source \"mix'src_hot_helper.h'\"");
  ASSERT_EQ(q.status, 0) << q.err;
  EXPECT_EQ(q.out.rfind("Source file: src_hot_helper.h\n", 0), 0u) << q.out;
  EXPECT_NE(q.out.find("<Function: scramble>"), std::string::npos) << q.out;
  // The shell-escaped form the manual gives for the command line.
  auto e = er_print(x, "-source mix\\'src_hot_helper.h\\'");
  ASSERT_EQ(e.status, 0) << e.err;
  EXPECT_EQ(e.out, q.out);
  // main'src_hot.c': the file of every function, but only main's metrics (hot_loop's line
  // shows "0." exclusive, main's call of hot_loop its inclusive time).
  auto m = er_print(x, "-source \"main'src_hot.c'\"");
  auto all = er_print(x, "-source src_hot.c");
  double hot_all = -1, hot_main = -1;
  for (const auto& r : source_rows(all.out))
    if (r.text.find("HOT:") != std::string::npos) hot_all = r.excl;
  for (const auto& r : source_rows(m.out))
    if (r.text.find("HOT:") != std::string::npos) hot_main = r.excl;
  EXPECT_GT(hot_all, 0.1) << all.out;
  EXPECT_EQ(hot_main, 0) << m.out;
  EXPECT_TRUE(std::regex_search(m.out, std::regex(R"(\n(## |   ) +0\. +0\. +0\.\d+ .* sink_d = hot_loop)"))) << m.out;
}

TEST_F(SourceListings, AsrcGivesInterleavedSourceLinesTheirMetrics) {
  const Build& x = b();
  auto hot_source_line = [](const std::string& listing) {
    std::istringstream in(listing);
    std::string l;
    while (std::getline(in, l))
      if (l.find("HOT:") != std::string::npos && l.find('[') == std::string::npos) return l;
    return std::string();
  };
  auto plain = er_print(x, "-disasm hot_loop");
  std::string pl = hot_source_line(plain.out);
  ASSERT_FALSE(pl.empty()) << plain.out;
  EXPECT_TRUE(std::regex_match(pl, std::regex(R"(^ +15\. .*)"))) << "src: text only\n" << pl;
  auto asrc = er_print(x, "-dcc basic:asrc -disasm hot_loop");
  ASSERT_EQ(asrc.status, 0) << asrc.err;
  std::string al = hot_source_line(asrc.out);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(al, m, std::regex(R"(^(## |   ) *([0-9.]+) .* 15\. )"))) << asrc.out;
  EXPECT_GT(std::stod(m[2].str()), 0.1) << al;
}

TEST_F(SourceListings, LsummaryDescribesEachLine) {
  const Build& x = b();
  auto s = er_print(x, "-limit 2 -lsummary");
  ASSERT_EQ(s.status, 0) << s.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(s.out, m, std::regex(R"((^|\n)hot_loop, line (\d+) in "src_hot\.c"\n)"))) << s.out;
  std::string line = m[2].str();
  EXPECT_TRUE(std::regex_search(s.out, std::regex(R"(Exclusive User CPU Time:  0\.\d{3} \(\d+\.\d\d%\))"))) << s.out;
  EXPECT_NE(s.out.find("Source Line:  " + x.dir + "/src_hot.c:" + line + "\n"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("Load Object:  " + x.dir + "/hot\n"), std::string::npos) << s.out;
  EXPECT_EQ(s.out.find("PC Address"), std::string::npos) << "lines have no address\n" << s.out;
}

// er_src -scc / -dcc / -c choose the commentary of source, disassembly or both.
TEST_F(SourceListings, ErSrcCommentaryOptions) {
  const Build& x = b();
  const std::string inl = "Function scramble inlined", vec = "Loop below vectorized";
  auto count = [&](const std::string& args, const std::string& what) {
    auto r = er_src(x, args);
    EXPECT_EQ(r.status, 0) << args << ": " << r.err;
    return r.out.find(what) != std::string::npos;
  };
  EXPECT_TRUE(count("-source mix 1 hot", inl));
  EXPECT_TRUE(count("-source mix 1 hot", vec));
  EXPECT_TRUE(count("-disasm mix 1 hot", inl));
  EXPECT_FALSE(count("-scc none -source mix 1 hot", inl));
  EXPECT_TRUE(count("-scc none -disasm mix 1 hot", inl)) << "-scc leaves the disassembly alone";
  EXPECT_FALSE(count("-dcc none -disasm mix 1 hot", inl));
  EXPECT_TRUE(count("-dcc none -source mix 1 hot", inl)) << "-dcc leaves the source alone";
  EXPECT_FALSE(count("-c none -source mix 1 hot", inl));
  EXPECT_FALSE(count("-c none -disasm mix 1 hot", inl));
  EXPECT_TRUE(count("-c inline -source mix 1 hot", inl));
  EXPECT_FALSE(count("-c inline -source mix 1 hot", vec));
  EXPECT_TRUE(count("-c inline -disasm mix 1 hot", inl));
  auto bad = er_src(x, "-c bogus -source mix 1 hot");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.err.find("bogus"), std::string::npos) << bad.err;
}

INSTANTIATE_TEST_SUITE_P(Compilers, Commentary, ::testing::Values(Variant{"gcc", "-O2"}, Variant{"clang", "-O2"}),
                         [](const auto& p) { return p.param.cc; });

}  // namespace
}  // namespace erkit::e2e
