// rank_list: one line per MPI process (experiment) of the loaded experiments, with its MPI time
// against the time it spent outside MPI, so load imbalance shows at a glance (seed-spec §2.5).
#pragma once
#include <string>
#include <vector>

#include "model/profile.h"
#include "model/selection/selection.h"
#include "views/json.h"

namespace erkit::views {

struct RankRow {
  uint32_t expid = 0;        // 1-based experiment ID
  int64_t rank = -1;         // MPI rank, -1 unknown
  int64_t pid = -1;
  uint64_t elapsed_ns = 0;   // the main thread's time (clock profile), else the recording's length
  uint64_t mpi_ns = 0;       // MPI Time
  uint64_t sends = 0, bytes_sent = 0, receives = 0, bytes_received = 0, other = 0;
  uint64_t outside_ns() const { return elapsed_ns > mpi_ns ? elapsed_ns - mpi_ns : 0; }
};

// The selected experiments, by rank: those with a rank if there are any (not the launcher
// and its helpers), else all of them.
std::vector<RankRow> rank_rows(const model::Profile& p, const selection::SelectionState& sel);
std::string render_rank_list(const model::Profile& p, const selection::SelectionState& sel);
json::Value rank_list_json(const model::Profile& p, const selection::SelectionState& sel);

}  // namespace erkit::views
