// The C bindings of MPI that collect -m on traces (seed-spec §2.5, format/mpi_functions.h):
// each MPI_X calls PMPI_X and records the call with the manual's accounting. Parameter types
// are the ABI's (H: any MPI handle), so no mpi.h is needed and any MPI works.
#include "collector/mpi/mpi_support.h"

using namespace erkit::mpi;
namespace fmt_ = erkit::format;

#define ERKIT_MPI_WRAP(name, params, args, account)                                           \
  namespace {                                                                                 \
  using name##_type = int params;                                                             \
  name##_type* real_##name;                                                                   \
  }                                                                                           \
  ERKIT_MPI_EXPORT int MPI_##name params {                                                    \
    auto* f = real(&real_##name, "PMPI_" #name);                                              \
    if (!f) return kErrNoMpi;                                                                 \
    int r_;                                                                                   \
    ERKIT_MPI_BRACKET(fmt_::kMpi_##name, MPI_##name, r_ = f args, account);                   \
    return r_;                                                                                \
  }

// ---- point to point ----------------------------------------------------------------------------
#define ERKIT_MPI_SEND(name)                                                                  \
  ERKIT_MPI_WRAP(name, (const void* buf, int count, H type, int dest, int tag, H comm),       \
                 (buf, count, type, dest, tag, comm),                                         \
                 point_send(c, comm, dest, tag, type_bytes(count, type)))
#define ERKIT_MPI_ISEND(name)                                                                 \
  ERKIT_MPI_WRAP(name, (const void* buf, int count, H type, int dest, int tag, H comm, H* req), \
                 (buf, count, type, dest, tag, comm, req),                                    \
                 point_send(c, comm, dest, tag, type_bytes(count, type)))
ERKIT_MPI_SEND(Send)
ERKIT_MPI_SEND(Bsend)
ERKIT_MPI_SEND(Rsend)
ERKIT_MPI_SEND(Ssend)
ERKIT_MPI_ISEND(Isend)
ERKIT_MPI_ISEND(Ibsend)
ERKIT_MPI_ISEND(Irsend)
ERKIT_MPI_ISEND(Issend)
ERKIT_MPI_WRAP(Recv, (void* buf, int count, H type, int src, int tag, H comm, void* status),
               (buf, count, type, src, tag, comm, status),
               point_receive(c, comm, src, tag, type_bytes(count, type)))
ERKIT_MPI_WRAP(Irecv, (void* buf, int count, H type, int src, int tag, H comm, H* req),
               (buf, count, type, src, tag, comm, req),
               point_receive(c, comm, src, tag, type_bytes(count, type)))
ERKIT_MPI_WRAP(Sendrecv,
               (const void* sbuf, int scount, H stype, int dest, int stag, void* rbuf, int rcount,
                H rtype, int src, int rtag, H comm, void* status),
               (sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, status), {
                 point_send(c, comm, dest, stag, type_bytes(scount, stype));
                 c->receives = 1;
                 c->bytes_received = uint64_t(type_bytes(rcount, rtype));
               })
ERKIT_MPI_WRAP(Sendrecv_replace,
               (void* buf, int count, H type, int dest, int stag, int src, int rtag, H comm, void* status),
               (buf, count, type, dest, stag, src, rtag, comm, status), {
                 point_send(c, comm, dest, stag, type_bytes(count, type));
                 c->receives = 1;
                 c->bytes_received = c->bytes_sent;
               })
ERKIT_MPI_WRAP(Probe, (int src, int tag, H comm, void* status), (src, tag, comm, status),
               other(c, comm, src, tag))
ERKIT_MPI_WRAP(Iprobe, (int src, int tag, H comm, int* flag, void* status), (src, tag, comm, flag, status),
               other(c, comm, src, tag))

// ---- completion --------------------------------------------------------------------------------
ERKIT_MPI_WRAP(Wait, (H* req, void* status), (req, status), other(c, 0))
ERKIT_MPI_WRAP(Waitall, (int n, H* reqs, void* statuses), (n, reqs, statuses), other(c, 0))
ERKIT_MPI_WRAP(Waitany, (int n, H* reqs, int* index, void* status), (n, reqs, index, status), other(c, 0))
ERKIT_MPI_WRAP(Waitsome, (int n, H* reqs, int* outcount, int* indices, void* statuses),
               (n, reqs, outcount, indices, statuses), other(c, 0))
ERKIT_MPI_WRAP(Test, (H* req, int* flag, void* status), (req, flag, status), other(c, 0))
ERKIT_MPI_WRAP(Testall, (int n, H* reqs, int* flag, void* statuses), (n, reqs, flag, statuses), other(c, 0))
ERKIT_MPI_WRAP(Testany, (int n, H* reqs, int* index, int* flag, void* status), (n, reqs, index, flag, status),
               other(c, 0))
ERKIT_MPI_WRAP(Testsome, (int n, H* reqs, int* outcount, int* indices, void* statuses),
               (n, reqs, outcount, indices, statuses), other(c, 0))

// ---- collectives (blocking and non-blocking: same accounting) ------------------------------------
ERKIT_MPI_WRAP(Barrier, (H comm), (comm), other(c, comm))
ERKIT_MPI_WRAP(Ibarrier, (H comm, H* req), (comm, req), other(c, comm))
ERKIT_MPI_WRAP(Bcast, (void* buf, int count, H type, int root, H comm), (buf, count, type, root, comm), {
  int64_t n = type_bytes(count, type);
  one_to_all(c, comm, root, n * comm_size(comm), n);
})
ERKIT_MPI_WRAP(Ibcast, (void* buf, int count, H type, int root, H comm, H* req),
               (buf, count, type, root, comm, req), {
                 int64_t n = type_bytes(count, type);
                 one_to_all(c, comm, root, n * comm_size(comm), n);
               })
ERKIT_MPI_WRAP(Reduce, (const void* s, void* r, int count, H type, H op, int root, H comm),
               (s, r, count, type, op, root, comm), {
                 int64_t n = type_bytes(count, type);
                 all_to_one(c, comm, root, n, n * comm_size(comm));
               })
ERKIT_MPI_WRAP(Ireduce, (const void* s, void* r, int count, H type, H op, int root, H comm, H* req),
               (s, r, count, type, op, root, comm, req), {
                 int64_t n = type_bytes(count, type);
                 all_to_one(c, comm, root, n, n * comm_size(comm));
               })
ERKIT_MPI_WRAP(Allreduce, (const void* s, void* r, int count, H type, H op, H comm),
               (s, r, count, type, op, comm), {
                 int64_t n = type_bytes(count, type) * comm_size(comm);
                 all_to_all(c, comm, n, n);
               })
ERKIT_MPI_WRAP(Iallreduce, (const void* s, void* r, int count, H type, H op, H comm, H* req),
               (s, r, count, type, op, comm, req), {
                 int64_t n = type_bytes(count, type) * comm_size(comm);
                 all_to_all(c, comm, n, n);
               })
ERKIT_MPI_WRAP(Reduce_scatter, (const void* s, void* r, const int* rcounts, H type, H op, H comm),
               (s, r, rcounts, type, op, comm), {
                 int64_t n = type_bytes(sum_counts(rcounts, comm_size(comm)), type);
                 all_to_all(c, comm, n, n);
               })
ERKIT_MPI_WRAP(Reduce_scatter_block, (const void* s, void* r, int rcount, H type, H op, H comm),
               (s, r, rcount, type, op, comm), {
                 int64_t n = type_bytes(int64_t(rcount) * comm_size(comm), type);
                 all_to_all(c, comm, n, n);
               })
ERKIT_MPI_WRAP(Scan, (const void* s, void* r, int count, H type, H op, H comm), (s, r, count, type, op, comm),
               prefix(c, comm, type_bytes(count, type), false))
ERKIT_MPI_WRAP(Exscan, (const void* s, void* r, int count, H type, H op, H comm), (s, r, count, type, op, comm),
               prefix(c, comm, type_bytes(count, type), true))
#define ERKIT_MPI_GATHER_PARAMS \
  (const void* s, int scount, H stype, void* r, int rcount, H rtype, int root, H comm)
ERKIT_MPI_WRAP(Gather, ERKIT_MPI_GATHER_PARAMS, (s, scount, stype, r, rcount, rtype, root, comm),
               all_to_one(c, comm, root, type_bytes(scount, stype),
                          type_bytes(int64_t(rcount) * comm_size(comm), rtype)))
ERKIT_MPI_WRAP(Igather,
               (const void* s, int scount, H stype, void* r, int rcount, H rtype, int root, H comm, H* req),
               (s, scount, stype, r, rcount, rtype, root, comm, req),
               all_to_one(c, comm, root, type_bytes(scount, stype),
                          type_bytes(int64_t(rcount) * comm_size(comm), rtype)))
ERKIT_MPI_WRAP(Gatherv,
               (const void* s, int scount, H stype, void* r, const int* rcounts, const int* displs,
                H rtype, int root, H comm),
               (s, scount, stype, r, rcounts, displs, rtype, root, comm), {
                 // rcounts is significant at the root only.
                 bool is_root = comm_rank(comm) == root;
                 all_to_one(c, comm, root, type_bytes(scount, stype),
                            is_root ? type_bytes(sum_counts(rcounts, comm_size(comm)), rtype) : 0);
               })
ERKIT_MPI_WRAP(Scatter, ERKIT_MPI_GATHER_PARAMS, (s, scount, stype, r, rcount, rtype, root, comm),
               one_to_all(c, comm, root, type_bytes(int64_t(scount) * comm_size(comm), stype),
                          type_bytes(rcount, rtype)))
ERKIT_MPI_WRAP(Iscatter,
               (const void* s, int scount, H stype, void* r, int rcount, H rtype, int root, H comm, H* req),
               (s, scount, stype, r, rcount, rtype, root, comm, req),
               one_to_all(c, comm, root, type_bytes(int64_t(scount) * comm_size(comm), stype),
                          type_bytes(rcount, rtype)))
ERKIT_MPI_WRAP(Scatterv,
               (const void* s, const int* scounts, const int* displs, H stype, void* r, int rcount,
                H rtype, int root, H comm),
               (s, scounts, displs, stype, r, rcount, rtype, root, comm), {
                 bool is_root = comm_rank(comm) == root;
                 one_to_all(c, comm, root,
                            is_root ? type_bytes(sum_counts(scounts, comm_size(comm)), stype) : 0,
                            type_bytes(rcount, rtype));
               })
#define ERKIT_MPI_ALLGATHER_ACCOUNT                                             \
  {                                                                             \
    int g = comm_size(comm);                                                    \
    all_to_all(c, comm, type_bytes(int64_t(scount) * g, stype),                 \
               type_bytes(int64_t(rcount) * g, rtype));                         \
  }
ERKIT_MPI_WRAP(Allgather, (const void* s, int scount, H stype, void* r, int rcount, H rtype, H comm),
               (s, scount, stype, r, rcount, rtype, comm), ERKIT_MPI_ALLGATHER_ACCOUNT)
ERKIT_MPI_WRAP(Iallgather, (const void* s, int scount, H stype, void* r, int rcount, H rtype, H comm, H* req),
               (s, scount, stype, r, rcount, rtype, comm, req), ERKIT_MPI_ALLGATHER_ACCOUNT)
ERKIT_MPI_WRAP(Alltoall, (const void* s, int scount, H stype, void* r, int rcount, H rtype, H comm),
               (s, scount, stype, r, rcount, rtype, comm), ERKIT_MPI_ALLGATHER_ACCOUNT)
ERKIT_MPI_WRAP(Ialltoall, (const void* s, int scount, H stype, void* r, int rcount, H rtype, H comm, H* req),
               (s, scount, stype, r, rcount, rtype, comm, req), ERKIT_MPI_ALLGATHER_ACCOUNT)
ERKIT_MPI_WRAP(Allgatherv,
               (const void* s, int scount, H stype, void* r, const int* rcounts, const int* displs,
                H rtype, H comm),
               (s, scount, stype, r, rcounts, displs, rtype, comm), {
                 int g = comm_size(comm);
                 all_to_all(c, comm, type_bytes(int64_t(scount) * g, stype),
                            type_bytes(sum_counts(rcounts, g), rtype));
               })
ERKIT_MPI_WRAP(Alltoallv,
               (const void* s, const int* scounts, const int* sdispls, H stype, void* r,
                const int* rcounts, const int* rdispls, H rtype, H comm),
               (s, scounts, sdispls, stype, r, rcounts, rdispls, rtype, comm), {
                 int g = comm_size(comm);
                 all_to_all(c, comm, type_bytes(sum_counts(scounts, g), stype),
                            type_bytes(sum_counts(rcounts, g), rtype));
               })

// ---- one-sided ---------------------------------------------------------------------------------
#define ERKIT_MPI_RMA_PARAMS \
  (const void* oaddr, int ocount, H otype, int target, Aint tdisp, int tcount, H ttype, H win)
ERKIT_MPI_WRAP(Put, ERKIT_MPI_RMA_PARAMS, (oaddr, ocount, otype, target, tdisp, tcount, ttype, win), {
  c->peer = target;
  c->sends = 1;
  c->bytes_sent = uint64_t(type_bytes(ocount, otype));
})
ERKIT_MPI_WRAP(Get, (void* oaddr, int ocount, H otype, int target, Aint tdisp, int tcount, H ttype, H win),
               (oaddr, ocount, otype, target, tdisp, tcount, ttype, win), {
                 c->peer = target;
                 c->receives = 1;
                 c->bytes_received = uint64_t(type_bytes(ocount, otype));
               })
ERKIT_MPI_WRAP(Accumulate,
               (const void* oaddr, int ocount, H otype, int target, Aint tdisp, int tcount, H ttype,
                H op, H win),
               (oaddr, ocount, otype, target, tdisp, tcount, ttype, op, win), {
                 c->peer = target;
                 c->sends = 1;
                 c->bytes_sent = uint64_t(type_bytes(ocount, otype));
               })
ERKIT_MPI_WRAP(Win_fence, (int assert_, H win), (assert_, win), other(c, 0))
ERKIT_MPI_WRAP(Win_lock, (int type, int rank, int assert_, H win), (type, rank, assert_, win), other(c, 0, rank))
ERKIT_MPI_WRAP(Win_unlock, (int rank, H win), (rank, win), other(c, 0, rank))
ERKIT_MPI_WRAP(Win_lock_all, (int assert_, H win), (assert_, win), other(c, 0))
ERKIT_MPI_WRAP(Win_unlock_all, (H win), (win), other(c, 0))
ERKIT_MPI_WRAP(Win_flush, (int rank, H win), (rank, win), other(c, 0, rank))
ERKIT_MPI_WRAP(Win_start, (H group, int assert_, H win), (group, assert_, win), other(c, 0))
ERKIT_MPI_WRAP(Win_complete, (H win), (win), other(c, 0))
ERKIT_MPI_WRAP(Win_post, (H group, int assert_, H win), (group, assert_, win), other(c, 0))
ERKIT_MPI_WRAP(Win_wait, (H win), (win), other(c, 0))
ERKIT_MPI_WRAP(Win_create, (void* base, Aint size, int disp_unit, H info, H comm, H* win),
               (base, size, disp_unit, info, comm, win), other(c, comm))
ERKIT_MPI_WRAP(Win_allocate, (Aint size, int disp_unit, H info, H comm, void* baseptr, H* win),
               (size, disp_unit, info, comm, baseptr, win), other(c, comm))
ERKIT_MPI_WRAP(Win_free, (H* win), (win), other(c, 0))

// ---- communicators and life cycle --------------------------------------------------------------
ERKIT_MPI_WRAP(Comm_split, (H comm, int color, int key, H* newcomm), (comm, color, key, newcomm),
               other(c, comm))
ERKIT_MPI_WRAP(Comm_dup, (H comm, H* newcomm), (comm, newcomm), other(c, comm))
ERKIT_MPI_WRAP(Comm_free, (H* comm), (comm), other(c, 0))
ERKIT_MPI_WRAP(Init, (int* argc, char*** argv), (argc, argv), log_world_rank())
ERKIT_MPI_WRAP(Init_thread, (int* argc, char*** argv, int required, int* provided),
               (argc, argv, required, provided), log_world_rank())
ERKIT_MPI_WRAP(Finalize, (), (), other(c, 0))
