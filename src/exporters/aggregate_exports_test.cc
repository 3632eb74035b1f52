// Round trips of the aggregate exports (pprof, folded, callgrind): every function's exclusive
// and inclusive totals read back from the exported file equal er_print's, exactly.
#include <set>
#include <sstream>

#include "exporters/export_test_util.h"
#include "exporters/exporters.h"
#include "format/host_writer.h"
#include "symbols/symbols.h"

namespace erkit::exporters {
namespace {
using namespace test;

const std::vector<std::string> kStacks = {"main;solve;kernel 10", "main;solve 4", "main;io 6",
                                          "main;solve;kernel;leaf 2", "main;recurse;recurse;kernel 3"};

TEST_F(ExportTest, FoldedLinesSumToTheFunctionTotals) {
  auto p = load_folded(dir_, kStacks);
  Options o;
  std::string err;
  o.metrics = *select_metrics(*p, "user", &err);
  std::string text = write_folded(*p, o, &err);
  ASSERT_EQ(err, "");
  // Recompute exclusive/inclusive per function from the folded lines.
  std::map<std::string, int64_t> excl, incl;
  std::istringstream in(text);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    size_t sp = line.rfind(' ');
    int64_t v = std::stoll(line.substr(sp + 1));
    std::vector<std::string> frames;
    std::istringstream fs(line.substr(0, sp));
    std::string f;
    while (std::getline(fs, f, ';')) frames.push_back(f);
    excl[frames.back()] += v;
    std::set<std::string> once(frames.begin(), frames.end());
    for (const auto& g : once) incl[g] += v;
  }
  EXPECT_EQ(lines, 5);
  Truth t = truth(*p, model::kUser);
  EXPECT_EQ(excl, t.excl);
  EXPECT_EQ(incl, t.incl);
  EXPECT_EQ(incl["main"], 25 * 10000000LL);
  EXPECT_NE(text.find("main;recurse;recurse;kernel 30000000\n"), std::string::npos) << text;
}

TEST_F(ExportTest, PprofDecodesWithProtocAndKeepsTotals) {
  if (!have_program("protoc") || !have_program("python3")) GTEST_SKIP() << "protoc or python3 missing";
  auto p = load_folded(dir_, kStacks);
  Options o;
  std::string err;
  o.metrics = *select_metrics(*p, "user,system,total", &err);
  std::string gz = write_pprof(*p, o, &err);
  ASSERT_EQ(err, "");
  std::string file = out_path("p.pb.gz");
  write_file(file, gz);
  int st = 0;
  std::string json = run_command(fmt::format("python3 {} {} {}", testdata("pprof_summary.py"), testdata("profile.proto"), file), &st);
  ASSERT_EQ(st, 0) << json;
  // The summary is small, regular JSON: check it against the truth textually per function.
  Truth t = truth(*p, model::kUser);
  EXPECT_NE(json.find("\"types\": [[\"user\", \"nanoseconds\"], [\"system\", \"nanoseconds\"], [\"total\", \"nanoseconds\"]]"),
            std::string::npos) << json;
  for (const auto& [name, v] : t.excl)
    EXPECT_NE(json.find(fmt::format("\"{}\": [{}, 0, {}]", name, v, v)), std::string::npos) << name << " excl\n" << json;
  size_t incl_at = json.find("\"incl\"");
  for (const auto& [name, v] : t.incl)
    EXPECT_NE(json.find(fmt::format("\"{}\": [{}, 0, {}]", name, v, v), incl_at), std::string::npos) << name << " incl\n" << json;
  EXPECT_NE(json.find("\"samples\": 5"), std::string::npos) << json;
  EXPECT_NE(json.find("funcs.so"), std::string::npos) << "mapping names the object\n" << json;
}

TEST_F(ExportTest, CallgrindSelfAndCallCostsMatch) {
  auto p = load_folded(dir_, kStacks);
  Options o;
  std::string err;
  o.metrics = *select_metrics(*p, "user", &err);
  std::string text = write_callgrind(*p, o, &err);
  ASSERT_EQ(err, "");
  EXPECT_EQ(text.rfind("# callgrind format\nversion: 1\n", 0), 0u);
  EXPECT_NE(text.find("events: user\n"), std::string::npos);
  EXPECT_NE(text.find("summary: 250000000\n"), std::string::npos) << text;
  // Self cost lines follow "fn=" until a "cfn="/"calls=" pair; a cost line after calls= is the
  // call's inclusive cost.
  std::map<std::string, std::string> fn_names;
  std::map<std::string, int64_t> self, called;  // called: inclusive cost of calls into a function
  std::istringstream in(text);
  std::string line, fn, cfn;
  bool after_calls = false;
  auto name_of = [&](const std::string& spec) {
    size_t close = spec.find(')');
    std::string id = spec.substr(0, close + 1);
    if (close + 1 < spec.size()) fn_names[id] = spec.substr(close + 2);
    return fn_names[id];
  };
  while (std::getline(in, line)) {
    if (line.rfind("fn=", 0) == 0) fn = name_of(line.substr(3));
    else if (line.rfind("cfn=", 0) == 0) cfn = name_of(line.substr(4));
    else if (line.rfind("calls=", 0) == 0) after_calls = true;
    else if (!line.empty() && isdigit(static_cast<unsigned char>(line[0])) && !fn.empty()) {
      int64_t v = std::stoll(line.substr(line.find(' ') + 1));
      if (after_calls) called[cfn] += v; else self[fn] += v;
      after_calls = false;
    }
  }
  Truth t = truth(*p, model::kUser);
  EXPECT_EQ(self, t.excl);
  // Without recursion, a function's inclusive cost is what its callers' calls carry.
  for (const char* f : {"solve", "kernel", "leaf", "io"}) EXPECT_EQ(called[f], t.incl[f]) << f;
}

}  // namespace
}  // namespace erkit::exporters

namespace erkit::exporters {
namespace {
using namespace test;

// A PC inside code inlined into its caller becomes one pprof Location with two Lines: the
// inlined function first, then the function it was inlined into.
TEST_F(ExportTest, PprofLocationsCarryInlinedFrames) {
  if (!have_program("protoc") || !have_program("python3")) GTEST_SKIP() << "protoc or python3 missing";
  std::string src = dir_ + ".src/inl.c", so = dir_ + ".src/inl.so";
  std::filesystem::create_directories(dir_ + ".src");
  write_file(src,
             "static inline __attribute__((always_inline)) int inner(int x) {\n"
             "  int s = 0;\n  for (int i = 0; i < x; i++) s += i * x;\n  return s;\n}\n"
             "int outer(int x) { return inner(x) + 1; }\n");
  int st = 0;
  run_command(fmt::format("cc -shared -fPIC -O2 -g -o {} {} 2>&1", so, src), &st);
  ASSERT_EQ(st, 0);
  std::string err;
  auto syms = symbols::ObjectSymbols::open(so, "", &err);
  ASSERT_TRUE(syms) << err;
  uint64_t pc = 0;
  for (const auto& f : syms->functions())
    if (f.name == "outer")
      for (uint64_t a = f.addr; a < f.addr + f.size && !pc; ++a)
        if (syms->lookup(a).size() == 2) pc = a;
  ASSERT_NE(pc, 0u) << "no inlined code found in outer()";
  {
    format::HostExperimentWriter w(dir_);
    ASSERT_TRUE(w.ok()) << w.error();
    w.log_line("0 start pid=5 ppid=1 exe=\"inl\" clock_interval_ns=10000000");
    w.load_object(so, 0, 0, uint64_t(1) << 40);
    format::ClockSampleRecord r{};
    r.tid = 5;
    r.tstamp_ns = 10000000;
    r.stack_id = w.stack({pc});
    r.ns[0] = 10000000;
    w.clock_sample(r);
  }
  auto opened = reader::open_experiment(dir_);
  ASSERT_TRUE(opened.experiment) << opened.error;
  model::Profile p;
  p.add_experiment(std::move(*opened.experiment));
  Options o;
  o.metrics = *select_metrics(p, "user", &err);
  std::string file = out_path("inl.pb.gz");
  write_file(file, write_pprof(p, o, &err));
  std::string json = run_command(fmt::format("python3 {} {} {}", testdata("pprof_summary.py"), testdata("profile.proto"), file), &st);
  ASSERT_EQ(st, 0) << json;
  EXPECT_NE(json.find("\"inline_locations\": 1"), std::string::npos) << json;
  EXPECT_NE(json.find("\"excl\": {\"inner\": [10000000]}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"outer\": [10000000]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"inner\": [3]"), std::string::npos) << "inner's source line\n" << json;
}

}  // namespace
}  // namespace erkit::exporters
