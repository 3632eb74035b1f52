// ERKIT_PARAMS as collect writes it from format/collector_params.def: the exact strings the
// collector has always been given (collector/config_env.cc reads the same table).
#include <gtest/gtest.h>

#include "collect/launch.h"
#include "collect/options.h"

namespace erkit::collect {
namespace {

TEST(CollectorParams, DefaultsAndOptionalKeys) {
  Options o;
  o.sync_trace = "off";
  EXPECT_EQ(collector_params(o), "p=10007000;L=2097152000;S=1000;H=0;i=0;F=0;s=-1");
  o.heap_trace = o.io_trace = o.mpi_trace = o.stop_after_exec = true;
  o.follow = 2;
  o.sync_trace = "50";
  o.sample_signal = 12;
  o.pause_signal = 10;
  o.pause_signal_resume = true;
  EXPECT_EQ(collector_params(o, true), "p=10007000;L=2097152000;S=1000;H=1;i=1;F=2;m=1;s=50000;l=12;y=10;yr=1;x=1;q=1");
  o.sync_trace = "calibrate";
  o.pause_signal = 0;
  EXPECT_EQ(collector_params(o), "p=10007000;L=2097152000;S=1000;H=1;i=1;F=2;m=1;s=-2;l=12;x=1");
}

}  // namespace
}  // namespace erkit::collect
