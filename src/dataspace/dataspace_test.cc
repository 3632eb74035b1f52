// The dataspace analysis over synthesized records: precise addresses as PEBS/IBS/SPE or the
// page-fault software events give them, register contexts with skid, records without context;
// mapped to this binary's own globals (test_objects.h) through its DWARF.
#include "dataspace/dataspace.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <climits>

#include "dataspace/dataspace_views.h"
#include "dataspace/test_objects.h"

ds_rec_t ds_test_recs[16];
long ds_test_scalar = 5;

namespace erkit::dataspace {
namespace {

std::string self_path() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, size_t(n)) : "";
}

format::HwcEventRecord rec(uint32_t counter, uint64_t value, uint32_t source, uint64_t vaddr) {
  format::HwcEventRecord r{};
  r.counter = counter;
  r.value = value;
  r.addr_source = source;
  r.vaddr = vaddr;
  r.tid = 7;
  r.pc = 0x1000;
  return r;
}

reader::Experiment synthesized() {
  reader::Experiment e;
  reader::LoadObject lo;
  lo.path = self_path();
  lo.bias = test_objects_bias();
  lo.lo = reinterpret_cast<uint64_t>(&ds_test_recs[0]) - (uint64_t(1) << 30);
  lo.hi = reinterpret_cast<uint64_t>(&ds_test_recs[0]) + (uint64_t(1) << 30);
  e.objects.push_back(lo);
  e.log.hwc_counters.push_back({{"name", "dcm"}, {"description", "L1 D-cache Read Misses"}, {"dataspace", "1"}});
  e.log.hwc_counters.push_back({{"name", "insts"}, {"dataspace", "0"}});
  auto at = [](const void* p) { return reinterpret_cast<uint64_t>(p); };
  // Five misses on member b of three records, two on member a, one on the scalar.
  for (int i : {0, 1, 2, 2, 5}) e.hwc.push_back(rec(0, 100, format::kHwcAddrPrecise, at(&ds_test_recs[i].b)));
  for (int i : {3, 9}) e.hwc.push_back(rec(0, 100, format::kHwcAddrPrecise, at(&ds_test_recs[i].a)));
  e.hwc.push_back(rec(0, 100, format::kHwcAddrPrecise, at(&ds_test_scalar)));
  // Registers taken at another PC than the sample's: skid.
  auto skid = rec(0, 100, format::kHwcAddrRegs, 0);
  skid.regs[16] = 0x2000;
  e.hwc.push_back(skid);
  e.hwc.push_back(rec(0, 100, format::kHwcAddrNoContext, 0));
  // Not a dataspace counter, and a final-counts record: not data-derived.
  e.hwc.push_back(rec(1, 5000, format::kHwcAddrNone, 0));
  auto fin = rec(0, 42, format::kHwcAddrPrecise, at(&ds_test_scalar));
  fin.flags = format::kHwcFlagFinal;
  e.hwc.push_back(fin);
  return e;
}

uint64_t value_of(const std::vector<DataObject>& objs, const std::string& name) {
  for (const auto& o : objs)
    if (o.name == name) return o.values.at(0);
  ADD_FAILURE() << "no data object " << name;
  return 0;
}

TEST(Dataspace, PreciseAddressesMapToVariablesAggregatesAndElements) {
  std::vector<reader::Experiment> exps;
  exps.push_back(synthesized());
  Dataspace d = Dataspace::build(exps);
  ASSERT_EQ(d.metrics().size(), 1u);
  EXPECT_EQ(d.metrics()[0].name, "dcm");
  EXPECT_EQ(d.events().size(), 10u);
  auto objs = d.objects();
  EXPECT_EQ(objs[0].name, "<Total>");
  EXPECT_EQ(objs[0].values[0], 1000u);
  EXPECT_EQ(value_of(objs, "{array:structure:ds_rec_t ds_test_recs}"), 700u);
  EXPECT_EQ(value_of(objs, "{structure:ds_rec_t -}"), 700u);
  EXPECT_EQ(value_of(objs, "{long_int ds_test_scalar}"), 100u);
  EXPECT_EQ(value_of(objs, "<Scalars>"), 100u);
  EXPECT_EQ(value_of(objs, "<Unknown>"), 200u);
  EXPECT_EQ(value_of(objs, unknown_subtype(AddrStatus::kSkid)), 100u);
  EXPECT_EQ(value_of(objs, unknown_subtype(AddrStatus::kNoContext)), 100u);
  auto layout = d.layout();
  ASSERT_EQ(layout.size(), 1u);
  EXPECT_EQ(layout[0].aggregate, "structure:ds_rec_t");
  ASSERT_EQ(layout[0].members.size(), 3u);
  EXPECT_EQ(layout[0].member_values[0][0], 200u);  // {int a}
  EXPECT_EQ(layout[0].member_values[1][0], 500u);  // {double b}
  EXPECT_EQ(layout[0].member_values[2][0], 0u);    // {const+pointer+char name}
  auto r = render_data_layout(d, {});
  EXPECT_NE(r.text.find("{structure:ds_rec_t}.{double b}   +8.8 [block 0: 8-15]"), std::string::npos) << r.text;
}

TEST(Dataspace, MemoryObjectsByIndexExpression) {
  std::vector<reader::Experiment> exps;
  exps.push_back(synthesized());
  Dataspace d = Dataspace::build(exps);
  std::string err;
  auto rows = d.memory_objects("VADDR>255?VADDR>>6:-1", {}, &err);
  ASSERT_TRUE(err.empty()) << err;
  uint64_t total = 0, unknown = 0;
  for (const auto& r : rows) {
    total += r.values[0];
    if (r.index == -1) unknown += r.values[0];
  }
  EXPECT_EQ(total, 1000u);
  EXPECT_EQ(unknown, 200u);  // the records without an address
  auto threads = d.memory_objects("THRID", {}, &err);
  ASSERT_EQ(threads.size(), 1u);
  EXPECT_EQ(threads[0].index, 7);
  d.memory_objects("VADDR>>", {}, &err);
  EXPECT_FALSE(err.empty());
}

TEST(Dataspace, AddressesInLiveHeapBlocksGoToTheirAllocationSite) {
  std::vector<reader::Experiment> exps(1);
  reader::Experiment& e = exps[0];
  e.log.hwc_counters.push_back({{"name", "page-faults"}, {"description", "Page Faults"}, {"dataspace", "1"}});
  const uint64_t blk = uint64_t(1) << 46;  // in no load object
  auto alloc = [](uint32_t op, uint64_t t, uint64_t addr, uint64_t size, uint64_t stack) {
    format::HeapEvent h{};
    h.op = op, h.tstamp_ns = t, h.address = addr, h.size = size, h.stack_id = stack;
    return h;
  };
  e.heap.push_back(alloc(format::kHeapMalloc, 100, blk, 1 << 16, 0xa));
  e.heap.push_back(alloc(format::kHeapMalloc, 100, blk + (1 << 20), 1 << 12, 0xb));
  e.heap.push_back(alloc(format::kHeapFree, 300, blk, 0, 0));
  auto at = [&](uint64_t t, uint64_t addr) {
    auto r = rec(0, 1, format::kHwcAddrPrecise, addr);
    r.tstamp_ns = t;
    return r;
  };
  for (uint64_t p = 0; p < 16; ++p) e.hwc.push_back(at(200, blk + p * 4096));  // 16 pages of block a
  e.hwc.push_back(at(200, blk + (1 << 20) + 8));                             // block b
  e.hwc.push_back(at(400, blk + 4096));                                      // a, after its free
  e.hwc.push_back(at(50, blk + (1 << 20)));                                  // b, before its malloc
  Dataspace d = Dataspace::build(exps, [](uint32_t x, uint64_t stack, uint64_t) {
    return x == 0 && stack == 0xa ? std::string("make_a") : std::string();
  });
  auto objs = d.objects();
  EXPECT_EQ(value_of(objs, "<Total>"), 19u);
  EXPECT_EQ(value_of(objs, "<Heap>"), 17u);
  EXPECT_EQ(value_of(objs, heap_object_name("make_a")), 16u);
  EXPECT_EQ(value_of(objs, heap_object_name("stack 0xb")), 1u);
  EXPECT_EQ(value_of(objs, "<Unknown>"), 2u);
}

TEST(Dataspace, DataSortOrdersTheListsAndKeepsTotalFirst) {
  std::vector<reader::Experiment> exps;
  exps.push_back(synthesized());
  Dataspace d = Dataspace::build(exps);
  auto pos = [](const std::string& text, const std::string& what) { return text.find("  " + what + "\n"); };
  // By the metric (the default): the array (700) before the scalar (100).
  auto by_value = render_data_objects(d, {}, 0, {"dcm", false}).text;
  EXPECT_LT(pos(by_value, "{array:structure:ds_rec_t ds_test_recs}"), pos(by_value, "{long_int ds_test_scalar}"))
      << by_value;
  // Reversed: the smallest first, <Total> still heads the list.
  auto rev = render_data_objects(d, {}, 0, {"dcm", true}).text;
  EXPECT_GT(pos(rev, "{array:structure:ds_rec_t ds_test_recs}"), pos(rev, "{long_int ds_test_scalar}")) << rev;
  EXPECT_LT(pos(rev, "<Total>"), pos(rev, "{long_int ds_test_scalar}")) << rev;
  // By name: '<' sorts before '{'.
  auto by_name = render_data_objects(d, {}, 0, {"name", false}).text;
  EXPECT_LT(pos(by_name, "<Unknown>"), pos(by_name, "{array:structure:ds_rec_t ds_test_recs}")) << by_name;
  EXPECT_LT(pos(by_name, "{array:structure:ds_rec_t ds_test_recs}"), pos(by_name, "{long_int ds_test_scalar}"))
      << by_name;
  // Memory objects by name: by index.
  std::string err;
  auto rows = d.memory_objects("VADDR>255?VADDR>>6:-1", {}, &err);
  auto mo = render_memobj(d, "Vline_64B", rows, 0, true, {"name", false}).text;
  EXPECT_LT(mo.find("<Unknown>"), mo.find("Vline_64B:0x")) << mo;
}

TEST(Dataspace, NoDataSaysWhy) {
  std::vector<reader::Experiment> exps(1);
  Dataspace d = Dataspace::build(exps);
  EXPECT_TRUE(d.empty());
  EXPECT_NE(d.why_empty().find("-h +"), std::string::npos);
}

}  // namespace
}  // namespace erkit::dataspace
