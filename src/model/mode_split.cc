#include "model/mode_split.h"

#include "format/experiment_format.h"

namespace erkit::model {

void ModeSplitter::split(uint32_t tid, uint64_t tstamp_ns, uint64_t stack_id, bool in_syscall,
                         uint64_t* ns, std::vector<Share>* out) {
  Thread& t = threads_[tid];
  Mode& here = in_syscall ? t.syscall : t.user;    // the mode the sample was taken in
  Mode& other = in_syscall ? t.user : t.syscall;  // the other mode's time goes to its own stack
  const uint32_t other_state = in_syscall ? format::kMsUser : format::kMsSystem;
  if (here.last_stack == 0) {
    for (Share s : here.waiting) {
      s.stack_id = stack_id;
      s.tstamp_ns = tstamp_ns;
      out->push_back(s);
    }
    here.waiting.clear();
  }
  here.last_stack = stack_id;
  const uint64_t moved = ns[other_state];
  if (moved == 0) return;
  if (other.last_stack == stack_id) return;
  ns[other_state] = 0;
  if (other.last_stack != 0) {
    out->push_back(Share{other.last_stack, other_state, moved, tid, tstamp_ns});
    return;
  }
  for (Share& s : other.waiting)
    if (s.stack_id == stack_id) {
      s.ns += moved;
      return;
    }
  other.waiting.push_back(Share{stack_id, other_state, moved, tid, tstamp_ns});
}

void ModeSplitter::finish(std::vector<Share>* out) {
  for (auto& [tid, t] : threads_)
    for (Mode* m : {&t.user, &t.syscall}) {
      out->insert(out->end(), m->waiting.begin(), m->waiting.end());
      m->waiting.clear();
    }
}

}  // namespace erkit::model
