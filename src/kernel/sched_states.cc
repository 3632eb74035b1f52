#include "kernel/sched_states.h"

namespace erkit::kernel {

namespace {
// prev_state as the tracepoint reports it (TASK_REPORT bits; 0x100 marks a preemption).
constexpr int64_t kDeadBits = 0x10 | 0x20;  // X (EXIT_DEAD), Z (EXIT_ZOMBIE)
}

void SchedStates::begin(uint32_t tid, bool running, uint64_t t) {
  threads_[tid] = Thread{running ? St::Running : St::Sleeping, t};
}

void SchedStates::close(uint32_t tid, Thread& th, uint64_t t) {
  if (t <= th.since) return;
  if (th.st == St::Sleeping) sink_(tid, OffCpu::Sleeping, th.since, t);
  if (th.st == St::Stalled) sink_(tid, OffCpu::Stalled, th.since, t);
}

void SchedStates::on_switch(uint64_t t, uint32_t prev, int64_t prev_state, uint32_t next) {
  if (auto it = threads_.find(prev); it != threads_.end() && it->second.st != St::Dead) {
    Thread& th = it->second;
    close(prev, th, t);
    int64_t s = prev_state & 0xff;
    th.st = s == 0 ? St::Stalled : (s & kDeadBits) ? St::Dead : St::Sleeping;
    th.since = t;
  }
  if (auto it = threads_.find(next); it != threads_.end() && it->second.st != St::Dead) {
    close(next, it->second, t);
    it->second.st = St::Running;
    it->second.since = t;
  }
}

void SchedStates::on_wakeup(uint64_t t, uint32_t tid) {
  auto it = threads_.find(tid);
  if (it == threads_.end() || it->second.st != St::Sleeping) return;
  close(tid, it->second, t);
  it->second.st = St::Stalled;
  it->second.since = t;
}

void SchedStates::end(uint64_t t) {
  for (auto& [tid, th] : threads_) {
    close(tid, th, t);
    th.since = t;
  }
}

}  // namespace erkit::kernel
