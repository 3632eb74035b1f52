// The dataspace analysis belongs to its er_print session (issue 17): the analyzer's Collect
// window replaces its session with one over the new experiment, and a later session may sit
// at the address of a destroyed one. Its data_objects must be its own experiments', never
// the earlier session's (a cache keyed by the session's address served those, over freed
// experiments). Both sessions are built in the same storage, so the address is reused.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <new>

#include "collect_fixture.h"
#include "erprint/commands.h"
#include "erprint/session.h"

namespace erkit::e2e {
namespace {

class AnalyzerSessionReload : public CollectTest {
 protected:
  // data_objects of a session over `experiment` built in `storage`: whether it has data.
  bool has_data_objects(void* storage, const std::string& experiment) {
    auto* s = new (storage) erprint::Session();
    std::string error;
    EXPECT_TRUE(s->load(path(experiment), &error)) << error;
    s->finish_loading();
    s->format = erprint::OutputFormat::Json;
    char* buf = nullptr;
    size_t len = 0;
    FILE* mem = open_memstream(&buf, &len);
    s->set_output(mem);
    erprint::CommandResult r = erprint::run_command_line(*s, "data_objects");
    s->set_output(stdout);  // closes mem
    std::string out(buf, len);
    std::free(buf);
    s->~Session();
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_NE(out.find("\"data_objects\""), std::string::npos) << out;
    return out.find("\"available\":false") == std::string::npos;
  }
};

TEST_F(AnalyzerSessionReload, DataObjectsAreTheLoadedExperimentsAtAReusedAddress) {
  auto ds = collect("-o pf.er -h +page-faults,1 " + program("ds_first_touch"));
  ASSERT_EQ(ds.status, 0) << ds.out << ds.err;
  auto plain = collect("-o plain.er -p on " + program("work_ratio") + " 1000000");
  ASSERT_EQ(plain.status, 0) << plain.out << plain.err;
  alignas(erprint::Session) static unsigned char storage[sizeof(erprint::Session)];
  EXPECT_FALSE(has_data_objects(storage, "plain.er"));
  EXPECT_TRUE(has_data_objects(storage, "pf.er"));
  EXPECT_FALSE(has_data_objects(storage, "plain.er"));
}

}  // namespace
}  // namespace erkit::e2e
