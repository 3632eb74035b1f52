// JSON forms of the source, line, PC and trace reports: each parses, follows the schema of
// docs/er_print.md, and holds the values the text report prints.
#include <gtest/gtest.h>

#include "synthetic_experiment.h"
#include "views/json.h"

namespace erkit::erprint {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string l;
  while (std::getline(in, l)) out.push_back(l);
  return out;
}

std::vector<std::string> words_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

std::string join(const std::vector<std::string>& w, size_t from) {
  std::string out;
  for (size_t i = from; i < w.size(); ++i) out += (i > from ? " " : "") + w[i];
  return out;
}

// A metric cell as the text reports print it, from the JSON column and value.
std::string cell(const json::Value& column, const json::Value& v) {
  const std::string& unit = column["unit"].as_string();
  if (unit == "percent") return v.as_double() == 0 ? "0." : fmt::format("{:.2f}", v.as_double());
  if (unit == "ns") return v.as_int() == 0 ? "0." : fmt::format("{:.3f}", double(v.as_int()) / 1e9);
  return fmt::format("{}", v.as_int());
}

std::string percent_cell(double p) { return p == 0 ? "0." : fmt::format("{:.2f}", p); }

class JsonReports : public testing::SessionFixture {
 protected:
  void SetUp() override {
    testing::Synthetic s;
    s.debug = true;
    s.clock = {"main;solve;kernel 6", "main;solve 2", "main;init 1"};
    s.heap = {"main;solve;kernel 3 size=1024 freed=1", "main;init 2 size=100"};
    s.io = {"main;solve 4 op=read bytes=512 ns=2000 file=/tmp/a.dat", "main;init 1 op=write bytes=64 ns=500 file=/tmp/b.dat",
            "main;init 2 op=open ns=300 file=/tmp/b.dat"};
    s.sync = {"main;solve 2 ns=3000 object=0x7000", "main;init 1 ns=1000 object=0x8000"};
    add(s);
    open();
  }
  // The "data" of the last command's report in JSON mode (schema fields checked).
  json::Value data_of(const std::string& cmds) {
    run("outformat json");
    const auto out = lines_of(run(cmds));
    run("outformat text");
    const auto cmd = lines_of(cmds).back();
    json::Value v;
    std::string error;
    EXPECT_FALSE(out.empty()) << cmds;
    EXPECT_TRUE(json::parse(out.empty() ? "" : out.back(), &v, &error)) << cmd << ": " << error;
    EXPECT_EQ(v["schema"].as_string(), "erkit.er_print");
    EXPECT_EQ(v["version"].as_int(), kJsonSchemaVersion);
    EXPECT_EQ(v["command"].as_string(), words_of(cmd)[0]);
    EXPECT_TRUE(v["text"].is_null()) << v.dump();
    return v["data"];
  }
  // A table report: after `skip` lines, each JSON row is one text line, its cells then its name.
  void expect_table_matches(const std::string& cmd, size_t skip) {
    const json::Value d = data_of(cmd);
    const auto text = lines_of(run(cmd));
    const auto& cols = d["columns"];
    ASSERT_EQ(text.size(), skip + d["rows"].size()) << run(cmd);
    ASSERT_GT(d["rows"].size(), 1u);
    for (size_t r = 0; r < d["rows"].size(); ++r) {
      const auto& row = d["rows"][r];
      const auto w = words_of(text[skip + r]);
      ASSERT_GT(w.size(), cols.size());
      for (size_t c = 0; c < cols.size(); ++c) EXPECT_EQ(w[c], cell(cols[c], row["values"][c])) << text[skip + r];
      EXPECT_EQ(join(w, cols.size()), row["name"].as_string());
    }
  }
  // Summary panels: a name line, one line per metric, then the source line, PC and object.
  void expect_summaries_match(const std::string& cmd) {
    const json::Value d = data_of(cmd);
    const auto text = lines_of(run(cmd));
    size_t at = 0;
    ASSERT_GT(d["items"].size(), 1u);
    for (const auto& item : d["items"].elements()) {
      ASSERT_LT(at, text.size());
      EXPECT_EQ(text[at++], item["name"].as_string());
      for (const auto& m : item["metrics"].elements()) {
        const std::string flavor = m["flavor"].as_string() == "inclusive" ? "Inclusive" : "Exclusive";
        EXPECT_EQ(join(words_of(text[at++]), 0),
                  join(words_of(fmt::format("{} {}:  {} ({}%)", flavor, m["title"].as_string(), cell(m, m["value"]),
                                            percent_cell(m["percent"].as_double()))),
                       0));
      }
      if (!item["source_file"].is_null()) {
        EXPECT_EQ(join(words_of(text[at++]), 0),
                  fmt::format("Source Line: {}:{}", item["source_file"].as_string(), item["line"].as_int()));
      }
      if (!item["address"].is_null()) {
        EXPECT_EQ(join(words_of(text[at++]), 0), fmt::format("PC Address: {:#x}", item["address"].as_int()));
      }
      EXPECT_EQ(join(words_of(text[at++]), 0), "Load Object: " + item["load_object"].as_string());
      EXPECT_EQ(text[at++], "");
    }
    EXPECT_EQ(at, text.size());
  }
  // Annotated listings: after the header, each JSON row is one line: "## " when hot, the
  // cells (none for null values), then the row's text.
  void expect_listing_matches(const std::string& cmd, size_t header_lines) {
    const json::Value d = data_of(cmd);
    const auto text = lines_of(run(cmd));
    const auto& cols = d["columns"];
    ASSERT_EQ(text.size(), header_lines + 1 + 3 + d["rows"].size()) << run(cmd);
    size_t hot = 0;
    for (size_t r = 0; r < d["rows"].size(); ++r) {
      const auto& row = d["rows"][r];
      const std::string& line = text[header_lines + 4 + r];
      std::string t = row["text"].as_string();
      while (!t.empty() && t.back() == ' ') t.pop_back();
      ASSERT_GE(line.size(), t.size());
      EXPECT_EQ(line.substr(line.size() - t.size()), t);
      EXPECT_EQ(line.rfind("## ", 0) == 0, row["hot"].as_bool()) << line;
      hot += row["hot"].as_bool();
      std::vector<std::string> cells = words_of(line.substr(0, line.size() - t.size()));
      if (!cells.empty() && cells[0] == "##") cells.erase(cells.begin());
      if (row["values"].is_null()) {
        EXPECT_TRUE(cells.empty()) << line;
        continue;
      }
      ASSERT_EQ(cells.size(), cols.size()) << line;
      for (size_t c = 0; c < cols.size(); ++c) EXPECT_EQ(cells[c], cell(cols[c], row["values"][c])) << line;
    }
    EXPECT_GT(hot, 0u);
  }
};

TEST_F(JsonReports, LinesAndPcs) {
  expect_table_matches("lines", 5);
  expect_table_matches("pcs", 5);
  const json::Value lines = data_of("lines");
  EXPECT_EQ(lines["sort"].dump(), R"({"flavor":"exclusive","metric":"user","reverse":false})");
  const auto& kernel = lines["rows"][1];
  EXPECT_EQ(kernel["kind"].as_string(), "line");
  EXPECT_EQ(kernel["function"].as_string(), "kernel");
  EXPECT_EQ(kernel["source_file"].as_string(), path(0) + ".src/funcs.c");
  EXPECT_EQ(kernel["line"].as_int(), 2);
  EXPECT_EQ(kernel["load_object"].as_string(), path(0) + ".src/libsynth.so");
  EXPECT_EQ(kernel["values"][0].as_int(), 60000000);
  EXPECT_EQ(lines["rows"][0]["kind"].as_string(), "total");
  const json::Value pcs = data_of("pcs");
  const auto& pc = pcs["rows"][1];
  EXPECT_EQ(pc["kind"].as_string(), "pc");
  EXPECT_EQ(pc["offset"].as_int(), 1);
  EXPECT_EQ(pc["line"].as_int(), 2);
  EXPECT_EQ(pc["name"].as_string(), "kernel + 0x00000001");
  // limit and sort apply as in the text.
  EXPECT_EQ(data_of("limit 2\nlines")["rows"].size(), 2u);
  run("limit 0\nsort i.leak");
  expect_table_matches("lines", 5);
  EXPECT_EQ(data_of("pcs")["sort"]["metric"].as_string(), "leak");
}

TEST_F(JsonReports, Summaries) {
  expect_summaries_match("lsummary");
  expect_summaries_match("psummary");
  run("metrics i.%user:e+leak");
  expect_summaries_match("lsummary");
}

TEST_F(JsonReports, SourceAndDisassembly) {
  expect_listing_matches("source kernel", 3);
  expect_listing_matches("disasm kernel", 2);
  run("sthresh 10\ndthresh 10\ndcc basic:hex:asrc");
  expect_listing_matches("source kernel", 3);
  expect_listing_matches("disasm kernel", 2);
  const json::Value src = data_of("source kernel");
  EXPECT_EQ(src["source_file"].as_string(), path(0) + ".src/funcs.c");
  EXPECT_EQ(src["threshold"].as_double(), 10);
  EXPECT_EQ(src["rows"][0]["kind"].as_string(), "source");
  EXPECT_EQ(src["rows"][0]["line"].as_int(), 1);
  EXPECT_EQ(src["rows"][0]["source"].as_string(), "int init(int x) { return x * 3 + 1; }");
  EXPECT_EQ(src["rows"][1]["kind"].as_string(), "index");
  const json::Value dis = data_of("disasm kernel");
  size_t instructions = 0;
  for (const auto& row : dis["rows"].elements()) {
    if (row["kind"].as_string() != "instruction") continue;
    ++instructions;
    EXPECT_NE(row["text"].as_string().find(fmt::format("{:x}:  {}", row["address"].as_int(), row["bytes"].as_string())),
              std::string::npos)
        << row.dump();
    EXPECT_NE(row["text"].as_string().find(row["mnemonic"].as_string()), std::string::npos);
    EXPECT_FALSE(row["function"].as_string().empty());
  }
  EXPECT_GT(instructions, 4u);
}

TEST_F(JsonReports, LeaksAndAllocs) {
  for (const char* cmd : {"leaks", "allocs"}) {
    const bool leaks = std::string(cmd) == "leaks";
    const json::Value d = data_of(cmd);
    // The text report rebuilt from the JSON.
    const auto& sum = d["summary"];
    std::string text = leaks ? fmt::format("Summary Results: Distinct Leaks = {}, Total Instances = {}, Total Bytes "
                                           "Leaked = {}\n\n",
                                           sum["distinct"].as_int(), sum["instances"].as_int(), sum["bytes"].as_int())
                             : fmt::format("Summary Results: Distinct Allocations = {}, Total Instances = {}, Total "
                                           "Bytes Allocated = {}\n\n",
                                           sum["distinct"].as_int(), sum["instances"].as_int(), sum["bytes"].as_int());
    for (const auto& e : d["entries"].elements()) {
      text += fmt::format("{} #{}, Instances = {}, {} = {}\n", leaks ? "Leak" : "Allocation", e["rank"].as_int(),
                          e["count"].as_int(), leaks ? "Bytes Leaked" : "Bytes Allocated", e["bytes"].as_int());
      for (const auto& f : e["stack"].elements()) {
        text += "    " + f["text"].as_string() + "\n";
        EXPECT_EQ(f["text"].as_string(), fmt::format("{} + 0x{:08x}", f["function"].as_string(), f["offset"].as_int()));
      }
      text += "\n";
    }
    EXPECT_EQ(text, run(cmd));
  }
  const json::Value leaks = data_of("leaks");
  EXPECT_EQ(leaks["summary"].dump(), R"({"distinct":2,"instances":4,"bytes":2248})");
  EXPECT_EQ(leaks["entries"][0]["stack"][0].dump(), R"({"function":"kernel","offset":1,"text":"kernel + 0x00000001"})");
}

TEST_F(JsonReports, HeapStatistics) {
  const json::Value d = data_of("heapstat");
  const std::string text = run("heapstat");
  const auto& peak = d["peaks"][0];
  EXPECT_NE(text.find(fmt::format("Experiment 1 (pid {}): peak {} bytes live at {:.3f} s", peak["pid"].as_int(),
                                  peak["peak_bytes"].as_int(), double(peak["peak_ns"].as_int()) / 1e9)),
            std::string::npos)
      << text;
  for (const char* kind : {"allocations", "leaks"}) {
    const auto& h = d[kind];
    const bool a = std::string(kind) == "allocations";
    for (const auto& [label, key] : std::vector<std::pair<std::string, const char*>>{
             {a ? "Smallest allocation bytes" : "Smallest leaked bytes", "smallest"},
             {a ? "Largest allocation bytes" : "Largest leaked bytes", "largest"},
             {a ? "Total allocations" : "Total leaks", "count"}}) {
      EXPECT_NE(text.find(fmt::format("{:<34}{}\n", label, h[key].as_int())), std::string::npos) << label;
    }
    for (const auto& r : h["ranges"].elements()) {
      EXPECT_NE(text.find(fmt::format("  {:<32}{}\n", r["range"].as_string(), r["count"].as_int())), std::string::npos);
    }
  }
  EXPECT_EQ(d["allocations"]["bytes"].as_int(), 3272);
  EXPECT_EQ(d["leaks"]["count"].as_int(), 4);
}

TEST_F(JsonReports, IoReports) {
  for (const char* cmd : {"ioactivity", "iodetail"}) {
    const json::Value d = data_of(cmd);
    const auto text = lines_of(run(cmd));
    std::vector<json::Value> rows = {d["total"]};
    for (const auto& f : d["files"].elements()) rows.push_back(f);
    ASSERT_EQ(text.size(), 4 + rows.size() + 1);
    for (size_t i = 0; i < rows.size(); ++i) {
      const auto& r = rows[i];
      EXPECT_EQ(join(words_of(text[4 + i]), 0),
                fmt::format("{:.6f} {} {} {} {} {} {} {}", double(r["time_ns"].as_int()) / 1e9, r["read_bytes"].as_int(),
                            r["reads"].as_int(), r["write_bytes"].as_int(), r["writes"].as_int(),
                            r["other_calls"].as_int(), r["errors"].as_int(), r["name"].as_string()));
    }
  }
  const json::Value detail = data_of("iodetail");
  EXPECT_EQ(detail["files"][0]["file"].as_string(), "/tmp/a.dat");
  EXPECT_EQ(detail["files"][0]["iovfd"].as_int(), 1);
  EXPECT_EQ(detail["files"][0]["fd"].as_int(), 3);

  const json::Value stacks = data_of("iocallstack");
  const std::string text = run("iocallstack");
  auto sums = [](const json::Value& v) {
    return fmt::format("I/O Time = {:.6f} (secs.), Read Bytes = {}, Reads = {}, Write Bytes = {}, Writes = {}, "
                       "Other I/O = {}",
                       double(v["time_ns"].as_int()) / 1e9, v["read_bytes"].as_int(), v["reads"].as_int(),
                       v["write_bytes"].as_int(), v["writes"].as_int(), v["other_calls"].as_int());
  };
  std::string rebuilt = fmt::format("I/O call stacks, sorted by I/O time: {} distinct\n\n<Total>\n{}\n\n",
                                    stacks["stacks"].size(), sums(stacks["total"]));
  for (const auto& st : stacks["stacks"].elements()) {
    rebuilt += fmt::format("Stack #{}, {}\n", st["rank"].as_int(), sums(st));
    for (const auto& f : st["stack"].elements()) rebuilt += "    " + f["text"].as_string() + "\n";
    rebuilt += "\n";
  }
  EXPECT_EQ(rebuilt, text);

  const json::Value stat = data_of("iostat");
  const std::string st_text = run("iostat");
  for (const auto& [key, noun] : std::vector<std::pair<const char*, std::string>>{
           {"write", "write"}, {"read", "read"}, {"other", "other call"}}) {
    const auto& op = stat[key];
    EXPECT_NE(st_text.find(fmt::format("{:<34}{:.6f} (secs.)\n{:<34}{:.6f} (secs.)\n{:<34}{}\n{:<34}{}\n",
                                       "Longest " + noun, double(op["longest_ns"].as_int()) / 1e9, "Total time",
                                       double(op["time_ns"].as_int()) / 1e9, "Total calls", op["calls"].as_int(),
                                       "Failed calls", op["failed"].as_int())),
              std::string::npos)
        << key << "\n" << st_text;
  }
  EXPECT_EQ(stat["read"]["sizes"]["bytes"].as_int(), 2048);
  EXPECT_TRUE(stat["other"]["sizes"].is_null());
}

TEST_F(JsonReports, SyncStatistics) {
  const json::Value d = data_of("syncstat");
  const auto text = lines_of(run("syncstat"));
  EXPECT_EQ(d["thresholds"][0].dump(), R"({"experiment":1,"threshold_ns":1000,"mode":"fixed"})");
  EXPECT_EQ(text[2], "  Experiment 1: threshold 1000 ns (fixed)");
  ASSERT_EQ(text.size(), 7 + d["objects"].size() + 1);
  EXPECT_EQ(join(words_of(text[6]), 0), fmt::format("{} {} <Total>", "0.000", d["total"]["waits"].as_int()));
  for (size_t i = 0; i < d["objects"].size(); ++i) {
    const auto& o = d["objects"][i];
    EXPECT_EQ(join(words_of(text[7 + i]), 0),
              fmt::format("{:.3f} {} {:.3f} {} {}", double(o["wait_ns"].as_int()) / 1e9, o["waits"].as_int(),
                          double(o["max_wait_ns"].as_int()) / 1e9, o["threads"].as_int(), o["name"].as_string()));
    EXPECT_EQ(o["name"].as_string(), fmt::format("{:#x} {}", o["object"].as_int(), o["kind"].as_string()));
  }
  EXPECT_EQ(d["objects"][0]["wait_ns"].as_int(), 6000);
}

TEST_F(JsonReports, SourceSettings) {
  EXPECT_EQ(data_of("scc").dump(), R"({"current":"basic","classes":"basic"})");
  EXPECT_EQ(data_of("dcc").dump(),
            R"({"current":"basic:nohex:src","classes":"basic","hex":false,"src":true,"asrc":false})");
  EXPECT_EQ(data_of("sthresh").dump(), R"({"current":75})");
  EXPECT_EQ(data_of("dthresh").dump(), R"({"current":50})");
  run("addpath /a\\:b:/c");
  EXPECT_EQ(data_of("setpath").dump(), R"({"current":"$expts:.:/a\\:b:/c","paths":["$expts",".","/a:b","/c"]})");
  EXPECT_EQ(data_of("pathmap").dump(), R"({"pathmaps":[]})");
  run("pathmap /x /y");
  EXPECT_EQ(data_of("pathmap").dump(), R"({"pathmaps":[{"from":"/x","to":"/y"}]})");
}

// With data of every kind loaded, every command that prints gives a structured JSON report.
TEST_F(JsonReports, EveryReportHasData) {
  const std::map<std::string, std::string> args = {
      {"fsingle", "kernel"}, {"csingle", "kernel"}, {"data_single", "x"}, {"memobj", "Vpage_4K"},
      {"mobj_define", "T2 VADDR"}, {"mapfile", "libsynth.so -"}, {"object_select", "libsynth.so"},
      {"object_show", "all"}, {"object_hide", "all"}, {"source", "kernel"}, {"disasm", "kernel"}};
  const std::set<std::string> skip = {"quit", "script", "outfile", "appendfile", "outformat"};
  size_t structured = 0;
  for (const auto& c : command_table()) {
    if (skip.count(c.name) || (c.min_args > 0 && !args.count(c.name))) continue;
    const std::string cmd = c.name + (args.count(c.name) ? " " + args.at(c.name) : "");
    run("outformat json");
    const std::string out = run(cmd);
    EXPECT_TRUE(ok_) << cmd << ": " << last_error_;
    run("outformat text\nobject_show all");
    for (const auto& line : lines_of(out)) {
      json::Value v;
      std::string error;
      ASSERT_TRUE(json::parse(line, &v, &error)) << cmd << ": " << error;
      EXPECT_TRUE(v["text"].is_null()) << cmd << " has no structured form";
      EXPECT_FALSE(v["data"].is_null()) << line;
      ++structured;
    }
  }
  EXPECT_GT(structured, 60u);
}

}  // namespace
}  // namespace erkit::erprint
