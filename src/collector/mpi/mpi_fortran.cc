// Fortran bindings (mpif.h and `use mpi`, gfortran's trailing underscore): Open MPI's Fortran
// layer calls PMPI_ functions directly, so the C wrappers never see Fortran calls; these wrap
// the common ones and call the MPI library's own pmpi_x_. Handles are Fortran integers; sizes
// come from the library's Fortran pmpi_type_size_ / pmpi_comm_size_ / pmpi_comm_rank_.
#include "collector/mpi/mpi_support.h"

using namespace erkit::mpi;
namespace fmt_ = erkit::format;
using F = int;  // MPI_Fint

namespace {

using FSizeFn = void(F*, F*, F*);
FSizeFn* g_ftype_size;
FSizeFn* g_fcomm_size;
FSizeFn* g_fcomm_rank;

F fcall(FSizeFn** slot, const char* name, F* handle) {
  F v = 0, err = 0;
  auto* f = real(slot, name);
  if (!f) return 0;
  f(handle, &v, &err);
  return err == 0 ? v : 0;
}
int64_t fbytes(F* count, F* type) {
  return *count > 0 ? int64_t(*count) * fcall(&g_ftype_size, "pmpi_type_size_", type) : 0;
}
F fsize(F* comm) { return fcall(&g_fcomm_size, "pmpi_comm_size_", comm); }
F frank(F* comm) {
  F r = -1, err = 0;
  auto* f = real(&g_fcomm_rank, "pmpi_comm_rank_");
  if (!f) return -1;
  f(comm, &r, &err);
  return err == 0 ? r : -1;
}

void fsend(ErkitMpiCall* c, F* comm, F peer, F tag, int64_t bytes) {
  c->comm_size = fsize(comm);
  c->peer = peer;
  c->tag = tag;
  c->sends = 1;
  c->bytes_sent = uint64_t(bytes);
}
void freceive(ErkitMpiCall* c, F* comm, F peer, F tag, int64_t bytes) {
  c->comm_size = fsize(comm);
  c->peer = peer;
  c->tag = tag;
  c->receives = 1;
  c->bytes_received = uint64_t(bytes);
}

}  // namespace

// A Fortran subroutine: the error code goes to *ierr; the wrapper's own result is unused.
#define ERKIT_MPI_FWRAP(lname, id, params, args, account)                                     \
  namespace {                                                                                 \
  using f_##lname##_type = void params;                                                       \
  f_##lname##_type* real_f_##lname;                                                           \
  }                                                                                           \
  ERKIT_MPI_EXPORT void lname##_ params;                                                      \
  ERKIT_MPI_EXPORT void lname##_ params {                                                     \
    auto* f = real(&real_f_##lname, "p" #lname "_");                                          \
    if (!f) {                                                                                 \
      *ierr = kErrNoMpi;                                                                      \
      return;                                                                                 \
    }                                                                                         \
    ERKIT_MPI_BRACKET(fmt_::id, lname##_, f args, account);                                   \
  }

ERKIT_MPI_FWRAP(mpi_send, kMpi_Send, (void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* ierr),
                (buf, count, type, dest, tag, comm, ierr), fsend(c, comm, *dest, *tag, fbytes(count, type)))
ERKIT_MPI_FWRAP(mpi_isend, kMpi_Isend,
                (void* buf, F* count, F* type, F* dest, F* tag, F* comm, F* req, F* ierr),
                (buf, count, type, dest, tag, comm, req, ierr), fsend(c, comm, *dest, *tag, fbytes(count, type)))
ERKIT_MPI_FWRAP(mpi_recv, kMpi_Recv, (void* buf, F* count, F* type, F* src, F* tag, F* comm, F* status, F* ierr),
                (buf, count, type, src, tag, comm, status, ierr),
                freceive(c, comm, *src, *tag, fbytes(count, type)))
ERKIT_MPI_FWRAP(mpi_irecv, kMpi_Irecv, (void* buf, F* count, F* type, F* src, F* tag, F* comm, F* req, F* ierr),
                (buf, count, type, src, tag, comm, req, ierr), freceive(c, comm, *src, *tag, fbytes(count, type)))
ERKIT_MPI_FWRAP(mpi_sendrecv, kMpi_Sendrecv,
                (void* sbuf, F* scount, F* stype, F* dest, F* stag, void* rbuf, F* rcount, F* rtype, F* src,
                 F* rtag, F* comm, F* status, F* ierr),
                (sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, status, ierr), {
                  fsend(c, comm, *dest, *stag, fbytes(scount, stype));
                  c->receives = 1;
                  c->bytes_received = uint64_t(fbytes(rcount, rtype));
                })
ERKIT_MPI_FWRAP(mpi_wait, kMpi_Wait, (F* req, F* status, F* ierr), (req, status, ierr), (void)c)
ERKIT_MPI_FWRAP(mpi_waitall, kMpi_Waitall, (F* n, F* reqs, F* statuses, F* ierr), (n, reqs, statuses, ierr),
                (void)c)
ERKIT_MPI_FWRAP(mpi_barrier, kMpi_Barrier, (F* comm, F* ierr), (comm, ierr), c->comm_size = fsize(comm))
ERKIT_MPI_FWRAP(mpi_bcast, kMpi_Bcast, (void* buf, F* count, F* type, F* root, F* comm, F* ierr),
                (buf, count, type, root, comm, ierr), {
                  F g = fsize(comm);
                  int64_t n = fbytes(count, type);
                  c->comm_size = g;
                  c->peer = *root;
                  if (frank(comm) == *root) {
                    c->sends = uint32_t(g);
                    c->bytes_sent = uint64_t(n * g);
                  }
                  c->receives = 1;
                  c->bytes_received = uint64_t(n);
                })
ERKIT_MPI_FWRAP(mpi_reduce, kMpi_Reduce, (void* s, void* r, F* count, F* type, F* op, F* root, F* comm, F* ierr),
                (s, r, count, type, op, root, comm, ierr), {
                  F g = fsize(comm);
                  int64_t n = fbytes(count, type);
                  c->comm_size = g;
                  c->peer = *root;
                  c->sends = 1;
                  c->bytes_sent = uint64_t(n);
                  if (frank(comm) == *root) {
                    c->receives = uint32_t(g);
                    c->bytes_received = uint64_t(n * g);
                  }
                })
ERKIT_MPI_FWRAP(mpi_allreduce, kMpi_Allreduce, (void* s, void* r, F* count, F* type, F* op, F* comm, F* ierr),
                (s, r, count, type, op, comm, ierr), {
                  F g = fsize(comm);
                  uint64_t n = uint64_t(fbytes(count, type)) * uint64_t(g);
                  c->comm_size = g;
                  c->sends = c->receives = uint32_t(g);
                  c->bytes_sent = c->bytes_received = n;
                })
ERKIT_MPI_FWRAP(mpi_init, kMpi_Init, (F* ierr), (ierr), log_world_rank())
ERKIT_MPI_FWRAP(mpi_finalize, kMpi_Finalize, (F* ierr), (ierr), (void)c)
