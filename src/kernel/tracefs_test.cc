#include "kernel/tracefs.h"

#include <gtest/gtest.h>

#include <cstring>

namespace erkit::kernel {
namespace {

const char* kSwitchFormat =
    "name: sched_switch\nID: 372\nformat:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
    "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
    "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
    "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
    "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n";

TEST(Tracefs, ParsesFieldOffsets) {
  auto f = parse_format(kSwitchFormat);
  ASSERT_EQ(f.count("prev_pid"), 1u);
  EXPECT_EQ(f["prev_pid"].offset, 24u);
  EXPECT_EQ(f["prev_state"].size, 8u);
  EXPECT_EQ(f["prev_comm"].offset, 8u);
  EXPECT_TRUE(f["next_pid"].is_signed);
}

TEST(Tracefs, ReadsFieldValues) {
  Tracepoint tp;
  tp.id = 372;
  tp.fields = parse_format(kSwitchFormat);
  uint8_t raw[64] = {};
  int32_t prev = 1234, next = 99;
  int64_t state = 1;
  std::memcpy(raw + 24, &prev, 4);
  std::memcpy(raw + 32, &state, 8);
  std::memcpy(raw + 56, &next, 4);
  EXPECT_EQ(field_value(tp, "prev_pid", raw, sizeof raw), 1234);
  EXPECT_EQ(field_value(tp, "prev_state", raw, sizeof raw), 1);
  EXPECT_EQ(field_value(tp, "next_pid", raw, sizeof raw), 99);
  EXPECT_EQ(field_value(tp, "next_pid", raw, 40), 0);  // truncated data
  EXPECT_EQ(field_value(tp, "missing", raw, sizeof raw), 0);
}

}  // namespace
}  // namespace erkit::kernel
