// The interposer table (src/collector/interposers.def) against this machine's libc and the built
// libcollector.so: every row's real function exists, and the library exports every wrapper under
// the version the row names (the compat condition variables apart from the current ones).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace erkit::e2e {
namespace {

struct Row {
  std::string name, version, real;
};

const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
#define ERKIT_INTERPOSE(cat, ret, name, vtag, ver, params, args, rtype, rname, pre, traced_pre, \
                        fallback, event)                                                      \
  {#name, ver, rname},
#include "../../src/collector/interposers.def"
#undef ERKIT_INTERPOSE
  };
  return r;
}

std::string bare(const std::string& v) { return v.substr(v.find_first_not_of('@')); }

TEST(Interposers, EveryRealFunctionExistsInLibc) {
  void* libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(libc, nullptr);
  ASSERT_GT(rows().size(), 100u);
  for (const Row& r : rows()) {
    void* p = r.version.empty() ? dlsym(libc, r.real.c_str()) : dlvsym(libc, r.real.c_str(), bare(r.version).c_str());
    EXPECT_NE(p, nullptr) << r.real << r.version;
  }
}

TEST(Interposers, CollectorExportsEveryWrapperUnderItsVersion) {
  // Loaded locally it interposes nothing here, and without an experiment in the environment it
  // stays inert.
  void* lib = dlopen(ERKIT_LIB_DIR "/libcollector.so", RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr) << dlerror();
  for (const Row& r : rows()) {
    if (r.version.empty()) {
      void* p = dlsym(lib, r.name.c_str());
      Dl_info info{};
      ASSERT_NE(p, nullptr) << r.name;
      ASSERT_NE(dladdr(p, &info), 0);
      EXPECT_STREQ(info.dli_fname, ERKIT_LIB_DIR "/libcollector.so") << r.name << " resolved elsewhere";
    } else {
      EXPECT_NE(dlvsym(lib, r.name.c_str(), bare(r.version).c_str()), nullptr) << r.name << r.version;
    }
  }
  void* current = dlvsym(lib, "pthread_cond_wait", "GLIBC_2.3.2");
  void* compat = dlvsym(lib, "pthread_cond_wait", "GLIBC_2.2.5");
  EXPECT_NE(current, compat);
  // An unversioned lookup finds the default version.
  EXPECT_EQ(dlsym(lib, "pthread_cond_wait"), current);
}

}  // namespace
}  // namespace erkit::e2e
