#include "collect/outside/remote_unwind.h"

#include <elfutils/libdwfl.h>
#include <sys/uio.h>

#include <cstring>

namespace erkit::collect::outside {

struct Callbacks {
  static pid_t next_thread(Dwfl*, void*, void**) { return 0; }  // one thread at a time (getthread)
  static bool get_thread(Dwfl*, pid_t tid, void* dwfl_arg, void** thread_arg) {
    auto* self = static_cast<RemoteUnwinder*>(dwfl_arg);
    if (uint32_t(tid) != self->current_.tid) return false;
    *thread_arg = self;
    return true;
  }
  static bool memory_read(Dwfl*, Dwarf_Addr addr, Dwarf_Word* result, void* dwfl_arg) {
    auto* self = static_cast<RemoteUnwinder*>(dwfl_arg);
    uint64_t v = 0;
    if (const auto* snap = self->current_.snap;
        snap && snap->stack && addr >= self->current_.sp && addr - self->current_.sp + sizeof v <= snap->stack_size) {
      std::memcpy(&v, snap->stack + (addr - self->current_.sp), sizeof v);
      *result = v;
      return true;
    }
    iovec local{&v, sizeof v};
    iovec remote{reinterpret_cast<void*>(addr), sizeof v};
    if (process_vm_readv(self->pid_, &local, 1, &remote, 1, 0) != ssize_t(sizeof v)) return false;
    *result = v;
    return true;
  }
  static bool set_initial_registers(Dwfl_Thread* thread, void* thread_arg) {
    auto* self = static_cast<RemoteUnwinder*>(thread_arg);
    if (const auto* snap = self->current_.snap) {
      for (unsigned r = 0; r < 16; ++r) {
        Dwarf_Word v = snap->regs[r];
        if ((snap->valid & (1u << r)) && !dwfl_thread_state_registers(thread, int(r), 1, &v)) return false;
      }
      dwfl_thread_state_register_pc(thread, self->current_.pc);
      return true;
    }
#if defined(__x86_64__)
    Dwarf_Word sp = self->current_.sp;
    if (!dwfl_thread_state_registers(thread, 7, 1, &sp)) return false;  // DWARF 7: rsp
#elif defined(__aarch64__)
    Dwarf_Word sp = self->current_.sp;
    if (!dwfl_thread_state_registers(thread, 31, 1, &sp)) return false;  // DWARF 31: sp
#endif
    dwfl_thread_state_register_pc(thread, self->current_.pc);
    return true;
  }
};

namespace {
const Dwfl_Callbacks kProcCallbacks = {dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr, nullptr};
const Dwfl_Thread_Callbacks kThreadCallbacks = {Callbacks::next_thread, Callbacks::get_thread,
                                                Callbacks::memory_read, Callbacks::set_initial_registers,
                                                nullptr, nullptr};

struct Walk {
  std::vector<uint64_t>* pcs;
  size_t max;
};

int on_frame(Dwfl_Frame* frame, void* arg) {
  auto* w = static_cast<Walk*>(arg);
  Dwarf_Addr pc = 0;
  bool activation = false;
  if (!dwfl_frame_pc(frame, &pc, &activation)) return DWARF_CB_ABORT;
  w->pcs->push_back(pc);
  return w->pcs->size() >= w->max ? DWARF_CB_ABORT : DWARF_CB_OK;
}
}  // namespace

RemoteUnwinder::RemoteUnwinder(pid_t pid) : pid_(pid) {}
RemoteUnwinder::~RemoteUnwinder() { detach(); }

void RemoteUnwinder::detach() {
  if (dwfl_) dwfl_end(dwfl_);
  dwfl_ = nullptr;
}

bool RemoteUnwinder::attach() {
  detach();
  dwfl_ = dwfl_begin(&kProcCallbacks);
  if (!dwfl_) return false;
  ++reports_;
  if (dwfl_linux_proc_report(dwfl_, pid_) != 0 || dwfl_report_end(dwfl_, nullptr, nullptr) != 0 ||
      !dwfl_attach_state(dwfl_, nullptr, pid_, &kThreadCallbacks, this)) {
    detach();
    return false;
  }
  return true;
}

std::vector<uint64_t> RemoteUnwinder::unwind_snapshot(uint32_t tid, const Snapshot& s, size_t max_frames,
                                                      bool* failed) {
  snap_ = &s;
  auto pcs = unwind(tid, s.regs[7], s.regs[16], max_frames, failed);
  snap_ = nullptr;
  return pcs;
}

std::vector<uint64_t> RemoteUnwinder::unwind(uint32_t tid, uint64_t sp, uint64_t pc, size_t max_frames,
                                             bool* failed) {
  std::vector<uint64_t> pcs;
  *failed = false;
  // Objects loaded since the last report (dlopen): the process is reported again once.
  for (int attempt = 0; attempt < 2; ++attempt) {
    if ((!dwfl_ || attempt == 1) && !attach()) return pcs;
    if (!dwfl_addrmodule(dwfl_, pc)) continue;
    pcs.clear();
    current_ = {tid, sp, pc, snap_};
    Walk w{&pcs, max_frames};
    int rc = dwfl_getthread_frames(dwfl_, pid_t(tid), on_frame, &w);
    // rc -1 with an error: the walk stopped before the outermost frame (0 or no error: clean end).
    if (rc == -1 && dwfl_errno() != 0 && pcs.size() < max_frames) *failed = true;
    return pcs;
  }
  if (pc) pcs.push_back(pc);  // in no known object (JIT code, a stale map): the pc alone
  *failed = true;
  return pcs;
}

}  // namespace erkit::collect::outside
