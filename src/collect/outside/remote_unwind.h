// Issue 16: the call stack of a sleeping thread of another process, unwound from outside with
// libdw's CFI unwinder (.eh_frame / .debug_frame of the objects in /proc/<pid>/maps), the
// thread's stack read with process_vm_readv. Starts from the user stack and instruction
// pointers /proc/<pid>/task/<tid>/syscall gives (where the thread entered the kernel), as the
// collector's in-process sampler does with its own unwinder. Never stops or signals the thread.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <vector>

struct Dwfl;

namespace erkit::collect::outside {

class RemoteUnwinder {
 public:
  explicit RemoteUnwinder(pid_t pid);
  ~RemoteUnwinder();
  RemoteUnwinder(const RemoteUnwinder&) = delete;
  RemoteUnwinder& operator=(const RemoteUnwinder&) = delete;

  // The pcs, leaf first (the interrupted pc, then raw return addresses, as the collector
  // records them), at most max_frames. Empty when nothing could be unwound. `failed` is set
  // when the walk stopped on an error before the outermost frame.
  std::vector<uint64_t> unwind(uint32_t tid, uint64_t sp, uint64_t pc, size_t max_frames, bool* failed);

  // collect -P: a thread interrupted on the CPU (a perf sample): its registers (DWARF numbers,
  // bit i of valid set for regs[i]; regs[16] the pc) and a copy of its stack from regs[7]
  // upward, read instead of the live stack where it covers the address.
  struct Snapshot {
    const uint64_t* regs = nullptr;
    uint32_t valid = 0;
    const uint8_t* stack = nullptr;
    uint64_t stack_size = 0;
  };
  std::vector<uint64_t> unwind_snapshot(uint32_t tid, const Snapshot& s, size_t max_frames, bool* failed);

 private:
  bool attach();
  void detach();
  pid_t pid_;
  Dwfl* dwfl_ = nullptr;
  int reports_ = 0;  // times the process's objects were (re)reported
  // The thread being unwound (set_initial_registers reads it).
  struct Current {
    uint32_t tid;
    uint64_t sp, pc;
    const Snapshot* snap;
  } current_{};
  const Snapshot* snap_ = nullptr;  // during unwind_snapshot
  friend struct Callbacks;
};

}  // namespace erkit::collect::outside
