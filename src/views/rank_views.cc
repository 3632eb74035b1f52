#include "views/rank_views.h"

#include <fmt/format.h>

#include <algorithm>

#include "format/mpi_functions.h"

namespace erkit::views {

std::vector<RankRow> rank_rows(const model::Profile& p, const selection::SelectionState& sel) {
  std::vector<RankRow> rows;
  for (uint32_t x = 0; x < p.experiments().size(); ++x) {
    if (!sel.experiment_selected(x + 1)) continue;
    const auto& e = p.experiments()[x];
    RankRow r;
    r.expid = x + 1;
    r.rank = e.log.mpi_rank;
    r.pid = e.log.pid;
    uint64_t wall = 0;
    for (const auto& c : e.clock)
      if (c.flags & format::kClockFlagMainThread)
        for (uint64_t ns : c.ns) wall += ns;
    r.elapsed_ns = wall ? wall : e.duration_ns();
    for (const auto& m : e.mpi) {
      r.mpi_ns += m.duration_ns;
      r.sends += m.sends;
      r.bytes_sent += m.bytes_sent;
      r.receives += m.receives;
      r.bytes_received += m.bytes_received;
      if (format::mpi_function_category(m.function) == format::MpiCategory::kOther) ++r.other;
    }
    rows.push_back(r);
  }
  // Once some process is an MPI rank, the others (the launcher, helper processes followed as
  // descendants) are left out.
  if (std::any_of(rows.begin(), rows.end(), [](const RankRow& r) { return r.rank >= 0; }))
    std::erase_if(rows, [](const RankRow& r) { return r.rank < 0; });
  std::stable_sort(rows.begin(), rows.end(), [](const RankRow& a, const RankRow& b) {
    return (a.rank < 0 ? INT64_MAX : a.rank) < (b.rank < 0 ? INT64_MAX : b.rank);
  });
  return rows;
}

std::string render_rank_list(const model::Profile& p, const selection::SelectionState& sel) {
  auto rows = rank_rows(p, sel);
  std::string out =
      "Rank  Exp   Elapsed  MPI Time  Outside MPI  MPI %   Sends  Bytes Sent  Receives  Bytes Recv.  Other MPI\n"
      "====  ===  ========  ========  ===========  =====  ======  ==========  ========  ===========  =========\n";
  auto sec = [](uint64_t ns) { return fmt::format("{:.3f}", double(ns) / 1e9); };
  RankRow total;
  for (const auto& r : rows) {
    out += fmt::format("{:>4}  {:>3}  {:>8}  {:>8}  {:>11}  {:>5.1f}  {:>6}  {:>10}  {:>8}  {:>11}  {:>9}\n",
                       r.rank < 0 ? std::string("-") : std::to_string(r.rank), r.expid, sec(r.elapsed_ns),
                       sec(r.mpi_ns), sec(r.outside_ns()),
                       r.elapsed_ns ? 100.0 * double(std::min(r.mpi_ns, r.elapsed_ns)) / double(r.elapsed_ns) : 0.0,
                       r.sends, r.bytes_sent, r.receives, r.bytes_received, r.other);
    total.elapsed_ns += r.elapsed_ns;
    total.mpi_ns += r.mpi_ns;
    total.sends += r.sends;
    total.bytes_sent += r.bytes_sent;
    total.receives += r.receives;
    total.bytes_received += r.bytes_received;
    total.other += r.other;
  }
  if (rows.size() > 1) {
    uint64_t lo = UINT64_MAX, hi = 0;
    for (const auto& r : rows) lo = std::min(lo, r.mpi_ns), hi = std::max(hi, r.mpi_ns);
    out += fmt::format("{:>4}  {:>3}  {:>8}  {:>8}  {:>11}  {:>5.1f}  {:>6}  {:>10}  {:>8}  {:>11}  {:>9}\n", "all",
                       "", sec(total.elapsed_ns), sec(total.mpi_ns), sec(total.outside_ns()),
                       total.elapsed_ns ? 100.0 * double(std::min(total.mpi_ns, total.elapsed_ns)) /
                                              double(total.elapsed_ns)
                                        : 0.0,
                       total.sends, total.bytes_sent, total.receives, total.bytes_received, total.other);
    out += fmt::format("MPI Time per rank: min {} s, max {} s (max - min = {} s)\n", sec(lo), sec(hi), sec(hi - lo));
  }
  return out;
}

json::Value rank_list_json(const model::Profile& p, const selection::SelectionState& sel) {
  json::Value list = json::Value::array();
  for (const auto& r : rank_rows(p, sel))
    list.push(json::Value::object()
                  .set("rank", r.rank)
                  .set("experiment", r.expid)
                  .set("pid", r.pid)
                  .set("elapsed_ns", r.elapsed_ns)
                  .set("mpi_ns", r.mpi_ns)
                  .set("outside_mpi_ns", r.outside_ns())
                  .set("mpisend", r.sends)
                  .set("mpibytesent", r.bytes_sent)
                  .set("mpireceive", r.receives)
                  .set("mpibytesrecv", r.bytes_received)
                  .set("mpiother", r.other));
  return json::Value::object().set("ranks", std::move(list));
}

}  // namespace erkit::views
