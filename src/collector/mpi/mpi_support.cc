#include "collector/mpi/mpi_support.h"

#include <dlfcn.h>

namespace erkit::mpi {
namespace {

// The collector's entry points; null until found (or when libcollector.so is absent or of
// another interface version: the wrappers then only pass calls through).
struct Hooks {
  ErkitMpiNowFn now;
  ErkitMpiRecordFn record;
  ErkitMpiRankFn rank;
};
Hooks g_hooks;
int g_hooks_state = 0;  // atomic: 0 not looked up, 1 usable, 2 absent

// Nesting depth of MPI wrappers on this thread: only the outermost call is recorded (an MPI
// implementation may call its own MPI_ functions).
__thread int t_depth = 0;

bool hooks_ready() {
  int st = __atomic_load_n(&g_hooks_state, __ATOMIC_ACQUIRE);
  if (__builtin_expect(st != 0, 1)) return st == 1;
  // First MPI call of the process (normal context). Concurrent first calls store equal values.
  auto version = reinterpret_cast<ErkitMpiAbiVersionFn>(dlsym(RTLD_DEFAULT, "erkit_mpi_abi_version"));
  Hooks h{};
  h.now = reinterpret_cast<ErkitMpiNowFn>(dlsym(RTLD_DEFAULT, "erkit_mpi_now"));
  h.record = reinterpret_cast<ErkitMpiRecordFn>(dlsym(RTLD_DEFAULT, "erkit_mpi_record"));
  h.rank = reinterpret_cast<ErkitMpiRankFn>(dlsym(RTLD_DEFAULT, "erkit_mpi_rank"));
  bool ok = version && version() == ERKIT_MPI_ABI_VERSION && h.now && h.record && h.rank;
  if (ok) g_hooks = h;
  __atomic_store_n(&g_hooks_state, ok ? 1 : 2, __ATOMIC_RELEASE);
  return ok;
}

using SizeFn = int(H, int*);
SizeFn* g_type_size;
SizeFn* g_comm_size;
SizeFn* g_comm_rank;

}  // namespace

void* real_function(void** slot, const char* name) {
  void* f = __atomic_load_n(slot, __ATOMIC_RELAXED);
  if (__builtin_expect(f != nullptr, 1)) return f;
  f = dlsym(RTLD_NEXT, name);
  if (!f) f = dlsym(RTLD_DEFAULT, name);
  __atomic_store_n(slot, f, __ATOMIC_RELAXED);
  return f;
}

bool enter(ErkitMpiCall* c, uint32_t fn, const void* frame, const void* function, const void* caller) {
  if (t_depth++ != 0 || !hooks_ready()) return false;
  c->fn = fn;
  c->frame = frame;
  c->function = function;
  c->caller = caller;
  c->comm_size = 0;
  c->peer = -1;
  c->tag = -1;
  c->sends = c->receives = 0;
  c->bytes_sent = c->bytes_received = 0;
  c->end_ns = 0;
  c->start_ns = g_hooks.now();
  return true;
}

void stamp_end(ErkitMpiCall* c) { c->end_ns = g_hooks.now(); }

void finish(const ErkitMpiCall* c) { g_hooks.record(c); }

void leave() { --t_depth; }

int64_t type_bytes(int64_t count, H type) {
  int size = 0;
  if (count <= 0 || !real(&g_type_size, "PMPI_Type_size") || g_type_size(type, &size) != 0 || size < 0)
    return 0;
  return count * size;
}

int comm_size(H comm) {
  int n = 0;
  if (!real(&g_comm_size, "PMPI_Comm_size") || g_comm_size(comm, &n) != 0) return 0;
  return n;
}

int comm_rank(H comm) {
  int r = -1;
  if (!real(&g_comm_rank, "PMPI_Comm_rank") || g_comm_rank(comm, &r) != 0) return -1;
  return r;
}

int64_t sum_counts(const int* counts, int n) {
  int64_t s = 0;
  for (int i = 0; counts && i < n; ++i) s += counts[i] > 0 ? counts[i] : 0;
  return s;
}

void log_world_rank() {
  if (!hooks_ready()) return;
  // MPI_COMM_WORLD: Open MPI's is the address of ompi_mpi_comm_world, MPICH's (and its
  // derivatives') the constant 0x44000000.
  void* ompi_world = dlsym(RTLD_DEFAULT, "ompi_mpi_comm_world");
  H world = ompi_world ? reinterpret_cast<H>(ompi_world) : H(0x44000000);
  int rank = comm_rank(world), size = comm_size(world);
  if (rank >= 0) g_hooks.rank(rank, size);
}

void point_send(ErkitMpiCall* c, H comm, int peer, int tag, int64_t bytes) {
  c->comm_size = comm_size(comm);
  c->peer = peer;
  c->tag = tag;
  c->sends = 1;
  c->bytes_sent = uint64_t(bytes);
}

void point_receive(ErkitMpiCall* c, H comm, int peer, int tag, int64_t bytes) {
  c->comm_size = comm_size(comm);
  c->peer = peer;
  c->tag = tag;
  c->receives = 1;
  c->bytes_received = uint64_t(bytes);
}

void other(ErkitMpiCall* c, H comm, int peer, int tag) {
  c->comm_size = comm ? comm_size(comm) : 0;
  c->peer = peer;
  c->tag = tag;
}

void all_to_all(ErkitMpiCall* c, H comm, int64_t sent, int64_t received) {
  int g = comm_size(comm);
  c->comm_size = g;
  c->sends = c->receives = uint32_t(g);
  c->bytes_sent = uint64_t(sent);
  c->bytes_received = uint64_t(received);
}

void one_to_all(ErkitMpiCall* c, H comm, int root, int64_t root_sent, int64_t each_received) {
  int g = comm_size(comm);
  c->comm_size = g;
  c->peer = root;
  if (comm_rank(comm) == root) {
    c->sends = uint32_t(g);
    c->bytes_sent = uint64_t(root_sent);
  }
  c->receives = 1;
  c->bytes_received = uint64_t(each_received);
}

void all_to_one(ErkitMpiCall* c, H comm, int root, int64_t each_sent, int64_t root_received) {
  int g = comm_size(comm);
  c->comm_size = g;
  c->peer = root;
  c->sends = 1;
  c->bytes_sent = uint64_t(each_sent);
  if (comm_rank(comm) == root) {
    c->receives = uint32_t(g);
    c->bytes_received = uint64_t(root_received);
  }
}

void prefix(ErkitMpiCall* c, H comm, int64_t bytes, bool exclusive) {
  int g = comm_size(comm), r = comm_rank(comm);
  c->comm_size = g;
  if (r < 0) return;
  int to = g - r - (exclusive ? 1 : 0), from = r + (exclusive ? 0 : 1);
  c->sends = uint32_t(to > 0 ? to : 0);
  c->receives = uint32_t(from > 0 ? from : 0);
  c->bytes_sent = uint64_t(bytes) * c->sends;
  c->bytes_received = uint64_t(bytes) * c->receives;
}

}  // namespace erkit::mpi
