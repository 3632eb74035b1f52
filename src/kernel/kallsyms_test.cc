#include "kernel/kallsyms.h"

#include <gtest/gtest.h>

namespace erkit::kernel {
namespace {

const char* kKallsyms =
    "ffffffff81000000 T _text\n"
    "ffffffff81000000 T _stext\n"
    "ffffffff81001000 T do_syscall_64\n"
    "ffffffff81001200 t helper_local\n"
    "ffffffff81001200 T helper_alias\n"
    "ffffffff81002000 D some_data\n"
    "ffffffff81003000 W weak_fn\n"
    "ffffffff81004000 T _etext\n"
    "ffffffffc0001000 t mod_fn\t[e1000]\n"
    "ffffffffc0001100 T mod_fn2\t[e1000]\n"
    "ffffffffc0002000 d mod_data\t[e1000]\n";
const char* kModules = "e1000 163840 0 - Live 0xffffffffc0000000\n";

TEST(Kallsyms, ObjectsRangesAndSizes) {
  KernelSymbols ks = parse_kernel_symbols(kKallsyms, kModules);
  ASSERT_EQ(ks.objects.size(), 2u);
  const KernelObject& v = ks.objects[0];
  EXPECT_EQ(v.name, "vmlinux");
  EXPECT_EQ(v.lo, 0xffffffff81000000ull);
  EXPECT_GE(v.hi, 0xffffffff81004000ull);
  // Text symbols only (no data), sized to the next address.
  std::vector<std::string> names;
  for (const auto& s : v.symbols) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"_text", "_stext", "do_syscall_64", "helper_local", "helper_alias",
                                              "weak_fn", "_etext"}));
  EXPECT_EQ(v.symbols[2].size, 0x200u);
  EXPECT_EQ(v.symbols[3].size, 0x1e00u);  // aliases share the size
  EXPECT_EQ(v.symbols[4].size, 0x1e00u);
  EXPECT_FALSE(v.symbols[3].global);
  EXPECT_TRUE(v.symbols[5].global);
  const KernelObject& m = ks.objects[1];
  EXPECT_EQ(m.name, "e1000");
  EXPECT_EQ(m.lo, 0xffffffffc0000000ull);
  EXPECT_EQ(m.hi, 0xffffffffc0000000ull + 163840);
  ASSERT_EQ(m.symbols.size(), 2u);
  EXPECT_EQ(m.symbols[0].size, 0x100u);
  EXPECT_EQ(ks.object_at(0xffffffffc0001080ull), &ks.objects[1]);
  EXPECT_EQ(ks.object_at(0xffffffff81001234ull), &ks.objects[0]);
  EXPECT_EQ(ks.object_at(0x1000), nullptr);
  EXPECT_FALSE(ks.addresses_hidden);
}

TEST(Kallsyms, HiddenAddressesAreDetected) {
  KernelSymbols ks = parse_kernel_symbols("0000000000000000 T _stext\n0000000000000000 T do_syscall_64\n", "");
  EXPECT_TRUE(ks.addresses_hidden);
  EXPECT_TRUE(ks.objects.empty());
}

TEST(Kallsyms, ModuleWithoutProcModulesSpansItsSymbols) {
  KernelSymbols ks = parse_kernel_symbols("ffffffffc0001000 t f\t[m]\nffffffffc0001100 t g\t[m]\n", "");
  ASSERT_EQ(ks.objects.size(), 1u);
  EXPECT_EQ(ks.objects[0].lo, 0xffffffffc0001000ull);
  EXPECT_EQ(ks.objects[0].hi, 0xffffffffc0001100ull + 4096);
}

TEST(Kallsyms, BuildIdFromNotes) {
  // Another note first, then the GNU build-id (type 3).
  std::string n;
  auto u32 = [&](uint32_t v) { n.append(reinterpret_cast<const char*>(&v), 4); };
  u32(6), u32(4), u32(0x100);
  n.append("Linux\0\0\0", 8);
  n.append("\1\0\0\0", 4);
  u32(4), u32(4), u32(3);
  n.append("GNU\0", 4);
  n.append("\xde\xad\xbe\xef", 4);
  EXPECT_EQ(build_id_from_notes(n), "deadbeef");
  EXPECT_EQ(build_id_from_notes(n.substr(0, 10)), "");
  EXPECT_EQ(build_id_from_notes(""), "");
}

TEST(Kallsyms, LiveKernelHasSyscallEntryWhenReadable) {
  std::string text = read_text_file("/proc/kallsyms");
  if (text.empty()) GTEST_SKIP() << "/proc/kallsyms is not readable here";
  KernelSymbols ks = parse_kernel_symbols(text, read_text_file("/proc/modules"));
  if (ks.addresses_hidden) GTEST_SKIP() << "kernel.kptr_restrict hides the addresses for this user";
  ASSERT_FALSE(ks.objects.empty());
  bool found = false;
  for (const auto& s : ks.objects[0].symbols) found |= s.name == "do_syscall_64";
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace erkit::kernel
