// The MPI functions collect -m on traces, with their ids in MpiEventRecord::function and their
// category (seed-spec §2.5, table 2-5): send, receive, send-and-receive, or other. Ids are part of
// the experiment format: append only. Freestanding (shared by the MPI tracer and the reader).
#pragma once
#include <stdint.h>

namespace erkit::format {

enum class MpiCategory : uint8_t { kSend, kReceive, kSendReceive, kOther };

// X(id, name, category)
#define ERKIT_MPI_FUNCTIONS(X)                                                                      \
  X(1, Allgather, kSendReceive) X(2, Allgatherv, kSendReceive) X(3, Allreduce, kSendReceive)        \
  X(4, Alltoall, kSendReceive) X(5, Alltoallv, kSendReceive) X(6, Barrier, kOther)                  \
  X(7, Bcast, kSendReceive) X(8, Bsend, kSend) X(9, Gather, kSendReceive)                           \
  X(10, Gatherv, kSendReceive) X(11, Irecv, kReceive) X(12, Isend, kSend) X(13, Recv, kReceive)     \
  X(14, Reduce, kSendReceive) X(15, Reduce_scatter, kSendReceive) X(16, Rsend, kSend)               \
  X(17, Scan, kSendReceive) X(18, Scatter, kSendReceive) X(19, Scatterv, kSendReceive)              \
  X(20, Send, kSend) X(21, Sendrecv, kSendReceive) X(22, Sendrecv_replace, kSendReceive)            \
  X(23, Ssend, kSend) X(24, Wait, kOther) X(25, Waitall, kOther) X(26, Waitany, kOther)             \
  X(27, Waitsome, kOther) X(28, Win_fence, kOther) X(29, Win_lock, kOther)                          \
  /* beyond the manual's 29: what codes use today */                                                \
  X(30, Ibsend, kSend) X(31, Irsend, kSend) X(32, Issend, kSend) X(33, Iallreduce, kSendReceive)    \
  X(34, Ibcast, kSendReceive) X(35, Ireduce, kSendReceive) X(36, Iallgather, kSendReceive)          \
  X(37, Ialltoall, kSendReceive) X(38, Ibarrier, kOther) X(39, Igather, kSendReceive)               \
  X(40, Iscatter, kSendReceive) X(41, Reduce_scatter_block, kSendReceive)                           \
  X(42, Exscan, kSendReceive) X(43, Probe, kOther) X(44, Iprobe, kOther) X(45, Test, kOther)        \
  X(46, Testall, kOther) X(47, Testany, kOther) X(48, Testsome, kOther) X(49, Put, kSend)           \
  X(50, Get, kReceive) X(51, Accumulate, kSend) X(52, Win_create, kOther)                           \
  X(53, Win_allocate, kOther) X(54, Win_free, kOther) X(55, Win_unlock, kOther)                     \
  X(56, Win_lock_all, kOther) X(57, Win_unlock_all, kOther) X(58, Win_flush, kOther)                \
  X(59, Win_start, kOther) X(60, Win_complete, kOther) X(61, Win_post, kOther)                      \
  X(62, Win_wait, kOther) X(63, Comm_split, kOther) X(64, Comm_dup, kOther)                         \
  X(65, Comm_free, kOther) X(66, Init, kOther) X(67, Init_thread, kOther) X(68, Finalize, kOther)

enum MpiFunction : uint32_t {
#define ERKIT_MPI_ENUM(id, name, cat) kMpi_##name = id,
  ERKIT_MPI_FUNCTIONS(ERKIT_MPI_ENUM)
#undef ERKIT_MPI_ENUM
  kMpiFunctionEnd
};

// "MPI_Send" for kMpi_Send; nullptr for an unknown id.
inline const char* mpi_function_name(uint32_t id) {
  switch (id) {
#define ERKIT_MPI_NAME(id, name, cat) \
  case id: return "MPI_" #name;
    ERKIT_MPI_FUNCTIONS(ERKIT_MPI_NAME)
#undef ERKIT_MPI_NAME
  }
  return nullptr;
}

inline MpiCategory mpi_function_category(uint32_t id) {
  switch (id) {
#define ERKIT_MPI_CAT(id, name, cat) \
  case id: return MpiCategory::cat;
    ERKIT_MPI_FUNCTIONS(ERKIT_MPI_CAT)
#undef ERKIT_MPI_CAT
  }
  return MpiCategory::kOther;
}

}  // namespace erkit::format
