// Round trips of the per-event exports (Chrome trace, speedscope), parsed back with python3's
// json module: the time each function spends on top of the stack equals its exclusive time.
#include "exporters/export_test_util.h"
#include "exporters/export_util.h"
#include "exporters/exporters.h"

namespace erkit::exporters {
namespace {
using namespace test;

const std::vector<std::string> kStacks = {"main;solve;kernel 10", "main;solve 4", "main;io 6",
                                          "main;solve;kernel;leaf 2"};

// Prints "name excl_ns" lines computed from the exported file by a python snippet.
std::string python(const std::string& script, const std::string& file, int* st) {
  std::string path = file + ".py";
  write_file(path, script);
  return run_command("python3 " + path + " " + file + " 2>&1", st);
}

std::string expected_lines(const Truth& t) {
  std::string s;
  for (const auto& [n, v] : t.excl) s += fmt::format("{} {}\n", n, v);
  return s;
}

TEST_F(ExportTest, ChromeTraceSlicesNestAndSelfTimesEqualExclusive) {
  if (!have_program("python3")) GTEST_SKIP() << "python3 missing";
  erkit::testing::FoldedOptions fo;
  fo.tid = 77;
  auto p = load_folded(dir_, kStacks, fo);
  Options o;
  std::string err;
  std::string file = out_path("t.json");
  write_file(file, write_chrome_trace(*p, o, &err));
  // Self time of an X slice = its duration minus its direct children's (same thread, nested).
  const char* script = R"(import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
assert any(e["ph"] == "M" and e["name"] == "thread_name" and e["tid"] == 77 for e in ev)
xs = sorted([e for e in ev if e["ph"] == "X" and e["cat"] == "clock"], key=lambda e: (e["ts"], -e["dur"]))
assert all(e["tid"] == 77 and e["pid"] == 1000 for e in xs)
self, stack = {}, []
for e in xs:
    while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"] + 1e-6: stack.pop()
    if stack:
        parent = stack[-1]
        assert e["ts"] + e["dur"] <= parent["ts"] + parent["dur"] + 1e-6, "slices must nest"
        self[parent["name"]] = self.get(parent["name"], 0) - e["dur"]
    self[e["name"]] = self.get(e["name"], 0) + e["dur"]
    stack.append(e)
for n in sorted(self):
    if round(self[n] * 1000) != 0: print(n, round(self[n] * 1000))
)";
  int st = 0;
  std::string got = python(script, file, &st);
  ASSERT_EQ(st, 0) << got;
  EXPECT_EQ(got, expected_lines(truth(*p, model::kTotal)));
}

TEST_F(ExportTest, SpeedscopeProfilesFollowTheSchemaAndWeighFunctions) {
  if (!have_program("python3")) GTEST_SKIP() << "python3 missing";
  auto p = load_folded(dir_, kStacks);
  Options o;
  std::string err;
  o.metrics = *select_metrics(*p, "", &err);
  std::string file = out_path("s.json");
  write_file(file, write_speedscope(*p, o, &err));
  ASSERT_EQ(err, "");
  const char* script = R"(import json, sys
d = json.load(open(sys.argv[1]))
assert d["$schema"] == "https://www.speedscope.app/file-format-schema.json"
frames = d["shared"]["frames"]
assert all("name" in f for f in frames)
excl = {}
for prof in d["profiles"]:
    assert prof["type"] == "sampled" and prof["unit"] == "nanoseconds"
    assert len(prof["samples"]) == len(prof["weights"])
    assert prof["endValue"] - prof["startValue"] == sum(prof["weights"])
    for s, w in zip(prof["samples"], prof["weights"]):
        leaf = frames[s[-1]]["name"]
        excl[leaf] = excl.get(leaf, 0) + w
for n in sorted(excl): print(n, excl[n])
)";
  int st = 0;
  std::string got = python(script, file, &st);
  ASSERT_EQ(st, 0) << got;
  EXPECT_EQ(got, expected_lines(truth(*p, model::kUser)));
}

TEST(Json, StringsAreEscapedAndValidUtf8) {
  EXPECT_EQ(json_string("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
  EXPECT_EQ(json_string("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
  EXPECT_EQ(json_string("bad\xff"), "\"bad\\ufffd\"");
}

}  // namespace
}  // namespace erkit::exporters
