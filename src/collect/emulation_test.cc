#include "collect/emulation.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <string>

namespace erkit::collect {
namespace {

// Sets an environment variable for one test and restores it after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = getenv(name)) old_ = old, had_ = true;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_) setenv(name_, old_.c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

TEST(Emulation, NativeTargetsRunDirectly) {
  Emulation em;
  std::string error;
  EXPECT_TRUE(plan_emulation(host_machine(), &em, &error));
  EXPECT_TRUE(em.machine.empty());
  EXPECT_TRUE(plan_emulation("", &em, &error));
  EXPECT_TRUE(em.machine.empty());
  EXPECT_EQ(error, "");
}

TEST(Emulation, OtherMachinesThanAarch64AreRefused) {
  if (std::string(host_machine()) != "x86_64") GTEST_SKIP() << "x86-64 hosts only";
  Emulation em;
  std::string error;
  EXPECT_FALSE(plan_emulation("other", &em, &error));
  EXPECT_NE(error.find("only aarch64 targets can be run under emulation"), std::string::npos) << error;
}

TEST(Emulation, MissingEmulatorOrSysrootIsAClearError) {
  if (std::string(host_machine()) != "x86_64") GTEST_SKIP() << "x86-64 hosts only";
  Emulation em;
  std::string error;
  {
    ScopedEnv q("ERKIT_QEMU", "/nonexistent/qemu-aarch64");
    EXPECT_FALSE(plan_emulation("aarch64", &em, &error));
    EXPECT_EQ(error, "ERKIT_QEMU=/nonexistent/qemu-aarch64 is not an executable file");
  }
  {
    ScopedEnv q("ERKIT_QEMU", "/bin/true");
    ScopedEnv root("QEMU_LD_PREFIX", "/nonexistent/sysroot");
    error.clear();
    EXPECT_FALSE(plan_emulation("aarch64", &em, &error));
    EXPECT_NE(error.find("sysroot /nonexistent/sysroot does not exist"), std::string::npos) << error;
  }
  {
    ScopedEnv q("ERKIT_QEMU", "/bin/true");
    ScopedEnv root("QEMU_LD_PREFIX", "/");
    error.clear();
    ASSERT_TRUE(plan_emulation("aarch64", &em, &error)) << error;
    EXPECT_EQ(em.machine, "aarch64");
    EXPECT_EQ(em.emulator, "/bin/true");
    EXPECT_EQ(em.sysroot, "/");
    EXPECT_EQ(em.lib_subdir, "aarch64-linux-gnu");
  }
}

TEST(Emulation, PreloadGoesToTheEmulatedProgramOnly) {
  Emulation em{"aarch64", "/usr/bin/qemu-aarch64", "/usr/aarch64-linux-gnu", "aarch64-linux-gnu"};
  auto argv = emulated_argv(em, "/x/lib/aarch64-linux-gnu/libcollector.so", "/p/prog", {"./prog", "a b", "-c"});
  EXPECT_EQ(argv, (std::vector<std::string>{"/usr/bin/qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "-E",
                                            "LD_PRELOAD=/x/lib/aarch64-linux-gnu/libcollector.so", "-0", "./prog",
                                            "/p/prog", "a b", "-c"}));
}

}  // namespace
}  // namespace erkit::collect
