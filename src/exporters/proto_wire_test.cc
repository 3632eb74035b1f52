#include "exporters/proto_wire.h"

#include <gtest/gtest.h>

namespace erkit::exporters {
namespace {

TEST(ProtoWire, VarintsAndFieldsMatchTheProtobufEncoding) {
  // Examples from the protobuf encoding guide: 150 in field 1 is 08 96 01.
  ProtoWriter w;
  w.uint64_field(1, 150);
  EXPECT_EQ(w.data(), std::string("\x08\x96\x01", 3));
  w.clear();
  w.uint64_field(1, 0);  // proto3 default: omitted
  EXPECT_EQ(w.data(), "");
  w.int64_field(2, -1);  // int64 -1: ten bytes of varint
  EXPECT_EQ(w.data(), std::string("\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11));
  w.clear();
  w.bytes_field(2, "testing");
  EXPECT_EQ(w.data(), std::string("\x12\x07testing", 9));
  w.clear();
  w.packed_uint64(4, {3, 270, 86942});
  EXPECT_EQ(w.data(), std::string("\x22\x06\x03\x8e\x02\x9e\xa7\x05", 8));
  ProtoWriter outer;
  outer.message_field(3, w);
  EXPECT_EQ(outer.data(), std::string("\x1a\x08", 2) + w.data());
}

TEST(Gzip, RoundTripsAndRejectsDamage) {
  std::string in;
  for (int i = 0; i < 10000; ++i) in += std::to_string(i * 7919 % 1000) + ",";
  std::string gz, back, err;
  ASSERT_TRUE(gzip_compress(in, &gz, &err)) << err;
  ASSERT_GE(gz.size(), 2u);
  EXPECT_EQ(uint8_t(gz[0]), 0x1f);  // gzip magic
  EXPECT_EQ(uint8_t(gz[1]), 0x8b);
  EXPECT_LT(gz.size(), in.size() / 2);
  ASSERT_TRUE(gzip_decompress(gz, &back, &err)) << err;
  EXPECT_EQ(back, in);
  EXPECT_FALSE(gzip_decompress(gz.substr(0, gz.size() / 2), &back, &err));
}

}  // namespace
}  // namespace erkit::exporters
