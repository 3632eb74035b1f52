// End-to-end: er_print's command language on real collections — the manual's own examples
// (seed-spec §7.20) run verbatim, scripts, selections and filters against per-thread ground
// truth, JSON output, interactive mode on a terminal, and mapfiles that really reorder a link.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {

class ErPrintCommands : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_workdir("erprint_cmds"); }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  RunResult sh(const std::string& cmd) { return run("cd " + dir_ + " && " + cmd); }
  RunResult collect(const std::string& args) { return sh(bin("collect") + " " + args); }
  RunResult er_print(const std::string& args) { return sh("HOME=" + dir_ + " " + bin("er_print") + " " + args); }
  std::string read(const std::string& f) {
    std::ifstream in(dir_ + "/" + f);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::string dir_;
};

// Seed-spec §7.20, verbatim except for function names (one/two of work_ratio).
TEST_F(ErPrintCommands, ManualExamplesVerbatim) {
  ASSERT_EQ(collect(program("work_ratio") + " 100000000").status, 0);
  ASSERT_EQ(collect(program("work_ratio") + " 100000000").status, 0);
  // gprof-like report into a file.
  auto g = er_print("-outfile er_print.out -metrics e.user:e%user -sort e.user -limit 100 -functions "
                    "-cmetrics a.user:a%user -csort a.user -callers-callees test.1.er");
  ASSERT_EQ(g.status, 0) << g.err;
  EXPECT_EQ(g.out, "");
  std::string report = read("er_print.out");
  EXPECT_NE(report.find("current: e.user:e%user:name\n"), std::string::npos) << report;
  EXPECT_NE(report.find("current sort: e.user\n"), std::string::npos) << report;
  EXPECT_NE(report.find("current: a.user:a%user:name\n"), std::string::npos) << report;
  auto rows = parse_function_list(report.substr(report.find("Functions sorted by")));
  ASSERT_TRUE(rows.count("one") && rows.count("two")) << report;
  // The profiler's accuracy is the spine tests' business; here: the report's own arithmetic.
  EXPECT_GT(rows["two"].values[0], rows["one"].values[0]) << report;
  EXPECT_NEAR(rows["two"].values[0] + rows["one"].values[0], rows["<Total>"].values[0], 0.0015) << report;
  EXPECT_NE(report.find("*two\n"), std::string::npos) << report;

  // Several experiments by a shell glob: <Total> is the sum of both.
  auto t1 = parse_function_list(er_print("-functions test.1.er").out);
  auto t2 = parse_function_list(er_print("-functions test.2.er").out);
  auto both = er_print("-functions test.*.er");
  ASSERT_EQ(both.status, 0) << both.err;
  auto rb = parse_function_list(both.out);
  EXPECT_NEAR(rb["<Total>"].values[0], t1["<Total>"].values[0] + t2["<Total>"].values[0], 0.0015) << both.out;

  auto cc = er_print("-callers-callees test.*.er");
  ASSERT_EQ(cc.status, 0) << cc.err;
  EXPECT_NE(cc.out.find("*main\n"), std::string::npos) << cc.out;

  auto src = er_print("-source two 1 test.*.er");
  EXPECT_EQ(src.status, 0) << src.err;

  // Wall time: the main thread's time; exclusive and inclusive, time and percent.
  auto w = er_print("-metrics ei.%wall -functions test.*.er");
  ASSERT_EQ(w.status, 0) << w.err;
  EXPECT_NE(w.out.find("current: e.wall:e%wall:i.wall:i%wall:name\n"), std::string::npos) << w.out;
  EXPECT_NE(w.out.find("Functions sorted by metric: Exclusive Wall Clock Time\n"), std::string::npos) << w.out;
  // Wall time includes waiting for a CPU (a loaded machine), so no 2:1 here; but one and two
  // hold all of it, and main includes all of it.
  auto rw = parse_function_list(w.out.substr(w.out.find("Functions sorted by")));
  EXPECT_NEAR(rw["two"].values[0] + rw["one"].values[0], rw["<Total>"].values[0], 0.025) << w.out;
  EXPECT_NEAR(rw["main"].values[3], 100.0, 0.01) << w.out;

  auto cw = er_print("-cmetrics aei.%wall -callers-callees test.*.er");
  ASSERT_EQ(cw.status, 0) << cw.err;
  EXPECT_NE(cw.out.find("current: a.wall:a%wall:e.wall:e%wall:i.wall:i%wall:name\n"), std::string::npos) << cw.out;

  auto grep = sh("HOME=" + dir_ + " " + bin("er_print") + " -functions test.*.er | grep PMPI_");
  EXPECT_EQ(grep.out, "");  // no MPI in these experiments
}

// Per-thread ground truth: threads4 writes each thread's CPU time (kernel accounting).
TEST_F(ErPrintCommands, ThreadSelectionsAndFiltersMatchEachThread) {
  ASSERT_EQ(collect(program("threads4") + " truth.txt").status, 0);
  auto tl = er_print("-thread_list test.1.er");
  ASSERT_EQ(tl.status, 0) << tl.err;
  EXPECT_NE(tl.out.find("  1 1-5           5\n"), std::string::npos) << tl.out;
  auto all = parse_function_list(er_print("-functions test.1.er").out);
  // Each hot function is the work of one thread: selecting that thread alone keeps exactly
  // that function's time, by thread_select, by lwp_select and by a THRID filter.
  std::istringstream lines(tl.out.substr(tl.out.find("=== ====== ")));
  std::string line;
  std::getline(lines, line);
  int checked = 0;
  while (std::getline(lines, line)) {
    std::istringstream l(line);
    int exp, number;
    long tid;
    l >> exp >> number >> tid;
    auto by_thread = parse_function_list(er_print(fmt::format("-thread_select {} -functions test.1.er", number)).out);
    auto by_lwp = parse_function_list(er_print(fmt::format("-lwp_select {} -functions test.1.er", tid)).out);
    auto by_filter = parse_function_list(er_print(fmt::format("-filters 'THRID == {}' -functions test.1.er", number)).out);
    double total = by_thread["<Total>"].values[0];
    EXPECT_NEAR(by_lwp["<Total>"].values[0], total, 1e-9);
    EXPECT_NEAR(by_filter["<Total>"].values[0], total, 1e-9);
    for (const char* f : {"hot_a", "hot_b", "hot_c", "hot_d", "hot_main"})
      if (by_thread.count(f) && by_thread[f].values[0] > 0.05) {
        EXPECT_NEAR(by_thread[f].values[0], all[f].values[0], 1e-9) << f << " of thread " << number;
        ++checked;
      }
  }
  EXPECT_EQ(checked, 5) << tl.out;
  // FNAME on the stack: everything under hot_a and nothing else.
  auto fa = parse_function_list(er_print("-filters '(FNAME(\"hot_a\") SOME IN STACK)' -functions test.1.er").out);
  EXPECT_NEAR(fa["<Total>"].values[0], all["hot_a"].values[2], 1e-9);
  EXPECT_EQ(fa.count("hot_b"), 0u);
}

TEST_F(ErPrintCommands, ScriptsJsonAndInteractiveTerminal) {
  ASSERT_EQ(collect(program("work_ratio") + " 50000000").status, 0);
  std::ofstream(dir_ + "/cmds.txt") << "# a script\nmetrics e.user:\\\ni.user\nlimit 3\nfunctions\nquit\nfunctions\n";
  auto s = er_print("-script cmds.txt test.1.er");
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_EQ(s.out.find("current: e.user:i.user:name\ncurrent limit: 3\nFunctions sorted by"), 0u) << s.out;
  EXPECT_EQ(s.out.find("Functions sorted by", 60), std::string::npos) << "quit ends the script\n" << s.out;

  // Commands from a pipe with '-'; a failing command makes the exit status non-zero.
  auto p = sh("printf 'limit 2\\nnosuch\\n' | HOME=" + dir_ + " " + bin("er_print") + " - test.1.er");
  EXPECT_NE(p.status, 0);
  EXPECT_EQ(p.out, "current limit: 2\n");
  EXPECT_NE(p.err.find("unknown command 'nosuch'"), std::string::npos) << p.err;

  // JSON: the same numbers as the text list.
  auto j = er_print("-json -functions test.1.er");
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_EQ(j.out.find("{\"schema\":\"erkit.er_print\",\"version\":2,\"command\":\"functions\",\"data\":{"), 0u)
      << j.out;
  auto text = parse_function_list(er_print("-functions test.1.er").out);
  std::string two_row = j.out.substr(j.out.find("\"name\":\"two\""));
  long ns = std::atol(two_row.substr(two_row.find("\"values\":[") + 10).c_str());
  EXPECT_NEAR(double(ns) / 1e9, text["two"].values[0], 0.0006) << j.out;

  // A terminal: prompt, completion of command names (fun<TAB>), history file, quit.
  auto t = sh("(printf 'fun\\t\\n'; sleep 1; printf 'lim\\t 2\\n'; sleep 0.5; printf 'quit\\n') | HOME=" + dir_ +
              " script -qfec '" + bin("er_print") + " test.1.er' /dev/null");
  EXPECT_NE(t.out.find("(er_print) "), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("Functions sorted by metric"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("current limit: 2"), std::string::npos) << t.out;
  EXPECT_NE(read(".er_print_history").find("functions"), std::string::npos);
}

TEST_F(ErPrintCommands, RcFilesAreRead) {
  ASSERT_EQ(collect(program("work_ratio") + " 20000000").status, 0);
  std::ofstream(dir_ + "/.er.rc") << "dmetrics i.%user\nname short\n";
  auto m = er_print("-metrics test.1.er");
  EXPECT_EQ(m.out, "current: i.user:i%user:e.user:e%user:name\n") << m.err;  // system er.rc appended
  std::ofstream(dir_ + "/.er.rc") << "nonsense here\n";
  auto w = er_print("-limit 1 test.1.er");
  EXPECT_EQ(w.status, 0);
  EXPECT_NE(w.err.find(".er.rc:1: unknown command 'nonsense'"), std::string::npos) << w.err;
}

// Descendant experiments are loaded with en_desc on (.er.rc or command), deselected by off.
TEST_F(ErPrintCommands, DescendantsAndSamples) {
  const std::string p = program("work_ratio");
  ASSERT_EQ(collect("-F on /bin/sh -c '" + p + " 150000000; " + p + " 30000000'").status, 0);
  // Issue 15: descendants are loaded by default; en_desc off keeps the founder alone (the
  // setting's line, the list's two header lines and one experiment).
  auto parent = er_print("-en_desc off -experiment_list test.1.er");
  EXPECT_EQ(std::count(parent.out.begin(), parent.out.end(), '\n'), 4) << parent.out;
  EXPECT_EQ(parent.out.find("_f1"), std::string::npos) << parent.out;
  auto on = er_print("-en_desc on -experiment_list -functions test.1.er");
  ASSERT_EQ(on.status, 0) << on.err;
  EXPECT_NE(on.out.find("test.1.er/_f1_x1.er\n"), std::string::npos) << on.out;
  EXPECT_NE(on.out.find("test.1.er/_f2_x1.er\n"), std::string::npos) << on.out;
  auto rows = parse_function_list(on.out.substr(on.out.find("Functions sorted by")));
  ASSERT_TRUE(rows.count("one") && rows.count("two")) << on.out;
  // The union is exactly the sum of the experiments read one by one.
  double sum = 0;
  for (const char* e : {"test.1.er", "test.1.er/_f1.er", "test.1.er/_f1_x1.er", "test.1.er/_f2.er",
                        "test.1.er/_f2_x1.er"})
    sum += parse_function_list(er_print(std::string("-en_desc off -functions ") + e).out)["<Total>"].values[0];
  EXPECT_NEAR(rows["<Total>"].values[0], sum, 0.003) << on.out;
  auto off = er_print("-en_desc on -en_desc off -functions test.1.er");
  EXPECT_EQ(parse_function_list(off.out.substr(off.out.find("Functions sorted by"))).count("two"), 0u) << off.out;
  std::ofstream(dir_ + "/.er.rc") << "en_desc on\n";
  auto rc = er_print("-experiment_list test.1.er");
  EXPECT_NE(rc.out.find("_f2_x1.er"), std::string::npos) << rc.out;
  // The first work_ratio's samples: process accounting agrees with the clock profile.
  auto st = er_print("-statistics test.1.er/_f1_x1.er");
  ASSERT_EQ(st.status, 0) << st.err;
  auto stat = [&](const std::string& label) {
    size_t at = st.out.find("  " + label);
    EXPECT_NE(at, std::string::npos) << label << "\n" << st.out;
    size_t start = st.out.rfind('\n', at);
    return std::atof(st.out.c_str() + (start == std::string::npos ? 0 : start + 1));
  };
  double utime = stat("User CPU time, process accounting"), clock = stat("User CPU Time, clock profile");
  ASSERT_GT(utime, 0.2) << st.out;
  EXPECT_NEAR(clock / utime, 1.0, 0.1) << st.out;
  EXPECT_GE(stat("Process real time"), utime * 0.95) << st.out;
}

// The mapfile orders a relink: the hottest function (two) comes first in the new binary.
TEST_F(ErPrintCommands, MapfileReordersALink) {
  ASSERT_EQ(collect(program("work_ratio") + " 50000000").status, 0);
  const std::string src = std::string(ERKIT_SOURCE_DIR) + "/tests/programs/work_ratio.c";
  auto addr = [&](const std::string& exe, const std::string& fn) {
    auto r = sh("nm " + exe + " | awk '$3 == \"" + fn + "\" {print $1}'");
    return std::stoul(r.out.empty() ? "0" : r.out, nullptr, 16);
  };
  // In source order one() precedes two(); ordered by exclusive time two() leads.
  for (const char* kind : {"gnu", "lld"}) {
    const std::string map = std::string("order.") + kind;
    auto m = er_print(std::string("-mapfile work_ratio ") + map + " " + kind + " test.1.er");
    ASSERT_EQ(m.status, 0) << m.err;
    std::string link = std::string(kind) == "gnu" ? "gcc -O1 -ffunction-sections -o relinked_gnu " + src + " -Wl,-T," + map
                                                 : "clang -O1 -ffunction-sections -fuse-ld=lld -o relinked_lld " + src +
                                                       " -Wl,--symbol-ordering-file," + map;
    auto l = sh(link);
    ASSERT_EQ(l.status, 0) << l.err << read(map);
    const std::string exe = std::string("relinked_") + kind;
    EXPECT_LT(addr(exe, "two"), addr(exe, "one")) << kind << "\n" << read(map);
    EXPECT_EQ(sh("./" + exe + " 1000").status, 0);
  }
}

}  // namespace
}  // namespace erkit::e2e
