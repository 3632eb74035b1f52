#include "collect/outside/thread_clock.h"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/perf_ring.h"

namespace erkit::collect::outside {
namespace {

// perf's x86 user registers (asm/perf_regs.h) that CFI unwinding needs, and their DWARF numbers.
struct Reg {
  int perf, dwarf;
};
constexpr Reg kRegs[] = {{1, 3} /*bx*/,   {6, 6} /*bp*/,   {7, 7} /*sp*/,   {8, 16} /*ip*/,
                         {20, 12} /*r12*/, {21, 13} /*r13*/, {22, 14} /*r14*/, {23, 15} /*r15*/};
constexpr uint64_t kStackBytes = 8192;  // the top of the stack copied per sample; deeper frames are read live
constexpr int kPagesLog2 = 6;           // 256 KiB ring a thread: ~30 samples, drained every 10 ms

uint64_t reg_mask() {
  uint64_t m = 0;
  for (const Reg& r : kRegs) m |= 1ull << r.perf;
  return m;
}

}  // namespace

bool thread_clock_supported() {
#if defined(__x86_64__)
  return true;
#else
  return false;
#endif
}

bool parse_cpu_sample(const uint8_t* p, size_t n, CpuSample* out) {
  size_t at = 0;
  auto u64 = [&](uint64_t* v) {
    if (at + 8 > n) return false;
    std::memcpy(v, p + at, 8);
    at += 8;
    return true;
  };
  uint64_t ip = 0, pidtid = 0, abi = 0, size = 0;
  if (!u64(&ip) || !u64(&pidtid) || !u64(&out->time_ns) || !u64(&out->period_ns) || !u64(&abi)) return false;
  out->tid = uint32_t(pidtid >> 32);
  out->valid_regs = 0;
  out->has_regs = abi != PERF_SAMPLE_REGS_ABI_NONE;
  if (out->has_regs) {
    // Registers come in the order of their bits in the mask (kRegs is sorted by perf number).
    for (const Reg& r : kRegs) {
      if (!u64(&out->dwarf_regs[r.dwarf])) return false;
      out->valid_regs |= 1u << r.dwarf;
    }
  }
  out->stack = nullptr;
  out->stack_size = 0;
  if (!u64(&size)) return false;
  if (size) {
    if (size > n - at) return false;
    const uint8_t* data = p + at;
    at += size;
    uint64_t dyn = 0;
    if (!u64(&dyn)) return false;
    out->stack = data;
    out->stack_size = dyn < size ? dyn : size;
  }
  if (!out->has_regs) {  // a kernel thread's sample, or no user context: the ip alone
    out->dwarf_regs[16] = ip;
    out->valid_regs = 1u << 16;
  }
  return true;
}

ThreadClock::ThreadClock(uint32_t tid, uint64_t period_ns, bool exclude_kernel) {
  perf_event_attr a{};
  a.size = sizeof a;
  a.type = PERF_TYPE_SOFTWARE;
  a.config = PERF_COUNT_SW_TASK_CLOCK;
  a.sample_period = period_ns;
  a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
                  PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
  a.sample_regs_user = reg_mask();
  a.sample_stack_user = uint32_t(kStackBytes);
  a.exclude_kernel = exclude_kernel ? 1 : 0;
  a.exclude_hv = 1;
  a.use_clockid = 1;
  a.clockid = CLOCK_MONOTONIC;
  fd_ = int(syscall(SYS_perf_event_open, &a, int(tid), -1, -1, PERF_FLAG_FD_CLOEXEC));
  if (fd_ < 0) {
    errno_ = errno;
    error_ = std::strerror(errno_);
    return;
  }
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  // A smaller ring where the locked-memory allowance (perf_event_mlock_kb) is short.
  for (int log2 = kPagesLog2; log2 >= 3 && !ring_; log2 -= 3) {
    data_bytes_ = page << log2;
    ring_bytes_ = data_bytes_ + page;
    void* m = mmap(nullptr, ring_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (m != MAP_FAILED) ring_ = m;
    else errno_ = errno;
  }
  if (!ring_) {
    error_ = std::string("mmap of the ring buffer: ") + std::strerror(errno_);
    close(fd_);
    fd_ = -1;
  }
}

ThreadClock::~ThreadClock() {
  if (ring_) munmap(ring_, ring_bytes_);
  if (fd_ >= 0) close(fd_);
}

void ThreadClock::disable() {
  if (fd_ >= 0) ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
}

uint64_t ThreadClock::drain(const std::function<void(const CpuSample&)>& fn) {
  if (!ring_) return 0;
  CpuSample s;
  auto on_sample = [&](uint16_t misc, const uint8_t* payload, size_t n) {
    s.kernel = (misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
    if (parse_cpu_sample(payload, n, &s)) fn(s);
  };
  return common::drain_perf_ring(ring_, ring_bytes_, data_bytes_, rec_, on_sample);
}

}  // namespace erkit::collect::outside
