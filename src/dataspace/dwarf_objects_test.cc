#include "dataspace/dwarf_objects.h"

#include <gtest/gtest.h>
#include <link.h>

#include "dataspace/test_objects.h"

namespace erkit::dataspace {
namespace {

TEST(DwarfObjects, DescriptorsFollowTheManual) {
  EXPECT_EQ(descriptor("int", "i"), "{int i}");
  EXPECT_EQ(descriptor("long int", "n"), "{long_int n}");
  EXPECT_EQ(descriptor("double", ""), "{double -}");
}

TEST(DwarfObjects, GlobalArrayOfStructsAndItsMembers) {
  std::string err;
  auto t = DataObjectTable::load("/proc/self/exe", &err);
  ASSERT_TRUE(t.has_dwarf()) << err;
  uint64_t bias = test_objects_bias();
  const Variable* v = t.find(reinterpret_cast<uint64_t>(&ds_test_recs[3].b) - bias);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->name, "ds_test_recs");
  EXPECT_EQ(v->descriptor, "{array:structure:ds_rec_t ds_test_recs}");
  EXPECT_EQ(v->size, sizeof ds_test_recs);
  EXPECT_EQ(v->aggregate, "structure:ds_rec_t");
  EXPECT_EQ(v->element_size, sizeof(ds_rec_t));
  const Aggregate* a = t.aggregate("structure:ds_rec_t");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->members.size(), 3u);
  EXPECT_EQ(a->members[0].descriptor, "{int a}");
  EXPECT_EQ(a->members[1].descriptor, "{double b}");
  EXPECT_EQ(a->members[1].offset, offsetof(ds_rec_t, b));
  EXPECT_EQ(a->members[2].descriptor, "{const+pointer+char name}");
  const Member* m = t.member_at("structure:ds_rec_t", offsetof(ds_rec_t, b) + 3);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->descriptor, "{double b}");
  const Variable* s = t.find(reinterpret_cast<uint64_t>(&ds_test_scalar) - bias);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->descriptor, "{long_int ds_test_scalar}");
  EXPECT_TRUE(s->aggregate.empty());
  EXPECT_EQ(t.find(0), nullptr);
}

}  // namespace
}  // namespace erkit::dataspace
