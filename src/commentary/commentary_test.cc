#include "commentary/commentary.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "commentary/json_lite.h"

namespace erkit::commentary {
namespace {

TEST(ComSpec, ClassesPrefixesAndDisplayOptions) {
  ComSpec s;
  std::string err;
  ASSERT_TRUE(parse_com_spec("b:i:l", false, &s, &err)) << err;
  EXPECT_EQ(s.classes, kBasic | kInline | kLoop);
  ASSERT_TRUE(parse_com_spec("pa:pi:qry:m:f:v", false, &s, &err)) << err;
  EXPECT_EQ(s.classes, kParallel | kPipe | kQuery | kMemops | kFe | kVersion);
  ASSERT_TRUE(parse_com_spec("all", false, &s, &err));
  EXPECT_EQ(classes_to_string(s.classes), "all");
  ASSERT_TRUE(parse_com_spec("", false, &s, &err));
  EXPECT_EQ(s.classes, 0u);
  EXPECT_FALSE(parse_com_spec("all:basic", false, &s, &err));
  EXPECT_NE(err.find("alone"), std::string::npos);
  EXPECT_FALSE(parse_com_spec("p", false, &s, &err)) << "p is ambiguous (parallel, pipe)";
  EXPECT_FALSE(parse_com_spec("hex", false, &s, &err)) << "hex is for dcc only";
  ComSpec d;
  ASSERT_TRUE(parse_com_spec("basic:h:as", true, &d, &err)) << err;
  EXPECT_TRUE(d.hex && d.asrc && d.src);
  ASSERT_TRUE(parse_com_spec("none:noh:nos", true, &d, &err)) << err;
  EXPECT_TRUE(!d.hex && !d.src && !d.asrc && d.classes == 0);
  EXPECT_EQ(to_string(d, true), "none:nohex:nosrc");
}

TEST(Json, ParsesNestedValuesAndEscapes) {
  JsonValue v;
  std::string err;
  ASSERT_TRUE(parse_json(R"([1, {"a": "x\ny\u00e9", "b": [true, null, -2.5e1]}, []])", &v, &err)) << err;
  ASSERT_EQ(v.array.size(), 3u);
  EXPECT_EQ(v.array[1].str("a"), "x\ny\xc3\xa9");
  EXPECT_EQ(v.array[1].get("b")->array[2].number, -25);
  EXPECT_FALSE(parse_json("[1, 2", &v, &err));
  EXPECT_NE(err.find("offset"), std::string::npos);
  EXPECT_FALSE(parse_json("{\"a\" 1}", &v, &err));
}

TEST(ClangYaml, InlineAndVectorisedLoop) {
  const char* text = R"(--- !Passed
Pass:            inline
Name:            Inlined
DebugLoc:        { File: t.c, Line: 10, Column: 55 }
Function:        use_helper
Args:
  - String:          ''''
  - Callee:          add1
    DebugLoc:        { File: 'dir/h, x.h', Line: 2, Column: 0 }
  - String:          ''' inlined into '''
  - Caller:          use_helper
...
--- !Passed
Pass:            loop-vectorize
Name:            Vectorized
DebugLoc:        { File: t.c, Line: 5, Column: 3 }
Function:        vec_loop
Args:
  - String:          'vectorized loop (vectorization width: '
  - VectorizationFactor: '4'
  - String:          ')'
...
--- !Missed
Pass:            inline
Name:            NoDefinition
DebugLoc:        { File: t.c, Line: 11, Column: 3 }
Function:        main
Args:
  - Callee:          puts
  - String:          ' will not be inlined into '
  - Caller:          main
...
--- !Analysis
Pass:            asm-printer
Name:            InstructionCount
DebugLoc:        { File: t.c, Line: 2, Column: 0 }
Function:        add1
Args:
  - NumInstructions: '2'
  - String:          ' instructions in function'
...
)";
  std::vector<Remark> rs;
  std::string err;
  ASSERT_TRUE(read_clang_yaml(text, &rs, &err)) << err;
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[0].text, "Function add1 inlined from source file h, x.h into the code for the following line");
  EXPECT_EQ(rs[0].line, 10u);
  EXPECT_EQ(rs[0].classes, kInline | kBasic);
  EXPECT_EQ(rs[1].text, "Loop below vectorized (vectorization width: 4)");
  EXPECT_TRUE(rs[1].classes & kLoop);
  EXPECT_TRUE(rs[1].classes & kPipe);
  EXPECT_EQ(rs[2].classes, kQuery);
  EXPECT_EQ(rs[2].text, "Function puts will not be inlined into main");
  EXPECT_FALSE(read_clang_yaml("just text", &rs, &err));
}

TEST(ClangYaml, LongPathsWrapTheFlowMapping) {
  // LLVM wraps a flow mapping past column 70: a long source path puts Line on the next line.
  const char* text = R"(--- !Passed
Pass:            inline
Name:            Inlined
DebugLoc:        { File: '/check/work/main/src/commentary/testdata/rec.c', 
                   Line: 10, Column: 55 }
Function:        use_helper
Args:
  - String:          ''''
  - Callee:          add1
    DebugLoc:        { File: '/check/work/main/src/commentary/testdata/rec_helper.h', 
                       Line: 2, Column: 0 }
  - String:          ''' inlined into '''
  - Caller:          use_helper
...
)";
  std::vector<Remark> rs;
  std::string err;
  ASSERT_TRUE(read_clang_yaml(text, &rs, &err)) << err;
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].file, "/check/work/main/src/commentary/testdata/rec.c");
  EXPECT_EQ(rs[0].line, 10u);
  EXPECT_EQ(rs[0].text, "Function add1 inlined from source file rec_helper.h into the code for the following line");
}

TEST(GccOptInfo, TextLines) {
  std::vector<Remark> rs;
  ASSERT_TRUE(read_gcc_opt_info("t.c:9:37: optimized:   Inlining scale_helper/0 into use_helper/3 (always_inline).\n"
                                "t.c:9:55: note: Considering inline candidate add1/1.\n"
                                "t.c:5:21: optimized: loop vectorized using 16 byte vectors\n"
                                "t.c:4:21: missed: couldn't vectorize loop\n"
                                "Unit growth for small function inlining: 40->40 (0%)\n",
                                &rs));
  ASSERT_EQ(rs.size(), 3u);
  EXPECT_EQ(rs[0].text, "Function scale_helper inlined into the code for the following line");
  EXPECT_EQ(rs[1].text, "Loop below vectorized using 16 byte vectors");
  EXPECT_EQ(rs[1].line, 5u);
  EXPECT_EQ(rs[2].classes, kQuery);
}

// The real compilers, on a program with an inlined header function and a vectorisable loop.
class LiveRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/commentary_test.XXXXXX";
    ASSERT_TRUE(mkdtemp(tmpl));
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  int compile(const std::string& cc, const std::string& flags) {
    std::string cmd = "cd " + dir_ + " && " + cc + " -O2 -g -c " + flags + " " + COMMENTARY_TESTDATA +
                      "/rec.c -o rec.o 2>/dev/null";
    return std::system(cmd.c_str());
  }
  Commentary load() {
    Commentary c;
    for (const auto& f : find_record_files({dir_}, "rec.c", dir_ + "/rec.o")) c.add_file(f);
    return c;
  }
  std::string dir_;
};

TEST_F(LiveRecords, Gcc) {
  ASSERT_EQ(compile("gcc", "-fsave-optimization-record"), 0);
  Commentary c = load();
  ASSERT_EQ(c.files_read().size(), 1u);
  EXPECT_TRUE(c.problems().empty());
  auto at10 = c.for_line(std::string(COMMENTARY_TESTDATA) + "/rec.c", 10, kInline);
  ASSERT_FALSE(at10.empty());
  EXPECT_EQ(at10[0]->text, "Function scale_helper inlined from source file rec_helper.h into the code for the following line");
  auto at5 = c.for_line("rec.c", 5, kLoop);
  ASSERT_EQ(at5.size(), 1u);
  EXPECT_NE(at5[0]->text.find("Loop below vectorized"), std::string::npos);
  EXPECT_TRUE(c.for_line("rec.c", 5, kInline).empty());
  EXPECT_TRUE(c.for_line("other.c", 5, kAllClasses).empty());
}

TEST_F(LiveRecords, GccOptInfoFile) {
  ASSERT_EQ(compile("gcc", "-fopt-info-all=rec.optinfo"), 0);
  Commentary c = load();
  ASSERT_EQ(c.files_read().size(), 1u);
  EXPECT_FALSE(c.for_line("rec.c", 10, kInline).empty());
  EXPECT_FALSE(c.for_line("rec.c", 5, kLoop).empty());
}

// Issue 15 item 9: gcc asked for both records writes each remark twice (text and JSON, in two
// wordings); each is shown once, from the JSON (which names the inlined function's file).
TEST_F(LiveRecords, GccTextAndJsonRecordsShowEachRemarkOnce) {
  ASSERT_EQ(compile("gcc", "-fsave-optimization-record -fopt-info-all=rec.optinfo"), 0);
  Commentary c = load();
  ASSERT_EQ(c.files_read().size(), 2u);
  auto at10 = c.for_line("rec.c", 10, kInline);
  size_t scale = 0;
  for (const auto* r : at10) scale += r->text.find("scale_helper") != std::string::npos;
  EXPECT_EQ(scale, 1u);
  ASSERT_FALSE(at10.empty());
  EXPECT_NE(at10[0]->text.find("from source file rec_helper.h"), std::string::npos) << at10[0]->text;
  EXPECT_EQ(c.for_line("rec.c", 5, kLoop).size(), 1u);
}

TEST_F(LiveRecords, Clang) {
  ASSERT_EQ(compile("clang", "-fsave-optimization-record"), 0);
  Commentary c = load();
  ASSERT_EQ(c.files_read().size(), 1u) << "rec.opt.yaml";
  auto inl = c.for_line("rec.c", 10, kBasic);
  bool helper = false;
  for (auto* r : inl) helper |= r->text.find("Function scale_helper inlined") != std::string::npos;
  EXPECT_TRUE(helper);
  auto vec = c.for_line("rec.c", 5, kLoop);
  bool vectorized = false;
  for (auto* r : vec) vectorized |= r->text.find("Loop below vectorized") != std::string::npos;
  EXPECT_TRUE(vectorized);
}

TEST(Version, ProducerAndDate) {
  auto v = version_lines(std::string(COMMENTARY_TESTDATA) + "/rec.c", "GNU C17 12.2.0 -O2 -g");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_NE(v[1].find("Last modified: "), std::string::npos);
  EXPECT_EQ(v[2], "Compiled by: GNU C17 12.2.0 -O2 -g");
}

}  // namespace
}  // namespace erkit::commentary
