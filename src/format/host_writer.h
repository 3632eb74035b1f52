// Writing experiments from analysis-side code (synthetic experiments for tests and benchmarks,
// imports from other tools) with the same on-disk layout the collector produces.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "format/experiment_format.h"

namespace erkit::format {

class HostExperimentWriter {
 public:
  // Creates the directory (must not exist) and the log/map headers.
  explicit HostExperimentWriter(std::string dir);
  ~HostExperimentWriter();
  HostExperimentWriter(const HostExperimentWriter&) = delete;
  HostExperimentWriter& operator=(const HostExperimentWriter&) = delete;

  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }

  // Appends a raw line ("<tstamp> <event> k=v ...") to the log or the map.
  void log_line(const std::string& line);
  void map_line(const std::string& line);
  void load_object(const std::string& path, uint64_t bias, uint64_t lo, uint64_t hi,
                   const std::string& build_id = "-", uint64_t tstamp_ns = 0);

  // Writes the stack once per id; returns its id (a hash of the pcs).
  uint64_t stack(const std::vector<uint64_t>& pcs_leaf_first);
  void clock_sample(const ClockSampleRecord& r);
  // The same sample as the collector writes it: a compact record (format/clock_compact.h).
  void clock_sample_compact(const ClockSampleRecord& r);
  void overview_sample(const OverviewSampleRecord& r);
  // Written as the compact record for e.op (encode_heap_record).
  void heap_event(const HeapEvent& e);
  void sync_event(const SyncEventRecord& r);
  void io_event(const IoEventRecord& r);
  void mpi_event(const MpiEventRecord& r);
  // collect -h records (issue 19: synthesized counter experiments, no PMU needed).
  void hwc_event(const HwcEventRecord& r);

  // Flushes every data file (also done by the destructor).
  void finish();

 private:
  struct File;
  void append(DataKind kind, uint32_t rec_kind, const void* rec, uint32_t size);
  std::string dir_;
  bool ok_ = true;
  std::string error_;
  std::vector<File*> files_;
  std::unordered_set<uint64_t> written_stacks_;  // a set: benchmarks write 100 k+ stacks
};

}  // namespace erkit::format
