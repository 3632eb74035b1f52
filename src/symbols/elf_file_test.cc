// Build-id reading and static-link detection.
#include <gtest/gtest.h>

#include "symbols/symbols.h"

namespace erkit::symbols {
namespace {

const std::string kBin = SYMBOLS_TESTDATA_BIN;

TEST(ElfFile, StaticDetection) {
  EXPECT_TRUE(is_statically_linked(kBin + "/sym_static"));
  EXPECT_TRUE(is_statically_linked(kBin + "/sym_static_pie"));
  EXPECT_FALSE(is_statically_linked(kBin + "/sym_inline_dw5"));
  std::string err;
  EXPECT_FALSE(is_statically_linked(kBin + "/no-such-file", &err));
  EXPECT_FALSE(err.empty());
}

TEST(ElfFile, BuildIdOfStrippedCopyIsUnchanged) {
  std::string id = read_build_id(kBin + "/sym_inline_dw5");
  EXPECT_EQ(id.size(), 40u);
  EXPECT_EQ(read_build_id(kBin + "/sym_inline_stripped"), id);
  EXPECT_EQ(read_build_id(kBin + "/sym_inline_mini"), id);
}

}  // namespace
}  // namespace erkit::symbols
