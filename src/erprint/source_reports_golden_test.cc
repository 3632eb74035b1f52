// Golden outputs of lines, lsummary, pcs, psummary, leaks and allocs on a synthetic
// experiment with line information, and the ## marks of sthresh and dthresh in annotated
// source and disassembly. funcs.c has one function per line, in name order: init (1),
// kernel (2), main (3), solve (4); samples fall at function+1 (leaf) and +2 (callers).
#include <gtest/gtest.h>

#include "synthetic_experiment.h"

namespace erkit::erprint {
namespace {

class SourceReports : public testing::SessionFixture {
 protected:
  void SetUp() override {
    testing::Synthetic s;
    s.debug = true;
    s.clock = {"main;solve;kernel 6", "main;solve 2", "main;init 1"};
    s.heap = {"main;solve;kernel 3 size=1024 freed=1", "main;init 2 size=100"};
    add(s);
    open();
    std::string error;
    auto syms = symbols::ObjectSymbols::open(path(0) + ".src/libsynth.so", "", &error);
    ASSERT_TRUE(syms) << error;
    for (const auto& f : syms->functions()) addr_[f.name] = f.addr;
  }
  // The output with the experiment's temporary directory written as <dir>.
  std::string out(const std::string& cmds) {
    std::string o = run(cmds);
    const std::string dir = path(0) + ".src";
    for (size_t at = o.find(dir); at != std::string::npos; at = o.find(dir)) o.replace(at, dir.size(), "<dir>");
    return o;
  }
  // The ## lines of a listing: their metric cells and what follows up to the address.
  std::vector<std::string> marked(const std::string& listing) {
    std::vector<std::string> out;
    std::istringstream in(listing);
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("## ", 0) != 0) continue;
      std::istringstream words(line.substr(3));
      std::string w, cells;
      while (words >> w && w != "[") cells += (cells.empty() ? "" : " ") + w;
      out.push_back(cells);
    }
    return out;
  }
  std::map<std::string, uint64_t> addr_;
};

TEST_F(SourceReports, Lines) {
  EXPECT_EQ(out("lines"), R"(Lines sorted by metric: Exclusive User CPU Time

Excl.     Excl.     Incl.     Incl.     Incl.  Incl.          Name
User CPU  User CPU  User CPU  User CPU  Leaks  Bytes Leaked
sec.      %         sec.      %
   0.090    100.00     0.090    100.00      4          2248   <Total>
   0.060     66.67     0.060     66.67      2          2048   kernel, line 2 in "funcs.c"
   0.020     22.22     0.080     88.89      2          2048   solve, line 4 in "funcs.c"
   0.010     11.11     0.010     11.11      2           200   init, line 1 in "funcs.c"
      0.        0.     0.090    100.00      4          2248   main, line 3 in "funcs.c"
)");
  // Sorted by another metric, reversed, limited (<Total> counts as a row).
  EXPECT_EQ(out("metrics i.user:i+bleak\nsort -i.bleak\nlimit 3\nlines"),
            R"(current: i.user:i+bleak:name
current sort: -i+bleak
current limit: 3
Lines sorted by metric: (reverse) Inclusive Bytes Leaked

Incl.     Incl.          Name
User CPU  Bytes Leaked
sec.
   0.090          2248   <Total>
   0.010           200   init, line 1 in "funcs.c"
   0.060          2048   kernel, line 2 in "funcs.c"
)");
}

TEST_F(SourceReports, LineSummaries) {
  EXPECT_EQ(out("limit 2\nlsummary"), R"(current limit: 2
kernel, line 2 in "funcs.c"
             Exclusive User CPU Time:  0.060 (66.67%)
             Inclusive User CPU Time:  0.060 (66.67%)
                     Inclusive Leaks:  2 (50.00%)
              Inclusive Bytes Leaked:  2048 (91.10%)
                         Source Line:  <dir>/funcs.c:2
                         Load Object:  <dir>/libsynth.so

solve, line 4 in "funcs.c"
             Exclusive User CPU Time:  0.020 (22.22%)
             Inclusive User CPU Time:  0.080 (88.89%)
                     Inclusive Leaks:  2 (50.00%)
              Inclusive Bytes Leaked:  2048 (91.10%)
                         Source Line:  <dir>/funcs.c:4
                         Load Object:  <dir>/libsynth.so

)");
}

TEST_F(SourceReports, Pcs) {
  // Return addresses (main + 2, solve + 2) have no exclusive data: disasm credits their calls.
  EXPECT_EQ(out("pcs"), R"(PCs sorted by metric: Exclusive User CPU Time

Excl.     Excl.     Incl.     Incl.     Incl.  Incl.          Name
User CPU  User CPU  User CPU  User CPU  Leaks  Bytes Leaked
sec.      %         sec.      %
   0.090    100.00     0.090    100.00      4          2248   <Total>
   0.060     66.67     0.060     66.67      2          2048   kernel + 0x00000001
   0.020     22.22     0.020     22.22      0             0   solve + 0x00000001
   0.010     11.11     0.010     11.11      2           200   init + 0x00000001
)");
}

TEST_F(SourceReports, PcSummaries) {
  EXPECT_EQ(out("psummary"), fmt::format(R"(kernel + 0x00000001
             Exclusive User CPU Time:  0.060 (66.67%)
             Inclusive User CPU Time:  0.060 (66.67%)
                     Inclusive Leaks:  2 (50.00%)
              Inclusive Bytes Leaked:  2048 (91.10%)
                         Source Line:  <dir>/funcs.c:2
                          PC Address:  {:#x}
                         Load Object:  <dir>/libsynth.so

solve + 0x00000001
             Exclusive User CPU Time:  0.020 (22.22%)
             Inclusive User CPU Time:  0.020 (22.22%)
                     Inclusive Leaks:  0 (0.%)
              Inclusive Bytes Leaked:  0 (0.%)
                         Source Line:  <dir>/funcs.c:4
                          PC Address:  {:#x}
                         Load Object:  <dir>/libsynth.so

init + 0x00000001
             Exclusive User CPU Time:  0.010 (11.11%)
             Inclusive User CPU Time:  0.010 (11.11%)
                     Inclusive Leaks:  2 (50.00%)
              Inclusive Bytes Leaked:  200 (8.90%)
                         Source Line:  <dir>/funcs.c:1
                          PC Address:  {:#x}
                         Load Object:  <dir>/libsynth.so

)",
                                         addr_["kernel"] + 1, addr_["solve"] + 1, addr_["init"] + 1));
}

TEST_F(SourceReports, CollapsedLoadObjectIsOneRow) {
  run("object_hide libsynth.so");
  EXPECT_TRUE(ok_) << last_error_;
  EXPECT_EQ(out("metrics e.user\nlines\npcs"), R"(current: e.user:name
Lines sorted by metric: Exclusive User CPU Time

Excl.      Name
User CPU
sec.
   0.090   <Total>
   0.090   <libsynth.so>
PCs sorted by metric: Exclusive User CPU Time

Excl.      Name
User CPU
sec.
   0.090   <Total>
   0.090   <libsynth.so>
)");
}

TEST_F(SourceReports, LeaksAndAllocs) {
  EXPECT_EQ(out("leaks"), R"(Summary Results: Distinct Leaks = 2, Total Instances = 4, Total Bytes Leaked = 2248

Leak #1, Instances = 2, Bytes Leaked = 2048
    kernel + 0x00000001
    solve + 0x00000002
    main + 0x00000002

Leak #2, Instances = 2, Bytes Leaked = 200
    init + 0x00000001
    main + 0x00000002

)");
  EXPECT_EQ(out("limit 1\nallocs"), R"(current limit: 1
Summary Results: Distinct Allocations = 2, Total Instances = 5, Total Bytes Allocated = 3272

Allocation #1, Instances = 3, Bytes Allocated = 3072
    kernel + 0x00000001
    solve + 0x00000002
    main + 0x00000002

)");
}

TEST_F(SourceReports, SourceMarksFollowSthresh) {
  const std::string head = R"(Source file: <dir>/funcs.c
Object file: <dir>/libsynth.so
Load Object: <dir>/libsynth.so

   Excl.     Excl.     Incl.     Incl.     Incl.  Incl.
   User CPU  User CPU  User CPU  User CPU  Leaks  Bytes Leaked
   sec.      %         sec.      %
)";
  // Default 75: kernel (exclusive maximum), main (inclusive maximum), solve (0.080 is 89 % of
  // 0.090); init's 2 leaks are 50 % of 4.
  EXPECT_EQ(out("source kernel"), head + R"(      0.010     11.11     0.010     11.11      2           200     1. int init(int x) { return x * 3 + 1; }
                                                                      <Function: init>
##    0.060     66.67     0.060     66.67      2          2048     2. int kernel(int x) { return x * 3 + 1; }
                                                                      <Function: kernel>
##       0.        0.     0.090    100.00      4          2248     3. int main(int x) { return x * 3 + 1; }
                                                                      <Function: main>
##    0.020     22.22     0.080     88.89      2          2048     4. int solve(int x) { return x * 3 + 1; }
                                                                      <Function: solve>
)");
  // 50: init too.
  EXPECT_EQ(marked(out("sthresh 50\nsource kernel")),
            (std::vector<std::string>{"0.010 11.11 0.010 11.11 2 200 1. int init(int x) { return x * 3 + 1; }",
                                      "0.060 66.67 0.060 66.67 2 2048 2. int kernel(int x) { return x * 3 + 1; }",
                                      "0. 0. 0.090 100.00 4 2248 3. int main(int x) { return x * 3 + 1; }",
                                      "0.020 22.22 0.080 88.89 2 2048 4. int solve(int x) { return x * 3 + 1; }"}));
  // 100: only the maxima of some column (kernel: exclusive time, main: every inclusive one).
  EXPECT_EQ(marked(out("sthresh 100\nsource kernel")),
            (std::vector<std::string>{"0.060 66.67 0.060 66.67 2 2048 2. int kernel(int x) { return x * 3 + 1; }",
                                      "0. 0. 0.090 100.00 4 2248 3. int main(int x) { return x * 3 + 1; }"}));
}

TEST_F(SourceReports, DisassemblyMarksFollowDthresh) {
  // Default 50: init's instruction has as many leaks (2) as kernel's, the maximum; solve's
  // 0.020 is a third of kernel's 0.060.
  const std::string listing = out("disasm kernel");
  EXPECT_NE(listing.find(fmt::format("\n##    0.060     66.67     0.060     66.67      2          "
                                     "2048  [   2]      {:x}:  ",
                                     addr_["kernel"] + 1)),
            std::string::npos)
      << listing;
  EXPECT_EQ(marked(listing), (std::vector<std::string>{"0.010 11.11 0.010 11.11 2 200", "0.060 66.67 0.060 66.67 2 2048"}));
  EXPECT_EQ(marked(out("dthresh 30\ndisasm kernel")),
            (std::vector<std::string>{"0.010 11.11 0.010 11.11 2 200", "0.060 66.67 0.060 66.67 2 2048",
                                      "0.020 22.22 0.020 22.22 0 0"}));
  EXPECT_EQ(marked(out("metrics e.user\ndthresh 100\ndisasm kernel")),
            (std::vector<std::string>{"0.060"}));
}

// sthresh and dthresh from .er.rc files mark as the commands do.
TEST_F(SourceReports, ThresholdsFromRcFiles) {
  const auto by_command_s = marked(out("sthresh 100\nsource kernel"));
  const auto by_command_d = marked(out("dthresh 30\ndisasm kernel"));
  rcfile::RcDefaults rc;
  rcfile::process_rc_text("sthresh 100\ndthresh 30\n", ".er.rc", rc);
  s_ = std::make_unique<Session>(std::move(rc));
  std::string error;
  ASSERT_TRUE(s_->load(path(0), &error)) << error;
  s_->finish_loading();
  EXPECT_EQ(marked(out("source kernel")), by_command_s);
  EXPECT_EQ(marked(out("disasm kernel")), by_command_d);
  EXPECT_EQ(by_command_s.size(), 2u);
  EXPECT_EQ(by_command_d.size(), 3u);
}

}  // namespace
}  // namespace erkit::erprint
