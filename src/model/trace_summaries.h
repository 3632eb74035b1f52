// Summaries of the trace data kinds that are not metrics of a call stack: sync waits per lock
// object, I/O per file and per opened file, and the selected I/O and heap records themselves
// for the statistics reports. Every record goes through Profile::selected, the same filter and
// selection test as the events behind the function list, so each report's <Total> equals the
// function list's total of the same metric under any selection.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "format/experiment_format.h"
#include "model/profile.h"

namespace erkit::model {

// ---- sync waits per object ----
struct SyncThreshold {
  uint32_t experiment;                       // 1-based
  std::string ns, mode, uncontended_mean_ns;  // as logged; "?" where missing
};
struct SyncObjectRow {
  uint32_t experiment, op;  // op: format::SyncOp
  uint64_t object;
  uint64_t wait_ns = 0, max_ns = 0;
  int64_t waits = 0;
  size_t threads = 0;  // distinct waiting threads
};
struct SyncSummary {
  std::vector<SyncThreshold> thresholds;  // every loaded experiment that logged one
  uint64_t total_ns = 0;
  int64_t total_waits = 0;
  std::vector<SyncObjectRow> rows;  // most wait time first (ties: experiment, op, object)
};
SyncSummary sync_by_object(const Profile& p);

// ---- I/O per file / per opened file ----
struct IoTotals {
  uint64_t time_ns = 0;
  int64_t read_bytes = 0, write_bytes = 0;
  int64_t reads = 0, writes = 0, others = 0, errors = 0;
  void add(const format::IoEventRecord& r);
};
struct IoGroupRow {
  std::string name;  // the row's label (also its grouping key)
  // Per opened file only: the file's name, the virtual descriptor, the descriptor as logged.
  std::string file, fd;
  uint32_t iovfd = 0, experiment = 0;
  IoTotals totals;
};
struct IoGroups {
  IoTotals total;
  std::vector<IoGroupRow> rows;  // most I/O time first, then by name
  bool several_experiments = false;
};
IoGroups io_by_file(const Profile& p);
IoGroups io_by_descriptor(const Profile& p);
// The name a file id of experiment exp (0-based) is shown under: its path; the standard
// descriptors by their role ("<stdout>").
std::string io_file_name(const Profile& p, uint32_t exp, uint32_t file_id);

// ---- selected records (statistics reports) ----
// exp: 0-based.
void for_each_selected_io(const Profile& p, const std::function<void(uint32_t exp, const format::IoEventRecord&)>& fn);
// Every heap record of every experiment, time ordered per experiment; `selected` tells whether
// an allocating record passes the selection (releases are always visited, so that the live
// bytes of selected blocks fall when they are freed); `leaked` whether it was never released.
void for_each_heap_record(
    const Profile& p, const std::function<void(uint32_t exp, const format::HeapEvent&, bool selected, bool leaked)>& fn);

}  // namespace erkit::model
