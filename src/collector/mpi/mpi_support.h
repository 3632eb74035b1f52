// What the MPI wrappers of libcollector-mpi.so share: the hooks into libcollector.so, the real
// PMPI functions (resolved at run time, so this library links against no MPI), the per-call
// bracket, and the manual's byte accounting (seed-spec §2.5).
//
// MPI handles are declared as one machine word (H): a pointer in Open MPI, an int in MPICH; on
// the LP64 ABIs erkit supports both travel in one register or one 8-byte stack slot, so the
// wrappers pass them through unchanged and only PMPI code ever interprets them.
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "collector/mpi_abi.h"
#include "format/mpi_functions.h"

#define ERKIT_MPI_EXPORT extern "C" __attribute__((visibility("default")))

namespace erkit::mpi {

using H = uintptr_t;
using Aint = intptr_t;

// Returned when the real function cannot be found (no MPI library in the process).
inline constexpr int kErrNoMpi = 16;

// Looks up `name` (a PMPI_ or pmpi_ function) once and caches it in *slot.
void* real_function(void** slot, const char* name);

template <class F>
F* real(F** slot, const char* name) {
  return reinterpret_cast<F*>(real_function(reinterpret_cast<void**>(slot), name));
}

// Starts a call: false when it is not traced (nested MPI call, recording off, collector absent);
// the wrapper must call leave() in any case.
bool enter(ErkitMpiCall* c, uint32_t fn, const void* frame, const void* function, const void* caller);
// Stamps the end of the real call (right after it returns).
void stamp_end(ErkitMpiCall* c);
// Hands a traced call to the collector.
void finish(const ErkitMpiCall* c);
void leave();

// After MPI_Init / MPI_Init_thread: logs the rank in MPI_COMM_WORLD.
void log_world_rank();

// PMPI helpers (0 when the call fails).
int64_t type_bytes(int64_t count, H type);
int comm_size(H comm);
int comm_rank(H comm);
int64_t sum_counts(const int* counts, int n);

// The accounting of each kind of call (peer -1 / tag -1 where the call has none).
void point_send(ErkitMpiCall* c, H comm, int peer, int tag, int64_t bytes);
void point_receive(ErkitMpiCall* c, H comm, int peer, int tag, int64_t bytes);
void other(ErkitMpiCall* c, H comm, int peer = -1, int tag = -1);
// Every process sends G packets totalling `sent` and receives G packets totalling `received`.
void all_to_all(ErkitMpiCall* c, H comm, int64_t sent, int64_t received);
// Rooted: the root sends G packets totalling `root_sent`, every process receives one of
// `each_received` (Bcast, Scatter, Scatterv).
void one_to_all(ErkitMpiCall* c, H comm, int root, int64_t root_sent, int64_t each_received);
// Rooted: every process sends one packet of `each_sent`, the root receives G totalling
// `root_received` (Reduce, Gather, Gatherv).
void all_to_one(ErkitMpiCall* c, H comm, int root, int64_t each_sent, int64_t root_received);
// Prefix reductions: rank r sends its N bytes to ranks r.. (Scan) or r+1.. (Exscan) and
// receives from ranks ..r (Scan) or ..r-1 (Exscan).
void prefix(ErkitMpiCall* c, H comm, int64_t bytes, bool exclusive);

}  // namespace erkit::mpi

// The body of every wrapper: bracket the real call (a statement), then account. Written in the
// wrapper itself so that its frame and return address are the wrapper's.
#define ERKIT_MPI_BRACKET(fn_id, self, call, account)                                         \
  ErkitMpiCall c_;                                                                            \
  bool on_ = ::erkit::mpi::enter(&c_, fn_id, __builtin_frame_address(0),                      \
                                 reinterpret_cast<const void*>(&self),                        \
                                 __builtin_return_address(0));                                \
  call;                                                                                       \
  if (on_) {                                                                                  \
    ::erkit::mpi::stamp_end(&c_);                                                             \
    ErkitMpiCall* c = &c_;                                                                    \
    (void)c;                                                                                  \
    account;                                                                                  \
    ::erkit::mpi::finish(c);                                                                  \
  }                                                                                           \
  ::erkit::mpi::leave()
