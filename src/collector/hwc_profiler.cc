#include "collector/hwc_profiler.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "collector/collector_cost.h"
#include "collector/data_writer.h"
#include "collector/fd_owned.h"
#include "collector/hwc_ring.h"
#include "collector/runtime.h"
#include "collector/signal_guard.h"
#include "collector/stack_store.h"
#include "collector/task_proc.h"
#include "collector/text_line.h"
#include "collector/thread_state.h"
#include "collector/unwind/unwind.h"
#include "format/hwc_attr.h"

namespace erkit::collector {
namespace {

using format::HwcEventRecord;

// The overflow signal: a real-time signal the program is unlikely to use (SIGRTMIN+0..2 belong
// to libc and threading libraries); programs that install a handler for it are told through
// signal_guard like for SIGPROF.
inline int hwc_signal() { return SIGRTMAX - 3; }

constexpr int kMaxCounters = 8;
constexpr int kMaxEntries = 4096;
constexpr uint32_t kDataPages = 2;  // ring buffer pages after the control page
constexpr int kFdIndexSize = kOwnedFdBase + kOwnedFdSpan;

struct CounterDef {
  uint32_t type;
  uint64_t config, config1, config2, period;
  uint32_t flags;  // 1 dataspace, 2 kernel address, 4 exclude_user, 8 exclude_kernel, 0x30 precise_ip
};

struct Entry {
  int state;         // 0 free, 1 claimed (being set up), 2 live, 3 closing (atomic)
  int users;         // handlers reading the ring now (atomic): close waits for them
  int fd;
  uint32_t counter;
  uint32_t tid;
  ThreadState* ts;
  char* ring;        // control page + data pages
  bool kernel_addr;  // the sample carries PERF_SAMPLE_ADDR
  uint64_t sampled;  // events accounted in samples so far
};

CounterDef g_defs[kMaxCounters];
int g_ndefs = 0;
bool g_enabled = false;
bool g_clock_ds = false;
// ERKIT_HWC_TEST_FAIL=read (tests only, docs/counters.md): every counter read at a thread's end
// fails, as a counter taken away from the process would, to exercise collector_hwc_ABORT.
bool g_test_fail_read = false;
long g_page = 4096;
int g_pagemap_fd = -1;
Entry g_entries[kMaxEntries];
int g_fd_index[kFdIndexSize];  // fd -> entry index + 1
// The collector's own code: events it causes while recording (its page faults in the handler,
// the manual's collector_record_counters) are not the program's.
uint64_t g_self_lo = 0, g_self_hi = 0;

int find_self(dl_phdr_info* info, size_t, void*) {
  uint64_t me = reinterpret_cast<uint64_t>(&g_self_lo);
  uint64_t lo = ~uint64_t(0), hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    uint64_t a = info->dlpi_addr + ph.p_vaddr;
    if (a < lo) lo = a;
    if (a + ph.p_memsz > hi) hi = a + ph.p_memsz;
  }
  if (me < lo || me >= hi) return 0;
  g_self_lo = lo;
  g_self_hi = hi;
  return 1;
}

uint64_t parse_u64(const char** p) {
  uint64_t v = 0;
  while (**p >= '0' && **p <= '9') v = v * 10 + uint64_t(*(*p)++ - '0');
  return v;
}

void parse_env(const char* s) {
  g_ndefs = 0;
  while (s && *s) {
    if (strncmp(s, "clock+", 6) == 0) {
      g_clock_ds = true;
      s += 6;
    } else if (g_ndefs < kMaxCounters) {
      CounterDef d{};
      d.type = uint32_t(parse_u64(&s));
      if (*s == ':') ++s;
      d.config = parse_u64(&s);
      if (*s == ':') ++s;
      d.config1 = parse_u64(&s);
      if (*s == ':') ++s;
      d.config2 = parse_u64(&s);
      if (*s == ':') ++s;
      d.period = parse_u64(&s);
      if (*s == ':') ++s;
      d.flags = uint32_t(parse_u64(&s));
      if (d.period == 0) d.period = 1;
      g_defs[g_ndefs++] = d;
    }
    while (*s && *s != '/') ++s;
    if (*s == '/') ++s;
  }
}

int perf_open(perf_event_attr* a, uint32_t tid) {
  return int(syscall(SYS_perf_event_open, a, pid_t(tid), -1, -1, PERF_FLAG_FD_CLOEXEC));
}

Entry* claim_entry() {
  for (int i = 0; i < kMaxEntries; ++i) {
    int expected = 0;
    if (__atomic_load_n(&g_entries[i].state, __ATOMIC_RELAXED) == 0 &&
        __atomic_compare_exchange_n(&g_entries[i].state, &expected, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
      return &g_entries[i];
  }
  return nullptr;
}

Entry* entry_of_fd(int fd) {
  if (fd >= 0 && fd < kFdIndexSize) {
    int i = __atomic_load_n(&g_fd_index[fd], __ATOMIC_ACQUIRE) - 1;
    if (i >= 0 && g_entries[i].fd == fd && __atomic_load_n(&g_entries[i].state, __ATOMIC_ACQUIRE) == 2)
      return &g_entries[i];
  }
  // The program's dup2 onto our number moved the descriptor (fd_owned.h updates e->fd).
  for (int i = 0; i < kMaxEntries; ++i)
    if (__atomic_load_n(&g_entries[i].state, __ATOMIC_ACQUIRE) == 2 && g_entries[i].fd == fd) return &g_entries[i];
  return nullptr;
}

void close_entry(Entry* e) {
  __atomic_store_n(&e->state, 3, __ATOMIC_SEQ_CST);
  // A handler of another thread may be reading the ring: unmap only once it is done.
  for (int spin = 0; __atomic_load_n(&e->users, __ATOMIC_SEQ_CST) != 0 && spin < 1000000; ++spin)
    if (spin > 100) sched_yield();
  if (e->fd >= 0) {
    ioctl(e->fd, PERF_EVENT_IOC_DISABLE, 0);
    if (e->fd < kFdIndexSize) __atomic_store_n(&g_fd_index[e->fd], 0, __ATOMIC_RELEASE);
    fd_release(e->fd);
  }
  if (e->ring) munmap(e->ring, size_t(g_page) * (1 + kDataPages));
  e->fd = -1;
  e->ring = nullptr;
  __atomic_store_n(&e->state, 0, __ATOMIC_RELEASE);
}

// 0, or the errno of the step that failed (the counter is then closed again).
int open_counter(ThreadState* ts, uint32_t tid, uint32_t counter) {
  const CounterDef& d = g_defs[counter];
  perf_event_attr a;
  format::hwc_attr_init(&a, {d.type, d.config, d.config1, d.config2, (d.flags & 4u) != 0, (d.flags & 8u) != 0,
                             (d.flags >> 4) & 3u});
  a.sample_period = d.period;
  a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
  bool kaddr = (d.flags & 2u) != 0;
  if (kaddr) a.sample_type |= PERF_SAMPLE_ADDR;
  a.wakeup_events = 1;
  int fd = perf_open(&a, tid);
  if (fd < 0 && a.precise_ip) {  // no PEBS/IBS here: imprecise PC, the analysis decodes
    a.precise_ip = 0;
    if (d.type != PERF_TYPE_SOFTWARE) {
      a.sample_type &= ~uint64_t(PERF_SAMPLE_ADDR);
      kaddr = false;
    }
    fd = perf_open(&a, tid);
  }
  if (fd < 0) return errno;
  Entry* e = claim_entry();
  if (!e) {
    close(fd);
    return ENOSPC;  // every entry in use
  }
  e->fd = fd_own(fd, &e->fd);
  size_t len = size_t(g_page) * (1 + kDataPages);
  void* ring = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_SHARED, e->fd, 0);
  if (ring == MAP_FAILED) {
    const int err = errno;  // EPERM: past perf_event_mlock_kb
    e->ring = nullptr;
    close_entry(e);
    return err;
  }
  e->ring = static_cast<char*>(ring);
  e->counter = counter;
  e->tid = tid;
  e->ts = ts;
  e->kernel_addr = kaddr;
  e->sampled = 0;
  f_owner_ex own{F_OWNER_TID, pid_t(tid)};
  if (syscall(SYS_fcntl, e->fd, F_SETOWN_EX, &own) != 0 || syscall(SYS_fcntl, e->fd, F_SETSIG, hwc_signal()) != 0 ||
      syscall(SYS_fcntl, e->fd, F_SETFL, O_ASYNC | O_NONBLOCK) != 0) {
    const int err = errno;
    close_entry(e);
    return err;
  }
  if (e->fd < kFdIndexSize) __atomic_store_n(&g_fd_index[e->fd], int(e - g_entries) + 1, __ATOMIC_RELEASE);
  __atomic_store_n(&e->state, 2, __ATOMIC_RELEASE);
  ioctl(e->fd, PERF_EVENT_IOC_ENABLE, 0);
  return 0;
}

// A counter that could not be set up or read for a thread (issue 19): the manual's
// collector_hwc_ABORT. The thread's counts of that counter are lost from then on (its
// overflows before are kept): a warning naming the counter, the thread and the reason, and an
// hwc_event with kHwcFlagAbort and no stack, written by the calling thread for `tid`; its value
// is the events known to be lost (0 where the counter never counted).
void write_abort(uint32_t tid, uint32_t counter, const char* what, int err, uint64_t lost) {
  TextLine text;
  text.str("hardware counter ").udec(counter).str(" (the log's hwc index=").udec(counter).str(") ").str(what);
  text.str(" for thread ").udec(tid).str(": ");
  const char* reason = err ? strerrordesc_np(err) : nullptr;
  text.str(reason ? reason : "failed").str(" (errno ").dec(err).str("); its counts are lost from then on");
  text.str(" (collector_hwc_ABORT)");
  log_warning("hwc_abort", text.data());
  ThreadState* writer = current_thread();
  if (!writer || !__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED)) return;
  auto* r = static_cast<HwcEventRecord*>(
      record_reserve(writer, format::DataKind::kHwc, format::kRecHwcEvent, sizeof(HwcEventRecord)));
  if (r) {
    memset(reinterpret_cast<char*>(r) + 4, 0, sizeof *r - 4);
    r->tid = tid;
    r->tstamp_ns = now_ns();
    r->stack_id = format::kNoStackId;
    r->counter = counter;
    r->flags = format::kHwcFlagAbort;
    r->value = lost;
    r->cpu = -1;
    record_commit(r, format::kRecHwcEvent, sizeof(HwcEventRecord));
  }
  record_release(writer);
}

void open_thread(ThreadState* ts, uint32_t tid) {
  for (int i = 0; i < kMaxEntries; ++i)
    if (__atomic_load_n(&g_entries[i].state, __ATOMIC_ACQUIRE) == 2 && g_entries[i].tid == tid) return;
  const int saved_errno = errno;
  for (int c = 0; c < g_ndefs; ++c)
    if (int err = open_counter(ts, tid, uint32_t(c)); err != 0)
      write_abort(tid, uint32_t(c), "could not be opened", err, 0);
  errno = saved_errno;
}

uint64_t physical_of(uint64_t vaddr) {
  if (g_pagemap_fd < 0 || vaddr == 0) return 0;
  uint64_t entry = 0;
  off_t off = off_t((vaddr / uint64_t(g_page)) * 8);
  if (pread(g_pagemap_fd, &entry, 8, off) != 8) return 0;
  if (!(entry >> 63)) return 0;                  // not present
  uint64_t pfn = entry & ((uint64_t(1) << 55) - 1);
  if (pfn == 0) return 0;                        // PFNs hidden (no CAP_SYS_ADMIN)
  return pfn * uint64_t(g_page) + (vaddr % uint64_t(g_page));
}

void fill_regs(HwcEventRecord* r, void* uc) {
#if defined(__x86_64__)
  if (!uc) {
    r->addr_source = format::kHwcAddrNoContext;
    return;
  }
  const greg_t* g = static_cast<ucontext_t*>(uc)->uc_mcontext.gregs;
  // rax rbx rcx rdx rsi rdi rbp rsp r8..r15 rip: capstone's register order in dataspace/decode.cc.
  const int order[format::kHwcRegCount] = {REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI,
                                           REG_RBP, REG_RSP, REG_R8,  REG_R9,  REG_R10, REG_R11,
                                           REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP};
  for (uint32_t i = 0; i < format::kHwcRegCount; ++i) r->regs[i] = uint64_t(g[order[i]]);
  r->addr_source = format::kHwcAddrRegs;
#else
  (void)uc;
  r->addr_source = format::kHwcAddrNoContext;  // decoding is x86-64 only (docs/dataspace.md)
#endif
}

uint64_t context_pc(void* uc) {
#if defined(__x86_64__)
  return uc ? uint64_t(static_cast<ucontext_t*>(uc)->uc_mcontext.gregs[REG_RIP]) : 0;
#elif defined(__aarch64__)
  return uc ? uint64_t(static_cast<ucontext_t*>(uc)->uc_mcontext.pc) : 0;
#else
  (void)uc;
  return 0;
#endif
}

uint64_t stack_of(ThreadState* ts, void* uc) {
  uint64_t pcs[format::kMaxStackFrames + 1];
  unwind::UnwindStatus st{};
  unwind::StackBounds bounds{ts->stack_lo, ts->stack_hi};
  int n = unwind::unwind_from_ucontext(uc, bounds, pcs, int(format::kMaxStackFrames), &st);
  if (st.failed && !st.truncated && n < int(format::kMaxStackFrames)) pcs[n++] = format::kUnwindFailedPc;
  return stack_intern(ts, pcs, n, st.truncated);
}

void write_record(ThreadState* ts, uint32_t counter, uint32_t flags, uint64_t value, uint64_t stack_id, uint64_t pc,
                  bool dataspace, bool have_addr, uint64_t addr, void* uc) {
  auto* r = static_cast<HwcEventRecord*>(
      record_reserve(ts, format::DataKind::kHwc, format::kRecHwcEvent, sizeof(HwcEventRecord)));
  if (r) {
    r->tid = ts->tid;
    r->tstamp_ns = now_ns();
    r->stack_id = stack_id;
    r->counter = counter;
    r->flags = flags;
    r->value = value;
    r->pc = pc;
    r->vaddr = 0;
    r->paddr = 0;
    r->cpu = sched_getcpu();
    memset(r->regs, 0, sizeof r->regs);
    r->addr_source = format::kHwcAddrNone;
    if (dataspace) {
      fill_regs(r, uc);
      if (have_addr) {  // the registers stay: with the PC they give the frame base (stack locals)
        r->vaddr = addr;
        r->addr_source = format::kHwcAddrPrecise;
      }
      uint64_t va = have_addr ? addr : 0;
      if (va) r->paddr = physical_of(va);
    }
    record_commit(r, format::kRecHwcEvent, sizeof(HwcEventRecord));
  }
  record_release(ts);
}

void drain(Entry* e, void* uc, bool write) {
  auto* meta = reinterpret_cast<perf_event_mmap_page*>(e->ring);
  const char* data = e->ring + g_page;
  uint64_t size = uint64_t(g_page) * kDataPages;
  uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
  const CounterDef& d = g_defs[e->counter];
  bool dataspace = (d.flags & 1u) != 0;
  uint64_t stack_id = 0;
  bool recording = write && __atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED) && !e->ts->paused &&
                   !e->ts->in_collector;
  uint64_t tail = hwc_ring_walk(data, size, meta->data_tail, head, e->kernel_addr, [&](const HwcRingRecord& r) {
    if (r.type == PERF_RECORD_SAMPLE) {
      e->sampled += r.period;
      if (!recording || (r.ip >= g_self_lo && r.ip < g_self_hi)) return;
      if (!stack_id) stack_id = stack_of(e->ts, uc);
      // The kernel's IP, else the interrupted PC (software events with exclude_kernel).
      uint64_t pc = r.ip ? r.ip : context_pc(uc);
      write_record(e->ts, e->counter, 0, r.period, stack_id, pc, dataspace, e->kernel_addr && r.addr != 0, r.addr, uc);
    } else {
      e->sampled += r.lost * d.period;
      if (recording)
        write_record(e->ts, e->counter, format::kHwcFlagLost, r.lost * d.period, format::kNoStackId, 0, false, false,
                     0, nullptr);
    }
  });
  __atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
}

void on_hwc_signal(int sig, siginfo_t* si, void* uc) {
  Entry* e = si && (si->si_code == POLL_IN || si->si_code == POLL_HUP) ? entry_of_fd(si->si_fd) : nullptr;
  if (!e) {
    deliver_to_program(sig, si, uc);
    return;
  }
  int saved_errno = errno;
  __atomic_add_fetch(&e->users, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&e->state, __ATOMIC_SEQ_CST) == 2) {  // not being closed meanwhile
    uint64_t entered = monotonic_ns();
    drain(e, uc, true);
    cost_add_signal(monotonic_ns() - entered);
  }
  __atomic_sub_fetch(&e->users, 1, __ATOMIC_SEQ_CST);
  if (errno != saved_errno) errno = saved_errno;
}

// Counts since the last overflow, then close.
void finish_entry(Entry* e, ThreadState* writer) {
  if (__atomic_load_n(&e->state, __ATOMIC_ACQUIRE) != 2) return;
  ioctl(e->fd, PERF_EVENT_IOC_DISABLE, 0);
  drain(e, nullptr, false);
  uint64_t count = 0;
  const int saved_errno = errno;
  errno = 0;
  const bool read_ok = !g_test_fail_read && read(e->fd, &count, sizeof count) == ssize_t(sizeof count);
  if (!read_ok) {
    // The events since the last overflow are unknown: nothing to add (the overflows are kept).
    write_abort(e->tid, e->counter, "could not be read", errno ? errno : EIO, 0);
  } else if (count > e->sampled && writer && __atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED)) {
    auto* r = static_cast<HwcEventRecord*>(
        record_reserve(writer, format::DataKind::kHwc, format::kRecHwcEvent, sizeof(HwcEventRecord)));
    if (r) {
      memset(reinterpret_cast<char*>(r) + 4, 0, sizeof *r - 4);
      r->tid = e->tid;
      r->tstamp_ns = now_ns();
      r->stack_id = format::kNoStackId;
      r->counter = e->counter;
      r->flags = format::kHwcFlagFinal;
      r->value = count - e->sampled;
      r->cpu = -1;
      record_commit(r, format::kRecHwcEvent, sizeof(HwcEventRecord));
    }
    record_release(writer);
  }
  close_entry(e);
  errno = saved_errno;
}

void adopt_existing(uint32_t tid, void* self) {
  if (tid != *static_cast<uint32_t*>(self)) hwc_adopt_tid(tid);
}

}  // namespace

bool hwc_enabled() { return g_enabled; }
bool hwc_clock_dataspace() { return g_clock_ds; }

bool hwc_init() {
  const char* env = getenv("ERKIT_HWC");
  if (!env || !*env) return true;
  parse_env(env);
  const char* fail = getenv("ERKIT_HWC_TEST_FAIL");
  g_test_fail_read = fail && strcmp(fail, "read") == 0;
  g_page = sysconf(_SC_PAGESIZE);
  if (!g_self_hi) dl_iterate_phdr(find_self, nullptr);
  if (g_page <= 0) g_page = 4096;
  if (g_pagemap_fd < 0) {
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) g_pagemap_fd = fd_own(fd, &g_pagemap_fd);
  }
  if (g_ndefs == 0) return true;
  if (!install_collector_handler(hwc_signal(), on_hwc_signal)) return false;
  g_enabled = true;
  ThreadState* ts = current_thread();
  uint32_t self = ts ? ts->tid : uint32_t(syscall(SYS_gettid));
  if (ts) hwc_thread_start(ts);
  if (!g_rt.config.emulated) for_each_task(adopt_existing, &self);
  return true;
}

void hwc_thread_start(ThreadState* ts) {
  if (!g_enabled || !ts || ts->is_helper) return;
  open_thread(ts, ts->tid);
}

void hwc_adopt_tid(uint32_t tid) {
  if (!g_enabled) return;
  ThreadState* ts = thread_find(tid);
  if (!ts) ts = thread_claim_for(tid);
  if (!ts || ts->is_helper) return;
  open_thread(ts, tid);
}

void hwc_thread_end(ThreadState* ts) {
  if (!g_enabled || !ts) return;
  for (int i = 0; i < kMaxEntries; ++i)
    if (__atomic_load_n(&g_entries[i].state, __ATOMIC_ACQUIRE) == 2 && g_entries[i].ts == ts)
      finish_entry(&g_entries[i], ts);
}

void hwc_fini() {
  if (!g_enabled) return;
  ThreadState* self = current_thread();
  for (int i = 0; i < kMaxEntries; ++i) finish_entry(&g_entries[i], self);
  g_enabled = false;
}

void hwc_forget_after_fork() {
  for (int i = 0; i < kMaxEntries; ++i) {
    __atomic_store_n(&g_entries[i].users, 0, __ATOMIC_RELAXED);  // no handler runs in the child
    if (__atomic_load_n(&g_entries[i].state, __ATOMIC_ACQUIRE) != 0) close_entry(&g_entries[i]);
  }
  g_enabled = false;
}

void hwc_clock_sample(ThreadState* ts, void* uc, uint64_t stack_id, uint64_t ns) {
  if (!g_clock_ds || !ts) return;
  write_record(ts, format::kHwcClockCounter, 0, ns, stack_id, context_pc(uc), true, false, 0, uc);
}

}  // namespace erkit::collector
