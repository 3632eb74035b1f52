#include "collect/outside/outside_cpu.h"

#include <cerrno>

#include "collect/outside/outside_files.h"
#include "collect/outside/remote_unwind.h"
#include "collect/outside/thread_clock.h"
#include "format/experiment_format.h"

namespace erkit::collect::outside {

OutsideCpu::OutsideCpu(pid_t pid, uint64_t interval_ns, uint64_t start_mono_ns, OutsideFiles& files,
                       RemoteUnwinder& unwinder)
    : pid_(pid), interval_ns_(interval_ns), start_ns_(start_mono_ns), files_(files), unwinder_(unwinder) {}

OutsideCpu::~OutsideCpu() { stop(); }

bool OutsideCpu::add(uint32_t tid, std::string* why, int* err, uint64_t credit_ns) {
  auto c = std::make_unique<ThreadClock>(tid, interval_ns_, exclude_kernel_);
  if (!c->ok() && !exclude_kernel_ && (c->errno_value() == EACCES || c->errno_value() == EPERM)) {
    exclude_kernel_ = true;  // a user-mode event only (perf_event_paranoid 2)
    c = std::make_unique<ThreadClock>(tid, interval_ns_, true);
  }
  if (!c->ok()) {
    if (why) *why = c->error();
    if (err) *err = c->errno_value();
    return false;
  }
  clocks_[tid] = std::move(c);
  if (credit_ns) credit_[tid] = credit_ns;
  return true;
}

std::vector<uint32_t> OutsideCpu::tids() const {
  std::vector<uint32_t> out;
  for (const auto& [tid, c] : clocks_) out.push_back(tid);
  return out;
}

void OutsideCpu::write(const CpuSample& s) {
  pcs_.clear();
  if (s.has_regs && (s.valid_regs & (1u << 7))) {
    bool failed = false;
    RemoteUnwinder::Snapshot snap{s.dwarf_regs, s.valid_regs, s.stack, s.stack_size};
    pcs_ = unwinder_.unwind_snapshot(s.tid, snap, format::kMaxStackFrames, &failed);
    if (failed && !pcs_.empty() && pcs_.size() < format::kMaxStackFrames) pcs_.push_back(format::kUnwindFailedPc);
  }
  if (pcs_.empty()) pcs_.push_back(s.dwarf_regs[16]);
  format::ClockSampleRecord r{};
  r.tid = s.tid;
  r.tstamp_ns = s.time_ns > start_ns_ ? s.time_ns - start_ns_ : 0;
  r.stack_id = files_.stack(pcs_, false);
  r.cpu = -1;
  r.flags = s.tid == uint32_t(pid_) ? format::kClockFlagMainThread : 0;
  r.ns[s.kernel ? format::kMsSystem : format::kMsUser] = s.period_ns;
  if (auto c = credit_.find(s.tid); c != credit_.end()) {
    r.ns[format::kMsUser] += c->second;
    credit_.erase(c);
  }
  files_.clock_sample(r);
  ++samples_;
}

void OutsideCpu::drain() {
  for (auto& [tid, c] : clocks_) lost_ += c->drain([this](const CpuSample& s) { write(s); });
}

void OutsideCpu::remove(uint32_t tid) {
  auto it = clocks_.find(tid);
  if (it == clocks_.end()) return;
  lost_ += it->second->drain([this](const CpuSample& s) { write(s); });
  clocks_.erase(it);
  credit_.erase(tid);
}

void OutsideCpu::stop() {
  for (auto& [tid, c] : clocks_) c->disable();
  drain();
  clocks_.clear();
}

}  // namespace erkit::collect::outside
