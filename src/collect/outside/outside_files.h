// Issue 16: collect's own data files in an experiment written by the collector:
// "stacks.outside" and "profile.outside" (format/outside_sampler.h), in the common data-file
// layout. The current block is rewritten in place after every pass (flush()), so the files are
// readable at any moment, even if collect itself is killed.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "format/experiment_format.h"
#include "format/outside_sampler.h"

namespace erkit::collect::outside {

class OutsideFiles {
 public:
  // suffix: of the files' names ("stacks.outside"); collect -P writes its CPU samples into the
  // experiment's own "stacks" and "profile" with suffix "".
  explicit OutsideFiles(const std::string& experiment, const char* suffix = format::kOutsideSuffix);
  ~OutsideFiles();
  bool ok() const { return ok_; }
  uint64_t stack(const std::vector<uint64_t>& pcs_leaf_first, bool truncated);
  void clock_sample(const format::ClockSampleRecord& r);
  // Periodic samples (overview.h): "overview" + suffix, created with the first one.
  void overview_sample(const format::OverviewSampleRecord& r);
  void flush();

 private:
  struct File {
    int fd = -1;
    std::vector<char> block;
    uint32_t used = 0;
    uint64_t index = 0;  // of the current block
    uint32_t on_disk = 0;  // bytes of the current block written (0: not yet written at all)
  };
  void append(File& f, uint32_t rec_kind, const void* rec, uint32_t size);
  void write_block(File& f);
  bool ok_ = true;
  File stacks_, profile_, overview_;
  std::string overview_path_;
  std::unordered_set<uint64_t> written_;
};

}  // namespace erkit::collect::outside
