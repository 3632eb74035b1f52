// The off-CPU states of threads chosen with er_kernel -T, from the scheduler's tracepoints:
// a thread switched out while runnable (preempted) is <STALLED> until it runs again; one that
// switched out asleep (S, D, ...) is <SLEEPING> until woken, then <STALLED> until it runs.
// Time on the CPU is not counted here: the thread's own clock samples cover it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>

namespace erkit::kernel {

enum class OffCpu : uint8_t { Sleeping, Stalled };

class SchedStates {
 public:
  // One finished interval of a thread: [start, end) in state s.
  using Sink = std::function<void(uint32_t tid, OffCpu s, uint64_t start, uint64_t end)>;
  explicit SchedStates(Sink sink) : sink_(std::move(sink)) {}

  // The thread's state when recording began (from /proc: 'R' running, else asleep).
  void begin(uint32_t tid, bool running, uint64_t t);
  // sched_switch: prev switched out in prev_state (0 = runnable), next switched in.
  void on_switch(uint64_t t, uint32_t prev, int64_t prev_state, uint32_t next);
  // sched_wakeup of tid.
  void on_wakeup(uint64_t t, uint32_t tid);
  // Ends every open interval at t (a thread that exited ends at its last switch).
  void end(uint64_t t);

 private:
  enum class St : uint8_t { Running, Sleeping, Stalled, Dead };
  struct Thread {
    St st = St::Running;
    uint64_t since = 0;
  };
  void close(uint32_t tid, Thread& th, uint64_t t);
  Sink sink_;
  std::map<uint32_t, Thread> threads_;
};

}  // namespace erkit::kernel
