#include "kernel/perf_ring.h"

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "common/perf_ring.h"

namespace erkit::kernel {

PerfEvent::PerfEvent(perf_event_attr attr, int pid, int cpu, int pages_log2) : attr_(attr) {
  attr_.size = sizeof attr_;
  fd_ = int(syscall(SYS_perf_event_open, &attr_, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC));
  if (fd_ < 0) {
    errno_ = errno;
    error_ = std::strerror(errno_);
    return;
  }
  size_t page = size_t(sysconf(_SC_PAGESIZE));
  data_bytes_ = page << pages_log2;
  ring_bytes_ = data_bytes_ + page;
  void* m = mmap(nullptr, ring_bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (m == MAP_FAILED) {
    errno_ = errno;
    error_ = std::string("mmap of the ring buffer: ") + std::strerror(errno_);
    close(fd_);
    fd_ = -1;
    return;
  }
  ring_ = m;
}

PerfEvent::~PerfEvent() {
  if (ring_) munmap(ring_, ring_bytes_);
  if (fd_ >= 0) close(fd_);
}

bool PerfEvent::enable() { return fd_ >= 0 && ioctl(fd_, PERF_EVENT_IOC_ENABLE, 0) == 0; }
void PerfEvent::disable() {
  if (fd_ >= 0) ioctl(fd_, PERF_EVENT_IOC_DISABLE, 0);
}
bool PerfEvent::set_filter(const std::string& filter) {
  return fd_ >= 0 && ioctl(fd_, PERF_EVENT_IOC_SET_FILTER, filter.c_str()) == 0;
}

bool parse_sample(const uint8_t* p, size_t n, uint64_t st, PerfSample* out) {
  size_t at = 0;
  auto u64 = [&](uint64_t* v) {
    if (at + 8 > n) return false;
    std::memcpy(v, p + at, 8);
    at += 8;
    return true;
  };
  auto u32pair = [&](uint32_t* a, uint32_t* b) {
    if (at + 8 > n) return false;
    std::memcpy(a, p + at, 4);
    std::memcpy(b, p + at + 4, 4);
    at += 8;
    return true;
  };
  uint64_t skip = 0;
  uint32_t res = 0;
  if ((st & PERF_SAMPLE_IDENTIFIER) && !u64(&skip)) return false;
  if ((st & PERF_SAMPLE_IP) && !u64(&out->ip)) return false;
  if ((st & PERF_SAMPLE_TID) && !u32pair(&out->pid, &out->tid)) return false;
  if ((st & PERF_SAMPLE_TIME) && !u64(&out->time)) return false;
  if ((st & PERF_SAMPLE_ADDR) && !u64(&skip)) return false;
  if ((st & PERF_SAMPLE_ID) && !u64(&skip)) return false;
  if ((st & PERF_SAMPLE_STREAM_ID) && !u64(&skip)) return false;
  if ((st & PERF_SAMPLE_CPU) && !u32pair(&out->cpu, &res)) return false;
  if ((st & PERF_SAMPLE_PERIOD) && !u64(&out->period)) return false;
  if (st & PERF_SAMPLE_READ) return false;  // not used by er_kernel
  out->callchain.clear();
  out->user_chain.clear();
  if (st & PERF_SAMPLE_CALLCHAIN) {
    uint64_t nr = 0;
    if (!u64(&nr) || nr > (n - at) / 8) return false;
    bool user = false;
    for (uint64_t i = 0; i < nr; ++i) {
      uint64_t pc = 0;
      u64(&pc);
      if (pc >= uint64_t(PERF_CONTEXT_MAX)) {
        user = pc == uint64_t(PERF_CONTEXT_USER);
        continue;
      }
      (user ? out->user_chain : out->callchain).push_back(pc);
    }
  }
  out->raw.clear();
  if (st & PERF_SAMPLE_RAW) {
    if (at + 4 > n) return false;
    uint32_t size;
    std::memcpy(&size, p + at, 4);
    at += 4;
    if (size > n - at) return false;
    out->raw.assign(p + at, p + at + size);
  }
  return true;
}

uint64_t PerfEvent::drain(const std::function<void(const PerfSample&)>& fn) {
  if (!ring_) return 0;
  PerfSample s;
  auto on_sample = [&](uint16_t misc, const uint8_t* payload, size_t n) {
    s.misc = misc;
    if (parse_sample(payload, n, attr_.sample_type, &s)) fn(s);
  };
  return common::drain_perf_ring(ring_, ring_bytes_, data_bytes_, rec_, on_sample);
}

}  // namespace erkit::kernel
