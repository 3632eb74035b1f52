#include "common/elf_probe.h"

#include <gtest/gtest.h>

namespace erkit::common {

TEST(ElfProbe, DynamicExecutable) {
  ElfProbe p = probe_elf("/bin/sh");
  EXPECT_TRUE(p.is_elf);
  EXPECT_TRUE(p.is_dynamic);
  EXPECT_TRUE(p.is_64bit);
}

TEST(ElfProbe, NotElf) {
  ElfProbe p = probe_elf("/etc/passwd");
  EXPECT_FALSE(p.is_elf);
  EXPECT_FALSE(probe_elf("/nonexistent/file").error.empty());
}

}  // namespace erkit::common
