// Raw counters and collector_hwc_ABORT end to end (issue 19). No PMU here, so the raw path is
// driven with raw spellings of a software event that runs on every machine: libpfm4's
// perf::PERF_COUNT_SW_PAGE_FAULTS and perf's software/config=2/ (page faults). Each must be a
// function metric of its own, named after the event, in every report and export.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>

#include "collect_fixture.h"
#include "dataspace_rows.h"

namespace erkit::e2e {
namespace {

class RawCounters : public CollectTest {};

// Sum of the values of the folded stacks (er_convert -format folded) whose leaf is `fn`.
int64_t folded_leaf_sum(const std::string& folded, const std::string& fn) {
  std::istringstream in(folded);
  std::string line;
  int64_t sum = 0;
  while (std::getline(in, line)) {
    const size_t sp = line.rfind(' ');
    if (sp == std::string::npos) continue;
    const std::string stack = line.substr(0, sp);
    const size_t semi = stack.rfind(';');
    if (stack.substr(semi == std::string::npos ? 0 : semi + 1) == fn) sum += std::stoll(line.substr(sp + 1));
  }
  return sum;
}

TEST_F(RawCounters, RawSpellingsOfASoftwareEventAreMetricsInEveryReport) {
  auto c = collect("-o raw.er -h +perf::PERF_COUNT_SW_PAGE_FAULTS,1,+software/config=2/,1 " +
                   program("ds_first_touch"));
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(c.out, m, std::regex("heads=(\\d+) mids=(\\d+)"))) << c.out;
  const int heads = std::stoi(m[1]), mids = std::stoi(m[2]);

  // Functions: both metrics by name, the same faults (the same event twice), each first touch
  // of a page in the function that wrote it (the text page of the function may add one).
  auto f = er_print("-metrics e.PERF_COUNT_SW_PAGE_FAULTS:e.software_config_2:name -functions raw.er");
  ASSERT_EQ(f.status, 0) << f.err;
  EXPECT_NE(f.out.find("Functions sorted by metric: Exclusive PERF_COUNT_SW_PAGE_FAULTS Events"), std::string::npos)
      << f.out;
  auto rows = parse_function_list(f.out);
  ASSERT_TRUE(rows.count("touch_heads") && rows.count("touch_mids")) << f.out;
  for (const auto& [fn, n] : {std::pair{std::string("touch_heads"), heads}, {std::string("touch_mids"), mids}}) {
    const auto& v = rows[fn].values;
    ASSERT_EQ(v.size(), 2u) << f.out;
    EXPECT_GE(v[0], n) << fn << "\n" << f.out;
    EXPECT_LE(v[0], n + 2) << fn << "\n" << f.out;
    EXPECT_EQ(v[0], v[1]) << fn << "\n" << f.out;
  }
  // Sorting by it, and the default lists (hwc) show it.
  auto s = er_print("-sort e.software_config_2 -functions raw.er");
  EXPECT_EQ(s.status, 0) << s.err;
  EXPECT_NE(s.out.find("sorted by metric: Exclusive software_config_2 Events"), std::string::npos) << s.out;

  // Callers-callees, lines and disassembly carry the metric.
  auto cc = er_print("-cmetrics a.PERF_COUNT_SW_PAGE_FAULTS:name -callers-callees raw.er");
  EXPECT_EQ(cc.status, 0) << cc.err;
  EXPECT_NE(cc.out.find("PERF_COUNT_SW_PAGE_FAULTS"), std::string::npos) << cc.out;
  auto lines = er_print("-metrics e.PERF_COUNT_SW_PAGE_FAULTS:name -lines raw.er");
  EXPECT_EQ(lines.status, 0) << lines.err;
  EXPECT_NE(lines.out.find("ds_first_touch.c"), std::string::npos) << lines.out;
  EXPECT_NE(lines.out.find("PERF_COUNT_SW_PAGE_FAULTS"), std::string::npos) << lines.out;
  auto dis = er_print("-metrics e.PERF_COUNT_SW_PAGE_FAULTS:name -disasm touch_heads raw.er");
  EXPECT_EQ(dis.status, 0) << dis.err;
  EXPECT_NE(dis.out.find("PERF_COUNT_SW_PAGE_FAULTS"), std::string::npos) << dis.out;

  // An export carries it under its name with er_print's values.
  auto folded = run("cd " + dir_ + " && " + bin("er_convert") +
                    " -format folded -metrics PERF_COUNT_SW_PAGE_FAULTS -o - raw.er");
  ASSERT_EQ(folded.status, 0) << folded.err;
  EXPECT_EQ(folded_leaf_sum(folded.out, "touch_heads"), int64_t(rows["touch_heads"].values[0])) << folded.out;

  // Data-derived metrics of the same names: every first touch of g_recs, exactly.
  for (const char* metric : {"PERF_COUNT_SW_PAGE_FAULTS", "software_config_2"}) {
    auto objs = er_print(std::string("-data_metrics d.") + metric + ":name -data_objects raw.er");
    ASSERT_EQ(objs.status, 0) << objs.err;
    EXPECT_EQ(data_row_value(objs.out, "{array:structure:rec_t g_recs}"), heads + mids) << metric << "\n" << objs.out;
  }
}

TEST_F(RawCounters, ACounterThatCannotBeOpenedForAThreadIsRecordedAsAbort) {
  auto c = collect("-o ab.er -h page-faults,1 " + program("hwc_abort_threads"));
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(c.out, m, std::regex("pages=(\\d+) starved_open_errno=(\\d+)"))) << c.out;
  const int pages = std::stoi(m[1]);
  ASSERT_EQ(std::stoi(m[2]), 24) << "the starved thread could open a descriptor: EMFILE expected";

  auto f = er_print("-functions ab.er");
  ASSERT_EQ(f.status, 0) << f.err;
  // er_print warns on loading, naming the reason the collector recorded.
  EXPECT_NE(f.err.find("hardware-counter collection aborted for 1 counter of 1 thread (collector_hwc_ABORT)"),
            std::string::npos)
      << f.err;
  EXPECT_NE(f.err.find("could not be opened for thread"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("Too many open files"), std::string::npos) << f.err;
  // Only the second thread's first touches are counted: one thread's pages, not two.
  auto rows = parse_function_list(f.out);
  ASSERT_TRUE(rows.count("touch_pages")) << f.out;
  EXPECT_GE(rows["touch_pages"].values.at(0), pages) << f.out;
  EXPECT_LT(rows["touch_pages"].values.at(0), 2 * pages) << f.out;
  // The experiment's header lists the collector's warning.
  auto h = er_print("-header ab.er");
  EXPECT_NE(h.out.find("(collector_hwc_ABORT)"), std::string::npos) << h.out;
}

TEST_F(RawCounters, ACounterThatCannotBeReadAtTheEndIsRecordedAsAbort) {
  // ERKIT_HWC_TEST_FAIL=read (tests only): every read of a thread's final count fails.
  auto c = collect("-o rd.er -h +page-faults,1 " + program("ds_first_touch"));
  ASSERT_EQ(c.status, 0) << c.err;
  auto failed = run("cd " + dir_ + " && ERKIT_HWC_TEST_FAIL=read " + bin("collect") + " -o fr.er -h +page-faults,1 " +
                    program("ds_first_touch"));
  ASSERT_EQ(failed.status, 0) << failed.err;
  auto ok = er_print("-functions rd.er");
  EXPECT_EQ(ok.err.find("collector_hwc_ABORT"), std::string::npos) << ok.err;  // no abort without a failure
  auto f = er_print("-functions fr.er");
  ASSERT_EQ(f.status, 0) << f.err;
  EXPECT_NE(f.err.find("aborted for 1 counter of 1 thread (collector_hwc_ABORT)"), std::string::npos) << f.err;
  EXPECT_NE(f.err.find("could not be read"), std::string::npos) << f.err;
  // The overflows before the failure are kept: the data objects are whole.
  std::smatch m;
  ASSERT_TRUE(std::regex_search(failed.out, m, std::regex("heads=(\\d+) mids=(\\d+)"))) << failed.out;
  auto objs = er_print("-data_objects fr.er");
  EXPECT_EQ(data_row_value(objs.out, "{array:structure:rec_t g_recs}"), std::stoi(m[1]) + std::stoi(m[2])) << objs.out;
}

}  // namespace
}  // namespace erkit::e2e
