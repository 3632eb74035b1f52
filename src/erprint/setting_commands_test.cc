// Output control, presentation settings, the defaults commands, dataspace/memory-object
// commands without data, mapfile, and JSON output of every report.
#include <gtest/gtest.h>

#include "synthetic_experiment.h"
#include "views/json.h"

namespace erkit::erprint {
namespace {

class SettingCommands : public testing::SessionFixture {
 protected:
  void SetUp() override {
    add_folded({"main;solve;kernel 6", "main;solve 2", "main;init 1"});
    open();
  }
};

TEST_F(SettingCommands, LimitNameViewmode) {
  EXPECT_EQ(run("limit"), "current limit: none\n");
  EXPECT_EQ(run("limit x"), "");
  EXPECT_NE(last_error_.find("limit: 'x' is not a non-negative number"), std::string::npos);
  EXPECT_EQ(run("name short:shared_object_name"), "current name format: short:shared_object_name\n");
  std::string f = run("metrics e.user\nfunctions");
  EXPECT_NE(f.find("   kernel (libsynth.so)\n"), std::string::npos) << f;
  EXPECT_EQ(run("name long"), "current name format: long:shared_object_name\n");
  EXPECT_EQ(run("name medium"), "");
  EXPECT_NE(last_error_.find("unknown style 'medium'"), std::string::npos);
  EXPECT_EQ(run("viewmode expert"), "current viewmode: expert\n");
  EXPECT_EQ(run("viewmode java"), "");
  EXPECT_NE(last_error_.find("not user, expert or machine"), std::string::npos);
}

TEST_F(SettingCommands, OutfileAndAppendfile) {
  const std::string file = path(0) + ".src/out.txt";
  EXPECT_EQ(run("outfile " + file + "\nlimit 2\nappendfile " + file + "\nlimit 3"), "");
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), "current limit: 2\ncurrent limit: 3\n");
  EXPECT_EQ(run("outfile /nonexistent/dir/x"), "");
  EXPECT_NE(last_error_.find("outfile: cannot open '/nonexistent/dir/x'"), std::string::npos) << last_error_;
}

TEST_F(SettingCommands, DefaultsCommands) {
  EXPECT_EQ(run("dmetrics i.%user:e.user\ndsort i.user"),
            "current: i.user:i%user:e.user:name\ncurrent sort: e.user\ncurrent: i.user:i%user:e.user:name\n"
            "current sort: i.user\n");
  // `metrics default` now means the new defaults.
  EXPECT_EQ(run("metrics e.user\nmetrics default"), "current: e.user:name\ncurrent: i.user:i%user:e.user:name\n");
  EXPECT_EQ(run("dmetrics"), "current dmetrics: i.%user:e.user\n");
  EXPECT_EQ(run("en_desc on"), "current en_desc: on\n");
  EXPECT_EQ(run("en_desc maybe"), "");
  EXPECT_NE(last_error_.find("give 'on' or 'off'"), std::string::npos);
}

TEST_F(SettingCommands, AnalyzerOnlySettingsAreCheckedAndKept) {
  EXPECT_EQ(run("tlmode t:le:d 5"),
            "current tlmode: thread:leaf:depth 5 (used by the Analyzer GUI; er_print reports are unaffected)\n");
  EXPECT_EQ(run("tldata sa:c:he"),
            "current tldata: sample:clock:heaptrace (used by the Analyzer GUI; er_print reports are unaffected)\n");
  EXPECT_EQ(run("tabs functions:callers-callees:timeline"),
            "current tabs: functions:callers-callees:timeline (used by the Analyzer GUI; er_print reports are "
            "unaffected)\n");
  EXPECT_EQ(run("tldata sa:nosuch"), "");
  EXPECT_NE(last_error_.find("tldata: unknown entry 'nosuch'"), std::string::npos) << last_error_;
  EXPECT_EQ(run("tlmode depth x"), "");
  EXPECT_NE(last_error_.find("'depth' needs a positive number"), std::string::npos) << last_error_;
}

TEST_F(SettingCommands, DataspaceCommandsParseAndSayThereIsNoData) {
  for (const char* c : {"data_objects", "data_layout", "data_single x", "data_metrics d.%cycles",
                        "data_sort -d.cycles", "memobj Vpage_4K", "Vpage_4K"}) {
    std::string out = run(c);
    EXPECT_NE(out.find("hold no dataspace data"), std::string::npos) << c << ": " << out << last_error_;
  }
  EXPECT_EQ(run("data_metrics e.user"), "");
  EXPECT_NE(last_error_.find("'e.user' is not a data-derived metric"), std::string::npos) << last_error_;
  EXPECT_EQ(run("data_sort -ie%user"), "");
  EXPECT_NE(last_error_.find("data_sort: 'ie%user' is not a data-derived metric"), std::string::npos) << last_error_;
  EXPECT_EQ(run("data_metrics d.%user:"), "");
  EXPECT_NE(last_error_.find("data_metrics:"), std::string::npos) << last_error_;
  EXPECT_EQ(run("memobj nosuch"), "");
  EXPECT_NE(last_error_.find("unknown memory object type"), std::string::npos);
  // mobj_define: a new valid name and an expression that parses.
  EXPECT_EQ(run("mobj_define Vpage_32K VADDR>255 ? VADDR>>15 : -1"),
            "memory object type Vpage_32K defined as VADDR>255 ? VADDR>>15 : -1\n");
  EXPECT_NE(run("mobj_list").find("  Vpage_32K        VADDR>255 ? VADDR>>15 : -1\n"), std::string::npos);
  EXPECT_NE(run("Vpage_32K").find("no Vpage_32K memory objects"), std::string::npos);
  EXPECT_EQ(run("obj_define Vpage_32K VADDR"), "");
  EXPECT_NE(last_error_.find("already exists"), std::string::npos);
  EXPECT_EQ(run("obj_define 9bad VADDR"), "");
  EXPECT_NE(last_error_.find("not a valid name"), std::string::npos);
  EXPECT_EQ(run("obj_define Good VADDR >>"), "");
  EXPECT_NE(last_error_.find("bad index expression"), std::string::npos);
  // The new type is usable in filters.
  EXPECT_EQ(run("filters Vpage_32K == 3"), "current filter: Vpage_32K == 3\n");
}

TEST_F(SettingCommands, Mapfile) {
  run("metrics e.user:i.user\nsort i.user");
  EXPECT_EQ(run("mapfile libsynth.so - lld").substr(run("mapfile libsynth.so - lld").find('\n') + 1),
            "main\nsolve\nkernel\ninit\n");
  std::string gnu = run("mapfile libsynth.so -");
  EXPECT_NE(gnu.find("  .text.erkit_ordered :\n  {\n    *(.text.main)\n    *(.text.solve)\n    *(.text.kernel)\n"
                     "    *(.text.init)\n  }\n}\nINSERT BEFORE .text;\n"),
            std::string::npos)
      << gnu;
  std::string gold = run("sort e.user\nmapfile libsynth.so - gold");
  EXPECT_NE(gold.find("\n.text.kernel\n.text.solve\n.text.init\n.text.main\n"), std::string::npos) << gold;
  EXPECT_EQ(run("mapfile nosuch.so -"), "");
  EXPECT_NE(last_error_.find("no load object named 'nosuch.so'"), std::string::npos);
  EXPECT_EQ(run("mapfile libsynth.so - ld64"), "");
  EXPECT_NE(last_error_.find("unknown format 'ld64'"), std::string::npos);
}

// Every command's output in JSON mode is one JSON object per line with the schema fields.
TEST_F(SettingCommands, EveryReportIsJson) {
  const std::map<std::string, std::string> args = {
      {"fsingle", "kernel"}, {"csingle", "kernel"}, {"data_single", "x"}, {"memobj", "Vpage_4K"},
      {"mobj_define", "T2 VADDR"}, {"mapfile", "libsynth.so -"}, {"object_select", "libsynth.so"},
      {"object_show", "all"}, {"object_hide", "all"}, {"source", "kernel"}, {"disasm", "kernel"}};
  const std::set<std::string> skip = {"quit", "script", "outfile", "appendfile", "outformat"};
  size_t checked = 0;
  for (const auto& c : command_table()) {
    if (skip.count(c.name) || (c.min_args > 0 && !args.count(c.name))) continue;
    std::string cmd = c.name + (args.count(c.name) ? " " + args.at(c.name) : "");
    run("outformat text");
    const bool prints = !run(cmd).empty();
    run("outformat json");
    std::string out = run(cmd);
    std::istringstream in(out);
    std::string line;
    size_t objects = 0;
    while (std::getline(in, line)) {
      json::Value v;
      std::string error;
      ASSERT_TRUE(json::parse(line, &v, &error)) << cmd << ": " << error << "\n" << line;
      EXPECT_EQ(v["schema"].as_string(), "erkit.er_print") << line;
      EXPECT_EQ(v["version"].as_int(), kJsonSchemaVersion) << line;
      EXPECT_FALSE(v["command"].as_string().empty()) << line;
      EXPECT_TRUE(!v["data"].is_null() || !v["error"].is_null()) << "every report has a structured form\n" << line;
      EXPECT_TRUE(v["text"].is_null()) << line;
      ++objects;
    }
    if (ok_ && prints) {
      EXPECT_GE(objects, 1u) << cmd;
    }
    ++checked;
  }
  EXPECT_GT(checked, 50u);
}

TEST_F(SettingCommands, JsonFunctionList) {
  json::Value v;
  std::string error;
  ASSERT_TRUE(json::parse(run("outformat json\nmetrics e.user:i%user\nfunctions").substr(
                              run("outformat json\nmetrics e.user:i%user").size()),
                          &v, &error))
      << error;
  EXPECT_EQ(v["command"].as_string(), "functions");
  const auto& d = v["data"];
  EXPECT_EQ(d["columns"].dump(),
            R"([{"flavor":"exclusive","metric":"user","title":"User CPU Time","unit":"ns"},)"
            R"({"flavor":"inclusive","metric":"user","title":"User CPU Time","unit":"percent"}])");
  EXPECT_EQ(d["sort"].dump(), R"({"flavor":"exclusive","metric":"user","reverse":false})");
  EXPECT_EQ(d["rows"][0]["name"].as_string(), "<Total>");
  EXPECT_EQ(d["rows"][0]["values"][0].as_int(), 90000000);
  EXPECT_EQ(d["rows"][1]["name"].as_string(), "kernel");
  EXPECT_EQ(d["rows"][1]["values"][0].as_int(), 60000000);
  EXPECT_DOUBLE_EQ(d["rows"][1]["values"][1].as_double(), 100.0 * 6 / 9);
}

}  // namespace
}  // namespace erkit::erprint
