// Charges a clock sample's User and System time to the code that ran in each mode (issue 15).
//
// A clock sample carries the user and system time its thread used since its previous sample,
// but its stack is only where the thread was when the timer fired. The collector flags samples
// taken during a system call (format::kClockFlagInSyscall). Per thread, the System time of a
// sample taken in user code goes to the thread's latest system-call stack, and the User time of
// a sample taken in a system call to the thread's latest user-code stack. Until a thread has
// such a stack the time waits and goes to its first one; time still waiting when the thread's
// samples end stays where it was sampled. Totals are unchanged.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace erkit::model {

class ModeSplitter {
 public:
  struct Share {
    uint64_t stack_id;  // where the time goes
    uint32_t state;     // format::kMsUser or format::kMsSystem
    uint64_t ns;
    uint32_t tid;
    uint64_t tstamp_ns;
  };
  // One CPU-timer sample of thread `tid`, in time order. Reduces ns[] by the time that belongs
  // elsewhere and appends to *out every share to charge to another stack now.
  void split(uint32_t tid, uint64_t tstamp_ns, uint64_t stack_id, bool in_syscall, uint64_t* ns,
             std::vector<Share>* out);
  // Time still waiting for a stack of its mode: back to where it was sampled.
  void finish(std::vector<Share>* out);

 private:
  struct Mode {
    uint64_t last_stack = 0;     // latest stack sampled in this mode (0: none yet)
    std::vector<Share> waiting;  // this mode's time sampled elsewhere before that
  };
  struct Thread {
    Mode user, syscall;
  };
  std::unordered_map<uint32_t, Thread> threads_;
};

}  // namespace erkit::model
