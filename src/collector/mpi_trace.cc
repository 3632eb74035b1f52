// The recorder side of MPI tracing (collect -m on): libcollector-mpi.so's wrappers measure each
// MPI call and hand it here; this writes one MpiEventRecord into "mpitrace" with the call stack,
// and the rank line into the log. Exported with C names that the wrapper library resolves with
// dlsym (src/collector/mpi_abi.h). Async-signal-safe except where noted.
#include "collector/data_writer.h"
#include "collector/mpi_abi.h"
#include "collector/runtime.h"
#include "collector/text_line.h"
#include "collector/thread_state.h"
#include "collector/trace_common.h"
#include "format/experiment_format.h"
#include "format/log_keys.h"

#define ERKIT_MPI_API extern "C" __attribute__((visibility("default")))

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;

ERKIT_MPI_API int erkit_mpi_abi_version() { return ERKIT_MPI_ABI_VERSION; }

ERKIT_MPI_API uint64_t erkit_mpi_now() { return now_ns(); }

ERKIT_MPI_API void erkit_mpi_record(const ErkitMpiCall* c) {
  if (!c || !g_rt.config.mpi_trace || !trace_admit(c->caller)) return;
  TraceWriter w = trace_enter();
  if (!w.ts) return;
  TraceCall t{c->start_ns, c->end_ns, c->frame, reinterpret_cast<uint64_t>(c->function)};
  uint64_t stack = trace_stack(w.ts, t);
  using format::MpiEventRecord;
  auto* rec = static_cast<MpiEventRecord*>(
      record_reserve(w.ts, format::DataKind::kMpi, format::kRecMpiEvent, sizeof(MpiEventRecord)));
  if (rec) {
    rec->tid = w.ts->tid;
    rec->tstamp_ns = c->start_ns;
    rec->stack_id = stack;
    rec->function = c->fn;
    rec->comm_size = c->comm_size;
    rec->duration_ns = c->end_ns > c->start_ns ? c->end_ns - c->start_ns : 0;
    rec->peer = c->peer;
    rec->tag = c->tag;
    rec->sends = c->sends;
    rec->receives = c->receives;
    rec->bytes_sent = c->bytes_sent;
    rec->bytes_received = c->bytes_received;
    record_commit(rec, format::kRecMpiEvent, sizeof(MpiEventRecord));
  }
  record_release(w.ts);
  trace_exit(w);
}

ERKIT_MPI_API void erkit_mpi_rank(int rank, int size) {
  if (!g_rt.active) return;
  TextLine line;
  line.event(now_ns(), logev::kMpiRank).kv_dec(logkey::kRank, rank).kv_dec(logkey::kSize, size).write_to(g_rt.log_fd);
}

}  // namespace erkit::collector
