// perf's pmu/term=value/ spellings of raw counters (issue 19), over a synthesized sysfs tree of
// an Intel core PMU (this machine has none) and the real software PMU every Linux has.
#include "collect/hwc_perf_terms.h"

#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "collect/hwc_events.h"

namespace erkit::collect {
namespace {

namespace fs = std::filesystem;

class PerfTerms : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("erkit_perf_terms_" + std::to_string(getpid()));
    const fs::path cpu = root_ / "cpu";
    fs::create_directories(cpu / "format");
    fs::create_directories(cpu / "events");
    write(cpu / "type", "4");
    // The formats of an Intel core PMU (/sys/bus/event_source/devices/cpu/format).
    write(cpu / "format" / "event", "config:0-7");
    write(cpu / "format" / "umask", "config:8-15");
    write(cpu / "format" / "edge", "config:18");
    write(cpu / "format" / "inv", "config:23");
    write(cpu / "format" / "cmask", "config:24-31");
    write(cpu / "format" / "ldlat", "config1:0-15");
    write(cpu / "format" / "split", "config:0-3,32-35");
    write(cpu / "events" / "mem-loads", "event=0xcd,umask=0x1,ldlat=3");
  }
  void TearDown() override { fs::remove_all(root_); }
  static void write(const fs::path& p, const std::string& s) { std::ofstream(p) << s << "\n"; }
  PerfEncoding ok(const std::string& name) {
    PerfEncoding e;
    std::string err;
    EXPECT_TRUE(encode_perf_terms(root_.string(), name, &e, &err)) << name << ": " << err;
    return e;
  }
  std::string bad(const std::string& name) {
    PerfEncoding e;
    std::string err;
    EXPECT_FALSE(encode_perf_terms(root_.string(), name, &e, &err)) << name;
    return err;
  }
  fs::path root_;
};

TEST_F(PerfTerms, FormatTermsPlaceTheirBits) {
  PerfEncoding e = ok("cpu/event=0x3c,umask=0x1,edge,cmask=2/");
  EXPECT_EQ(e.type, 4u);
  EXPECT_EQ(e.config, 0x3cull | 0x1ull << 8 | 1ull << 18 | 2ull << 24);
  EXPECT_EQ(e.config1, 0u);
  // A format in two ranges: the value's low bits fill the first range.
  EXPECT_EQ(ok("cpu/split=0x5a/").config, 0xaull | 0x5ull << 32);
  // config=, config1= directly, on any PMU.
  e = ok("cpu/config=0x1c2,config1=7/");
  EXPECT_EQ(e.config, 0x1c2u);
  EXPECT_EQ(e.config1, 7u);
}

TEST_F(PerfTerms, NamedEventsOfThePmuWithMoreTerms) {
  PerfEncoding e = ok("cpu/mem-loads/");
  EXPECT_EQ(e.config, 0xcdull | 0x1ull << 8);
  EXPECT_EQ(e.config1, 3u);  // ldlat
}

TEST_F(PerfTerms, UnknownPmuTermOrBadValueIsRefusedByName) {
  EXPECT_NE(bad("nopmu/config=1/").find("no PMU 'nopmu'"), std::string::npos);
  const std::string t = bad("cpu/frobnicate=1/");
  EXPECT_NE(t.find("PMU 'cpu' has no term or event 'frobnicate'"), std::string::npos) << t;
  EXPECT_NE(t.find("umask"), std::string::npos) << t;  // the terms it has
  EXPECT_NE(bad("cpu/event=zz/").find("bad value"), std::string::npos);
  EXPECT_NE(bad("cpu/event=0x1ff/").find("does not fit"), std::string::npos);
  EXPECT_NE(bad("cpu/config/").find("needs a value"), std::string::npos);
}

TEST(PerfTermSpelling, WhatCountsAsOne) {
  EXPECT_TRUE(is_perf_term_spelling("cpu/event=0x3c/"));
  EXPECT_TRUE(is_perf_term_spelling("software/config=2/"));
  EXPECT_FALSE(is_perf_term_spelling("cpu/mem-loads"));  // the sysfs event form, no closing '/'
  EXPECT_FALSE(is_perf_term_spelling("cycles"));
  EXPECT_FALSE(is_perf_term_spelling("cpu//"));
  EXPECT_FALSE(is_perf_term_spelling("/event=1/"));
}

TEST(PerfTermSpelling, CounterListsKeepTermGroupsWhole) {
  using V = std::vector<std::string>;
  EXPECT_EQ(split_counter_list("cycles,hi,insts"), (V{"cycles", "hi", "insts"}));
  EXPECT_EQ(split_counter_list("+cpu/event=0x3c,umask=0/,1000,insts"), (V{"+cpu/event=0x3c,umask=0/", "1000", "insts"}));
  EXPECT_EQ(split_counter_list("cpu/mem-loads,5"), (V{"cpu/mem-loads", "5"}));
  EXPECT_EQ(split_counter_list("software/config=2/~period=3,lo"), (V{"software/config=2/~period=3", "lo"}));
  // The manual's register numbers are no term groups.
  EXPECT_EQ(split_counter_list("cycles/0,1,insts~user=1/1"), (V{"cycles/0", "1", "insts~user=1/1"}));
}

// The software PMU is on every Linux machine: perf's spelling of page-faults opens here, and
// is that event (software, load-store, the kernel's data address) under its own name.
TEST(RawSoftwareSpellings, PerfTermsAndLibpfm4NamesOfASoftwareEvent) {
  for (const std::string spec : {"+software/config=2/,1", "+perf::PERF_COUNT_SW_PAGE_FAULTS,1"}) {
    std::vector<HwcCounter> c;
    std::string err;
    ASSERT_TRUE(parse_hwc_spec(spec, &c, &err)) << spec << ": " << err;
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].name, spec.substr(1, spec.size() - 3));  // its own name, not page-faults
    EXPECT_EQ(c[0].type, uint32_t(PERF_TYPE_SOFTWARE)) << spec;
    EXPECT_EQ(c[0].config, uint64_t(PERF_COUNT_SW_PAGE_FAULTS)) << spec;
    EXPECT_EQ(c[0].interval, 1u);
    EXPECT_TRUE(c[0].software);
    EXPECT_EQ(c[0].memory, "load-store");
    EXPECT_TRUE(c[0].dataspace && c[0].precise_addr) << spec;
    EXPECT_TRUE(probe_hwc(c, &err)) << spec << ": " << err;
  }
  // A raw hardware event of the PMU (libpfm4's r<umask><event>): known, then counted or
  // refused with the reason where there is no PMU.
  std::vector<HwcCounter> c;
  std::string err;
  ASSERT_TRUE(parse_hwc_spec("r1c2", &c, &err)) << err;
  EXPECT_EQ(c[0].type, uint32_t(PERF_TYPE_RAW));
  EXPECT_EQ(c[0].config, 0x1c2u);
  if (!hwc_unavailable_reason().empty()) {
    EXPECT_FALSE(probe_hwc(c, &err));
    EXPECT_NE(err.find("r1c2"), std::string::npos) << err;
  }
}

// The manual's register suffix: accepted, the kernel picks the register.
TEST(RegisterNumber, AcceptedAndIgnored) {
  std::vector<HwcCounter> c;
  std::string err;
  ASSERT_TRUE(parse_hwc_spec("page-faults/0,1,context-switches~user=1/1", &c, &err)) << err;
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].name, "page-faults");
  EXPECT_EQ(c[0].interval, 1u);
  EXPECT_EQ(c[1].name, "context-switches");
  EXPECT_FALSE(c[1].exclude_user);
}

}  // namespace
}  // namespace erkit::collect
