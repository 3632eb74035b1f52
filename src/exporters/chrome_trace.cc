// Chrome trace event JSON ("Trace Event Format"), which Perfetto UI and chrome://tracing open.
// One process per experiment, one track per thread. Clock samples become a flame chart: a
// sample taken at t for d nanoseconds of thread time stands for its stack during (t-d, t];
// consecutive samples sharing a stack prefix extend the same slices. Heap, sync and I/O trace
// events become instant or complete events whose args carry their call stack; MPI calls complete
// events, with flow arrows from each send to the receive that matched it (mpi_flows).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "common/version.h"
#include "exporters/export_util.h"
#include "exporters/exporters.h"
#include "format/mpi_functions.h"

namespace erkit::exporters {
namespace {

class ChromeTrace {
 public:
  ChromeTrace(const model::Profile& p, const Options& o) : p_(p), o_(o), names_(p.functions().size()) {
    // Experiments recorded at different times keep their distance on the common time axis.
    const auto& exps = p.experiments();
    int64_t first = INT64_MAX;
    for (const auto& e : exps)
      if (e.log.realtime_start_ns > 0) first = std::min(first, e.log.realtime_start_ns);
    for (const auto& e : exps)
      offset_ns_.push_back(e.log.realtime_start_ns > 0 && first != INT64_MAX ? e.log.realtime_start_ns - first : 0);
  }

  std::string build() {
    out_ = "{\"traceEvents\":[\n";
    metadata();
    for_each_resolved_event(p_, [&](uint32_t x, const model::EventRecord& ev, const model::ResolvedStack& rs) {
      if (ev.values[model::kTotal] > 0) {
        clock_sample(x, ev, rs);
      } else {
        trace_event(x, ev, rs);
      }
    });
    for (auto& [key, t] : threads_) close_to(key.first, key.second, t, 0, t.end);
    mpi_flows();
    out_ += fmt::format("\n],\"displayTimeUnit\":\"ms\",\"otherData\":{{\"creator\":\"erkit {}\",\"experiments\":[",
                        ERKIT_VERSION);
    const auto& exps = p_.experiments();
    for (size_t i = 0; i < exps.size(); ++i) out_ += (i ? "," : "") + json_string(exps[i].path);
    out_ += "]}}\n";
    return out_;
  }

 private:
  struct OpenFrame {
    model::FuncId func;
    uint64_t start;
  };
  struct ThreadState {
    std::vector<OpenFrame> open;  // root first
    uint64_t end = 0;             // end of the last sample
    // Off-CPU samples (the sampler's wait/lock/owait records, merged over many looks) overlap
    // the CPU samples around them; they give way to the next CPU sample, which may reach back
    // to where the trailing run of off-CPU samples began.
    bool trailing_off_cpu = false;
    uint64_t off_cpu_start = 0;
    uint64_t closed_until = 0;  // latest end of a written slice: nothing reaches back past it
  };

  const std::string& name(model::FuncId f) {
    if (names_[f].empty()) names_[f] = json_string(views::function_display_name(p_.functions(), f, o_.names));
    return names_[f];
  }

  std::string ts(uint32_t x, uint64_t ns) const { return fmt::format("{:.3f}", double(ns + offset_ns_[x]) / 1000.0); }

  void event(const std::string& body) {
    if (!first_event_) out_ += ",\n";
    first_event_ = false;
    out_ += body;
  }

  void metadata() {
    const auto& exps = p_.experiments();
    for (uint32_t x = 0; x < exps.size(); ++x) {
      const auto& e = exps[x];
      int64_t pid = process_id(p_, x);
      std::string pname = e.name + (e.log.exe.empty() ? "" : ": " + e.log.exe) +
                          (e.log.mpi_rank >= 0 ? fmt::format(" (MPI rank {})", e.log.mpi_rank) : "");
      event(fmt::format("{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{},\"tid\":0,\"args\":{{\"name\":{}}}}}", pid,
                        json_string(pname)));
      std::vector<uint32_t> tids;
      for (const auto& [tid, info] : e.log.threads) tids.push_back(tid);
      for (const auto& s : e.clock) tids.push_back(s.tid);
      std::sort(tids.begin(), tids.end());
      tids.erase(std::unique(tids.begin(), tids.end()), tids.end());
      for (uint32_t tid : tids) {
        std::string tname = int64_t(tid) == e.log.pid ? fmt::format("main thread {}", tid) : fmt::format("thread {}", tid);
        event(fmt::format("{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":{}}}}}",
                          pid, tid, json_string(tname)));
      }
    }
  }

  // Ends the open frames from depth `keep` inwards at time t. Outer slices are written first:
  // viewers nest slices with equal start and duration in file order.
  void close_to(uint32_t x, uint32_t tid, ThreadState& t, size_t keep, uint64_t at) {
    for (size_t k = keep; k < t.open.size(); ++k) {
      const OpenFrame& f = t.open[k];
      if (at <= f.start) continue;  // an off-CPU slice a CPU sample took over entirely
      t.closed_until = std::max(t.closed_until, at);
      event(fmt::format("{{\"name\":{},\"cat\":\"clock\",\"ph\":\"X\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{:.3f}}}",
                        name(f.func), process_id(p_, x), tid, ts(x, f.start), double(at - f.start) / 1000.0));
    }
    if (t.open.size() > keep) t.open.resize(keep);
  }

  void clock_sample(uint32_t x, const model::EventRecord& ev, const model::ResolvedStack& rs) {
    ThreadState& t = threads_[{x, ev.tid}];
    uint64_t dur = uint64_t(ev.values[model::kTotal]);
    uint64_t start = ev.tstamp_ns > dur ? ev.tstamp_ns - dur : 0;
    // A sample's interval never reaches back before the previous one's end on its thread,
    // except a CPU sample over trailing off-CPU samples.
    bool on_cpu = ev.values[model::kUser] + ev.values[model::kSystem] > 0;
    uint64_t floor = on_cpu && t.trailing_off_cpu ? std::max(t.off_cpu_start, t.closed_until) : t.end;
    start = std::max(start, floor);
    if (ev.tstamp_ns <= start) return;
    if (start > t.end) close_to(x, ev.tid, t, 0, t.end);  // a gap: nothing continues across it
    if (on_cpu) {
      t.trailing_off_cpu = false;
    } else if (!t.trailing_off_cpu) {
      // From the end of the sample before: a gap before this one held nothing either.
      t.trailing_off_cpu = true;
      t.off_cpu_start = t.end;
    }
    const auto& fr = rs.frames;
    size_t depth = fr.size(), common = 0;
    // Frames opened after this sample's start (by off-CPU samples it reaches back over) are
    // reopened from its start, so that children never start before their parents.
    while (common < t.open.size() && common < depth && t.open[common].func == fr[depth - 1 - common].func &&
           t.open[common].start <= start)
      ++common;
    close_to(x, ev.tid, t, common, start);
    for (size_t k = common; k < depth; ++k) t.open.push_back({fr[depth - 1 - k].func, start});
    t.end = ev.tstamp_ns;
  }

  std::string stack_args(const model::ResolvedStack& rs) {
    std::string s = "[";
    for (size_t k = rs.frames.size(); k-- > 0;) s += name(rs.frames[k].func) + (k ? "," : "");
    return s + "]";
  }

  void trace_event(uint32_t x, const model::EventRecord& ev, const model::ResolvedStack& rs) {
    using namespace model;
    const int64_t* v = ev.values;
    std::string head = fmt::format("\"pid\":{},\"tid\":{}", process_id(p_, x), ev.tid);
    if (v[kAlloc]) {
      event(fmt::format("{{\"name\":\"allocate {} B\",\"cat\":\"heap\",\"ph\":\"i\",\"s\":\"t\",{},\"ts\":{},"
                        "\"args\":{{\"bytes\":{},\"leaked\":{},\"stack\":{}}}}}",
                        v[kBalloc], head, ts(x, ev.tstamp_ns), v[kBalloc], v[kLeak] ? "true" : "false", stack_args(rs)));
    } else if (v[kSyncN]) {
      // Recorded when the wait ended: the slice covers the wait.
      uint64_t w = uint64_t(v[kSync]), begin = ev.tstamp_ns > w ? ev.tstamp_ns - w : 0;
      event(fmt::format("{{\"name\":\"sync wait\",\"cat\":\"sync\",\"ph\":\"X\",{},\"ts\":{},\"dur\":{:.3f},"
                        "\"args\":{{\"wait_ns\":{},\"stack\":{}}}}}",
                        head, ts(x, begin), double(ev.tstamp_ns - begin) / 1000.0, w, stack_args(rs)));
    } else if (v[kMpiTime] || v[kMpiSend] || v[kMpiReceive] || v[kMpiOther]) {
      // MPI records carry the request time: the slice starts there.
      uint64_t d = uint64_t(v[kMpiTime]);
      std::string fn = rs.frames.empty() ? "\"MPI\"" : name(rs.frames[0].func);
      event(fmt::format("{{\"name\":{},\"cat\":\"mpi\",\"ph\":\"X\",{},\"ts\":{},\"dur\":{:.3f},"
                        "\"args\":{{\"sends\":{},\"bytes_sent\":{},\"receives\":{},\"bytes_received\":{},\"stack\":{}}}}}",
                        fn, head, ts(x, ev.tstamp_ns), double(d) / 1000.0, v[kMpiSend], v[kMpiBytesSent],
                        v[kMpiReceive], v[kMpiBytesRecv], stack_args(rs)));
    } else if (v[kIoReadCount] || v[kIoWriteCount] || v[kIoOtherCount]) {
      const char* what = v[kIoReadCount] ? "read" : v[kIoWriteCount] ? "write" : "I/O";
      int64_t bytes = v[kIoReadBytes] + v[kIoWriteBytes];
      // I/O records are written when the call returns: the slice ends at the timestamp.
      uint64_t d = uint64_t(v[kIoTime]), begin = ev.tstamp_ns > d ? ev.tstamp_ns - d : 0;
      event(fmt::format("{{\"name\":\"{}\",\"cat\":\"io\",\"ph\":\"X\",{},\"ts\":{},\"dur\":{:.3f},"
                        "\"args\":{{\"bytes\":{},\"duration_ns\":{},\"stack\":{}}}}}",
                        what, head, ts(x, begin), double(ev.tstamp_ns - begin) / 1000.0, bytes, d, stack_args(rs)));
    }
  }

  // MPI messages: the n-th send from rank a to rank b with tag t matches the n-th receive at b
  // from a with tag t (MPI's non-overtaking rule). Point-to-point calls with an explicit peer
  // only (a wildcard source cannot be matched from the records). An arrow ("ph":"s" -> "f")
  // goes from the send's start to the receive's end.
  void mpi_flows() {
    const auto& exps = p_.experiments();
    std::map<int64_t, uint32_t> by_rank;
    for (uint32_t x = 0; x < exps.size(); ++x)
      if (exps[x].log.mpi_rank >= 0) by_rank.emplace(exps[x].log.mpi_rank, x);
    using Key = std::tuple<int64_t, int64_t, int32_t>;  // from, to, tag
    std::map<Key, std::vector<std::pair<uint32_t, const format::MpiEventRecord*>>> sends, recvs;
    for (const auto& [rank, x] : by_rank)
      for (const auto& m : exps[x].mpi) {
        if (m.peer < 0 || m.tag < 0 || !by_rank.count(m.peer)) continue;
        auto cat = format::mpi_function_category(m.function);
        bool recv = cat == format::MpiCategory::kReceive && m.function != format::kMpi_Get;
        bool send = cat == format::MpiCategory::kSend && m.function != format::kMpi_Put &&
                    m.function != format::kMpi_Accumulate;
        if (send) sends[{rank, m.peer, m.tag}].push_back({x, &m});
        if (recv) recvs[{m.peer, rank, m.tag}].push_back({x, &m});
      }
    uint64_t id = 0;
    for (const auto& [key, ss] : sends) {
      auto it = recvs.find(key);
      if (it == recvs.end()) continue;
      for (size_t i = 0; i < ss.size() && i < it->second.size(); ++i) {
        auto [sx, s] = ss[i];
        auto [rx, r] = it->second[i];
        ++id;
        std::string name = fmt::format("\"message {} -> {} tag {}\",\"cat\":\"mpi\"", std::get<0>(key),
                                       std::get<1>(key), std::get<2>(key));
        event(fmt::format("{{\"name\":{},\"ph\":\"s\",\"id\":{},\"pid\":{},\"tid\":{},\"ts\":{}}}", name, id,
                          process_id(p_, sx), s->tid, ts(sx, s->tstamp_ns)));
        event(fmt::format("{{\"name\":{},\"ph\":\"f\",\"bp\":\"e\",\"id\":{},\"pid\":{},\"tid\":{},\"ts\":{}}}",
                          name, id, process_id(p_, rx), r->tid, ts(rx, r->tstamp_ns + r->duration_ns)));
      }
    }
  }

  const model::Profile& p_;
  const Options& o_;
  std::vector<std::string> names_;  // JSON-quoted, by FuncId
  std::vector<int64_t> offset_ns_;
  std::map<std::pair<uint32_t, uint32_t>, ThreadState> threads_;
  std::string out_;
  bool first_event_ = true;
};

}  // namespace

std::string write_chrome_trace(const model::Profile& p, const Options& o, std::string*) { return ChromeTrace(p, o).build(); }

}  // namespace erkit::exporters
