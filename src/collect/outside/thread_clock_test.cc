#include "collect/outside/thread_clock.h"

#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "collect/outside/remote_unwind.h"

namespace erkit::collect::outside {
namespace {

uint64_t thread_cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

__attribute__((noinline)) double burn_for_thread_clock(uint64_t ns) {
  double x = 1;
  uint64_t end = thread_cpu_ns() + ns;
  while (thread_cpu_ns() < end)
    for (int i = 0; i < 10000; ++i) x = x * 1.0000001 + 1e-9;
  return x;
}

TEST(ThreadClock, ParsesTheSampleLayoutItAsksFor) {
  // ip, pid/tid, time, period, abi, 8 registers (bx bp sp ip r12 r13 r14 r15), stack size,
  // 16 bytes of stack, dyn_size 8.
  std::vector<uint64_t> w = {0x401000, (uint64_t(77) << 32) | 66, 123456789, 10000000, PERF_SAMPLE_REGS_ABI_64,
                             1, 2, 0x7ffc0000, 0x401000, 12, 13, 14, 15, 16, 0xaaaa, 0xbbbb, 8};
  CpuSample s;
  ASSERT_TRUE(parse_cpu_sample(reinterpret_cast<const uint8_t*>(w.data()), w.size() * 8, &s));
  EXPECT_EQ(s.tid, 77u);
  EXPECT_EQ(s.time_ns, 123456789u);
  EXPECT_EQ(s.period_ns, 10000000u);
  EXPECT_EQ(s.dwarf_regs[7], 0x7ffc0000u);   // rsp
  EXPECT_EQ(s.dwarf_regs[16], 0x401000u);    // rip
  EXPECT_EQ(s.dwarf_regs[3], 1u);            // rbx
  EXPECT_EQ(s.dwarf_regs[6], 2u);            // rbp
  EXPECT_EQ(s.dwarf_regs[15], 15u);          // r15
  EXPECT_EQ(s.stack_size, 8u);               // dyn_size: what was really copied
  uint64_t first;
  std::memcpy(&first, s.stack, 8);
  EXPECT_EQ(first, 0xaaaau);
  // Cut short anywhere: refused, never read past the end.
  for (size_t n = 0; n < w.size() * 8; n += 8)
    EXPECT_FALSE(parse_cpu_sample(reinterpret_cast<const uint8_t*>(w.data()), n, &s)) << n;
}

// The real thing on this thread: the samples' CPU time is the thread's own CPU time at the
// requested rate, and their stacks unwind from outside (libdw over this process) through the
// burning function.
TEST(ThreadClock, SamplesThisThreadAtTheRequestedRateWithStacks) {
  if (!thread_clock_supported()) GTEST_SKIP() << "x86-64 only";
  uint32_t tid = uint32_t(syscall(SYS_gettid));
  const uint64_t period = 2000000;  // 2 ms
  ThreadClock c(tid, period, false);
  if (!c.ok()) GTEST_SKIP() << "perf events unavailable here: " << c.error();
  RemoteUnwinder unwinder(getpid());
  uint64_t total = 0, samples = 0, through = 0, lost = 0;
  uint64_t fn = uint64_t(reinterpret_cast<uintptr_t>(&burn_for_thread_clock));
  auto take = [&](const CpuSample& s) {
    ++samples;
    total += s.period_ns;
    EXPECT_EQ(s.tid, tid);
    RemoteUnwinder::Snapshot snap{s.dwarf_regs, s.valid_regs, s.stack, s.stack_size};
    bool failed = false;
    auto pcs = unwinder.unwind_snapshot(s.tid, snap, 64, &failed);
    for (uint64_t pc : pcs)
      if (pc >= fn && pc < fn + 512) {
        ++through;
        break;
      }
  };
  // 200 ms of CPU, drained every 20 ms as collect drains every sampler period (the ring holds
  // about 30 samples with their stack copies).
  double x = 0;
  uint64_t cpu0 = thread_cpu_ns();
  for (int i = 0; i < 10; ++i) {
    x += burn_for_thread_clock(20000000);
    lost += c.drain(take);  // its CPU (unwinding) is the thread's too, and sampled
  }
  uint64_t used = thread_cpu_ns() - cpu0;
  c.disable();
  lost += c.drain(take);
  EXPECT_EQ(lost, 0u);
  EXPECT_GT(x, 0);
  // One sample per whole period of CPU: used/period, less the last partial period.
  EXPECT_LE(total, used + period);
  EXPECT_GE(total, used - 2 * period) << samples << " samples";
  EXPECT_GE(through, samples * 9 / 10) << "stacks through burn_for_thread_clock";
}

}  // namespace
}  // namespace erkit::collect::outside
