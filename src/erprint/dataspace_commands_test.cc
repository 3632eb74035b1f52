// The dataspace analysis belongs to its session (dataspace_commands.cc): the analyzer's Collect
// window replaces its session with one over the new experiment, and a later session may sit at
// the address of a destroyed one. Its data_objects must speak of its own experiments, never of
// the earlier session's (a cache keyed by the session's address served those, over freed
// experiments). The sessions here are built in one storage, so the address is reused.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>

#include "erprint/commands.h"
#include "erprint/session.h"
#include "format/experiment_format.h"
#include "synthetic_experiment.h"

namespace erkit::erprint {
namespace {

class DataspaceSessions : public testing::SessionFixture {
 protected:
  // data_objects of a session over `experiment`, built in `storage_` and destroyed again.
  std::string data_objects(const std::string& experiment) {
    auto* s = new (storage_) Session();
    std::string error;
    EXPECT_TRUE(s->load(experiment, &error)) << error;
    s->finish_loading();
    char* buf = nullptr;
    size_t len = 0;
    FILE* mem = open_memstream(&buf, &len);
    s->set_output(mem);
    CommandResult r = run_command_line(*s, "data_objects");
    s->set_output(stdout);  // closes mem
    std::string out(buf, len);
    std::free(buf);
    s->~Session();
    EXPECT_TRUE(r.ok) << r.error;
    return out;
  }
  alignas(Session) unsigned char storage_[sizeof(Session)];
};

TEST_F(DataspaceSessions, DataObjectsSpeakOfTheLoadedExperimentsAtAReusedAddress) {
  testing::Synthetic plain;
  plain.clock = {"main;work 10"};
  add(plain);
  add(plain);
  // The second run had a counter, recorded without data addresses ('-h insts', no '+').
  std::ofstream(path(1) + "/" + format::kLogFile, std::ios::app) << "0 hwc index=0 name=insts\n";
  const std::string no_data = "hold no dataspace data", no_plus = "recorded without '+'";
  std::string a = data_objects(path(0));
  EXPECT_NE(a.find(no_data), std::string::npos) << a;
  std::string b = data_objects(path(1));
  EXPECT_NE(b.find(no_plus), std::string::npos) << b;
  std::string c = data_objects(path(0));
  EXPECT_NE(c.find(no_data), std::string::npos) << c;
}

}  // namespace
}  // namespace erkit::erprint
