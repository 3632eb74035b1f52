// End-to-end: er_convert on experiments recorded by collect, each export read back by the tool
// users would open it with (protoc against profile.proto, go tool pprof when installed, python's
// json for Chrome trace and speedscope) and compared function by function with er_print.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {
namespace fs = std::filesystem;

bool have(const std::string& program) { return run("command -v " + program).status == 0; }

class ToolsExports : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // One recording serves every test: work_ratio spends twice as long in two() as in one().
    dir_ = new std::string(make_workdir("tools_exports"));
    rows_ = new std::map<std::string, FunctionRow>;
    auto c = run("cd " + *dir_ + " && " + bin("collect") + " " + program("work_ratio") + " 60000000");
    ASSERT_EQ(c.status, 0) << c.err;
    auto p = run("cd " + *dir_ + " && " + bin("er_print") + " -metrics e.user:i.user:e.total:name -functions test.1.er");
    ASSERT_EQ(p.status, 0) << p.err;
    *rows_ = parse_function_list(p.out);
    ASSERT_TRUE(rows_->count("one") && rows_->count("two")) << p.out;
  }
  void SetUp() override { ASSERT_TRUE(rows_->count("one") && rows_->count("two")) << "the shared recording failed"; }
  static void TearDownTestSuite() {
    fs::remove_all(*dir_);
    delete dir_;
    delete rows_;
  }
  RunResult in_dir(const std::string& cmd) { return run("cd " + *dir_ + " && " + cmd); }
  RunResult convert(const std::string& args) { return in_dir(bin("er_convert") + " " + args); }
  // Runs a python script (argv[1] = file) in the work directory.
  RunResult python(const std::string& script, const std::string& file) {
    std::string path = *dir_ + "/check_" + file + ".py";
    std::ofstream(path) << script;
    return in_dir("python3 " + path + " " + file);
  }
  // er_print's value (seconds) of column `col` for function f.
  double value(const std::string& f, size_t col) { return (*rows_)[f].values.at(col); }
  static std::string* dir_;
  static std::map<std::string, FunctionRow>* rows_;
};
std::string* ToolsExports::dir_;
std::map<std::string, FunctionRow>* ToolsExports::rows_;

// "name value" lines -> map (values in seconds).
std::map<std::string, double> name_values(const std::string& text, double scale) {
  std::map<std::string, double> m;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t sp = line.rfind(' ');
    if (sp != std::string::npos) m[line.substr(0, sp)] = std::stod(line.substr(sp + 1)) * scale;
  }
  return m;
}

TEST_F(ToolsExports, FoldedStacksSumToErPrintsExclusiveTimes) {
  auto r = convert("-format folded -metrics user -o - test.1.er");
  ASSERT_EQ(r.status, 0) << r.err;
  std::map<std::string, double> excl;
  for (const auto& [stack, v] : name_values(r.out, 1e-9)) excl[stack.substr(stack.rfind(';') + 1)] += v;
  for (const char* f : {"one", "two"}) EXPECT_NEAR(excl[f], value(f, 0), 0.0011) << f << "\n" << r.out;
  EXPECT_NE(r.out.find("main;two "), std::string::npos) << "stacks are root first\n" << r.out;
}

TEST_F(ToolsExports, PprofDecodesWithProtocAndMatchesErPrint) {
  if (!have("protoc") || !have("python3")) GTEST_SKIP() << "protoc or python3 not installed";
  auto r = convert("-format pprof -metrics user,total test.1.er");
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_TRUE(fs::exists(*dir_ + "/test.1.pb.gz")) << r.err;
  std::string data = std::string(ERKIT_SOURCE_DIR) + "/src/exporters/testdata/";
  auto s = in_dir("python3 " + data + "pprof_summary.py " + data + "profile.proto test.1.pb.gz");
  ASSERT_EQ(s.status, 0) << s.err;
  std::ofstream(*dir_ + "/summary.json") << s.out;
  auto check = python(R"(import json, sys
d = json.load(open(sys.argv[1]))
assert d["types"] == [["user", "nanoseconds"], ["total", "nanoseconds"]], d["types"]
assert any(m[0].endswith("/work_ratio") and len(m[1]) == 40 for m in d["mappings"]), d["mappings"]
assert all(l > 0 for l in d["lines"]["two"]), "source lines are kept"
for f in ("one", "two", "main"):
    print(f, d["excl"].get(f, [0])[0], d["incl"][f][0])
)", "summary.json");
  ASSERT_EQ(check.status, 0) << check.out << check.err;
  std::istringstream in(check.out);
  std::string f;
  double excl, incl;
  while (in >> f >> excl >> incl) {
    EXPECT_NEAR(excl / 1e9, value(f, 0), 0.0011) << f;
    EXPECT_NEAR(incl / 1e9, value(f, 1), 0.0011) << f;
  }
}

TEST_F(ToolsExports, GoToolPprofReadsTheProfile) {
  if (!have("go")) GTEST_SKIP() << "go (Debian golang-go) not installed";
  auto r = convert("-format pprof -o gopprof.pb.gz test.1.er");
  ASSERT_EQ(r.status, 0) << r.err;
  auto p = in_dir("HOME=" + *dir_ + " go tool pprof -raw -sample_index=user gopprof.pb.gz");
  ASSERT_EQ(p.status, 0) << p.err;
  EXPECT_NE(p.out.find("user/nanoseconds[dflt]"), std::string::npos) << p.out;
  auto top = in_dir("HOME=" + *dir_ + " go tool pprof -top -unit=ms -sample_index=user gopprof.pb.gz");
  ASSERT_EQ(top.status, 0) << top.err;
  // "  flat  flat%  sum%  cum  cum%  name": flat milliseconds of one and two.
  std::map<std::string, double> flat;
  std::istringstream in(top.out);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string v, a, b, c, d, name;
    if (ls >> v >> a >> b >> c >> d >> name && v.size() > 2 && v.substr(v.size() - 2) == "ms") flat[name] = std::stod(v);
  }
  for (const char* f : {"one", "two"}) EXPECT_NEAR(flat[f] / 1000, value(f, 0), 0.0011) << f << "\n" << top.out;
}

TEST_F(ToolsExports, ChromeTraceHasThreadTracksAndNestedSlices) {
  if (!have("python3")) GTEST_SKIP() << "python3 not installed";
  auto r = convert("-format chrome test.1.er");
  ASSERT_EQ(r.status, 0) << r.err;
  auto check = python(R"(import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
names = [e for e in ev if e["ph"] == "M" and e["name"] == "thread_name"]
assert names, "a track per thread"
xs = sorted([e for e in ev if e["ph"] == "X"], key=lambda e: (e["tid"], e["ts"], -e["dur"]))
self, stack = {}, []
for e in xs:
    while stack and (stack[-1]["tid"] != e["tid"] or stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"] + 1e-6): stack.pop()
    if stack:
        assert e["ts"] + e["dur"] <= stack[-1]["ts"] + stack[-1]["dur"] + 1e-6, "slices nest"
        self[stack[-1]["name"]] = self.get(stack[-1]["name"], 0) - e["dur"]
    self[e["name"]] = self.get(e["name"], 0) + e["dur"]
    stack.append(e)
for f in ("one", "two"): print(f, self.get(f, 0) / 1e6)
)", "test.1.trace.json");
  ASSERT_EQ(check.status, 0) << check.out << check.err;
  // Slices cover each sample's thread time, but a sample never reaches back before the previous
  // one, except that samples of a blocked thread (wait time overlapping the CPU samples around
  // them) give way to the next CPU sample. So a function's self time lies between its User CPU
  // (the CPU samples lie end to end) and its Total LWP Time.
  for (const auto& [f, secs] : name_values(check.out, 1.0)) {
    EXPECT_LE(secs, value(f, 2) + 0.0011) << f;
    EXPECT_GE(secs, value(f, 0) * 0.9 - 0.0011) << f;
  }
}

TEST_F(ToolsExports, SpeedscopeWeightsMatchErPrint) {
  if (!have("python3")) GTEST_SKIP() << "python3 not installed";
  auto r = convert("-format speedscope -metrics user test.1.er");
  ASSERT_EQ(r.status, 0) << r.err;
  auto check = python(R"(import json, sys
d = json.load(open(sys.argv[1]))
assert d["$schema"] == "https://www.speedscope.app/file-format-schema.json"
frames = d["shared"]["frames"]
excl = {}
for p in d["profiles"]:
    assert p["type"] == "sampled" and p["unit"] == "nanoseconds"
    assert p["endValue"] == sum(p["weights"]) and len(p["samples"]) == len(p["weights"])
    for s, w in zip(p["samples"], p["weights"]):
        excl[frames[s[-1]]["name"]] = excl.get(frames[s[-1]]["name"], 0) + w
for f in ("one", "two"): print(f, excl.get(f, 0) / 1e9)
)", "test.1.speedscope.json");
  ASSERT_EQ(check.status, 0) << check.out << check.err;
  for (const auto& [f, secs] : name_values(check.out, 1.0)) EXPECT_NEAR(secs, value(f, 0), 0.0011) << f;
}

TEST_F(ToolsExports, CallgrindSummaryIsTheTotal) {
  auto r = convert("-format callgrind -metrics user -o - test.1.er");
  ASSERT_EQ(r.status, 0) << r.err;
  size_t at = r.out.find("\nsummary: ");
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_NEAR(std::stod(r.out.substr(at + 10)) / 1e9, value("<Total>", 0), 0.0011);
  EXPECT_NE(r.out.find("fn=(1)"), std::string::npos);
}

TEST_F(ToolsExports, EveryThreadGetsItsTrack) {
  if (!have("python3")) GTEST_SKIP() << "python3 not installed";
  auto c = in_dir(bin("collect") + " -o threads.1.er " + program("threads4") + " truth.txt");
  ASSERT_EQ(c.status, 0) << c.err;
  auto r = convert("-format chrome -o threads.json threads.1.er");
  ASSERT_EQ(r.status, 0) << r.err;
  auto check = python(R"(import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
tracks = {e["tid"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
busy = {e["tid"] for e in ev if e["ph"] == "X"}
print(len(tracks), len(busy), int(busy <= tracks))
)", "threads.json");
  ASSERT_EQ(check.status, 0) << check.out << check.err;
  int tracks = 0, busy = 0, subset = 0;
  std::istringstream(check.out) >> tracks >> busy >> subset;
  EXPECT_GE(busy, 5) << "main and four workers";
  EXPECT_EQ(subset, 1);
}

TEST_F(ToolsExports, BadInputGetsAClearMessage) {
  auto r = convert("-format nope test.1.er");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown format 'nope'"), std::string::npos) << r.err;
  r = convert("-format pprof missing.er");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("missing.er"), std::string::npos) << r.err;
  r = convert("-format folded -metrics bogus test.1.er");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("unknown metric 'bogus'"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace erkit::e2e
