#include "collector/openmp_state.h"
#include "collector/microstates.h"

#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "collector/clock_profiler.h"
#include "collector/fd_owned.h"
#include "collector/outside_sampler.h"
#include "collector/runtime.h"
#include "collector/stack_store.h"
#include "collector/task_proc.h"
#include "collector/thread_state.h"
#include "collector/unwind/unwind.h"

namespace erkit::collector {
namespace {

// File descriptors kept open per thread: two per thread up to this many; beyond it each look
// opens and closes the files (5 µs instead of 1-2 µs) so that programs with thousands of
// threads do not run out of descriptors because of the collector. Kept descriptors sit at
// high numbers, out of the program's way (fd_owned.h); when none can be placed there (the
// program lowered RLIMIT_NOFILE below them) the files are opened for each look instead.
constexpr int kFdBudget = 256;
int g_fds_open = 0;  // atomic

enum class Mode { kTick, kOwnEnd, kExit };

// Opens the thread's file into *slot (a high, registered number), or leaves -1 there.
void open_counted(uint32_t tid, const char* name, int* slot) {
  __atomic_store_n(slot, -1, __ATOMIC_RELEASE);
  if (!fd_room_available()) return;
  if (__atomic_add_fetch(&g_fds_open, 1, __ATOMIC_RELAXED) > kFdBudget) {
    __atomic_sub_fetch(&g_fds_open, 1, __ATOMIC_RELAXED);
    return;
  }
  int fd = open_task_file(tid, name);
  if (fd >= 0) fd = fd_own(fd, slot);
  if (fd >= 0 && !fd_owned(fd)) {  // no room up there after all: never keep a low number
    close(fd);
    fd = -1;
  }
  if (fd < 0) {
    __atomic_sub_fetch(&g_fds_open, 1, __ATOMIC_RELAXED);
    return;
  }
  __atomic_store_n(slot, fd, __ATOMIC_RELEASE);
}

void close_counted(int* slot) {
  int fd = __atomic_exchange_n(slot, -1, __ATOMIC_ACQ_REL);
  if (fd < 0) return;
  fd_release(fd);
  __atomic_sub_fetch(&g_fds_open, 1, __ATOMIC_RELAXED);
}

// Reads a /proc file through the kept descriptor; if that fails (the program closed or reused
// the number with a raw system call, or the thread ended), through a new one. The slot may be
// changed under us by the program's dup2 onto the number (fd_make_room).
template <typename T, bool (*Read)(int, T*)>
bool read_task(uint32_t tid, int* slot, const char* name, T* out) {
  int fd = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (fd >= 0 && Read(fd, out)) return true;
  if (fd >= 0) {
    int again = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (again != fd && again >= 0 && Read(again, out)) return true;  // just moved
    close_counted(slot);  // closes it only if it still names the file opened (fd_release)
  }
  open_counted(tid, name, slot);
  fd = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (fd >= 0) return Read(fd, out);
  int tmp = open_task_file(tid, name);
  if (tmp < 0) return false;
  bool ok = Read(tmp, out);
  close(tmp);
  return ok;
}

bool read_sched(ThreadState* ts, SchedStat* st) {
  return read_task<SchedStat, read_schedstat>(ts->tid, &ts->ms.schedstat_fd, "schedstat", st);
}
bool read_sys(ThreadState* ts, SyscallState* sc) {
  return read_task<SyscallState, read_syscall>(ts->tid, &ts->ms.syscall_fd, "syscall", sc);
}

uint64_t pending_sum(const MicrostateTrack& m) {
  uint64_t s = 0;
  for (uint64_t v : m.pending_ns) s += v;
  return s;
}

void flush(ThreadState* writer, ThreadState* ts) {
  MicrostateTrack& m = ts->ms;
  if (pending_sum(m))
    write_clock_record_omp(writer, ts, m.pending_stack_id, m.pending_ns, format::kClockFlagBlockedSample,
                           m.pending_omp_state, m.pending_omp_fork);
  memset(m.pending_ns, 0, sizeof m.pending_ns);
}

void add(ThreadState* writer, ThreadState* ts, uint64_t stack_id, uint32_t state, uint64_t ns,
         uint64_t flush_after_ns) {
  // Time seen while recording is paused (collect -y, collector_pause) is not the experiment's
  // (to the resolution of one look).
  if (!ns || ts->paused || !__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED)) return;
  MicrostateTrack& m = ts->ms;
  // An OpenMP thread's time goes with its state at this look (it may be idle by the flush).
  uint64_t fork = 0;
  uint32_t omp = omp_seen() ? omp_sample_state(ts, false, &fork) : 0;
  if ((m.pending_stack_id != stack_id || m.pending_omp_state != omp || m.pending_omp_fork != fork) && pending_sum(m))
    flush(writer, ts);
  m.pending_stack_id = stack_id;
  m.pending_omp_state = omp;
  m.pending_omp_fork = fork;
  m.pending_ns[state] += ns;
  if (pending_sum(m) >= flush_after_ns) flush(writer, ts);
}

uint32_t microstate_of(BlockedClass c) {
  switch (c) {
    case BlockedClass::kLock: return format::kMsUserLock;
    case BlockedClass::kTextFault: return format::kMsTextFault;
    case BlockedClass::kDataFault: return format::kMsDataFault;
    default: return format::kMsOtherWait;
  }
}

BlockedClass classify(const ThreadState* ts, const SyscallState& sc) {
  if (sc.nr == SYS_futex) return BlockedClass::kLock;
#ifdef SYS_futex_waitv
  if (sc.nr == SYS_futex_waitv) return BlockedClass::kLock;
#endif
  if (sc.nr >= 0) return BlockedClass::kOther;
  // Asleep outside a system call: a page fault, or stopped (job control, ptrace).
  char state = read_task_state(ts->tid);
  if (state == 'T' || state == 't') return BlockedClass::kOther;
  // A text fault if the faulting instruction's own page is not in memory yet (mincore reports
  // a page under read-in as absent), otherwise the data it touches is being brought in.
  long page = sysconf(_SC_PAGESIZE);
  unsigned char vec = 0;
  uintptr_t p = uintptr_t(sc.pc) & ~uintptr_t(page - 1);
  if (p && mincore(reinterpret_cast<void*>(p), size_t(page), &vec) == 0 && !(vec & 1))
    return BlockedClass::kTextFault;
  return BlockedClass::kDataFault;
}

// The user call stack of a thread asleep at (sp, pc), unwound from outside. A thread found
// asleep at the same system call, stack pointer and instruction pointer as the episode whose
// stack is cached sleeps in the same frames (a loop around the same call). The unwound stack
// is kept only if the thread did not move meanwhile: not scheduled in (same pcount), or, for a
// thread that sleeps and wakes quickly (page faults), asleep again at the same place.
bool same_place(const SyscallState& a, int64_t nr, uint64_t sp, uint64_t pc) {
  return !a.running && a.nr == nr && a.sp == sp && a.pc == pc;
}

uint64_t blocked_stack(ThreadState* writer, ThreadState* ts, const SyscallState& sc, uint64_t pcount,
                       uint64_t fallback) {
  MicrostateTrack& m = ts->ms;
  // Under qemu-user the kernel's syscall file shows the emulator's host registers, not the
  // program's: the stack is the latest CPU sample's (docs/platforms.md).
  if (g_rt.config.emulated) return fallback;
  if (m.episode_stack_id && same_place(sc, m.episode_nr, m.episode_sp, m.episode_pc)) return m.episode_stack_id;
  ucontext_t uc;
  memset(&uc, 0, sizeof uc);
#if defined(__x86_64__)
  uc.uc_mcontext.gregs[REG_RIP] = greg_t(sc.pc);
  uc.uc_mcontext.gregs[REG_RSP] = greg_t(sc.sp);
#elif defined(__aarch64__)
  uc.uc_mcontext.pc = sc.pc;
  uc.uc_mcontext.sp = sc.sp;
#endif
  uint64_t pcs[format::kMaxStackFrames + 1];
  unwind::UnwindStatus st{};
  unwind::StackBounds bounds{ts->stack_lo, ts->stack_hi};
  int n = unwind::unwind_from_ucontext(&uc, bounds, pcs, int(format::kMaxStackFrames), &st);
  if (n <= 0) return fallback;
  SchedStat after;
  SyscallState again;
  bool stable = (read_sched(ts, &after) && after.pcount == pcount) ||
                (read_sys(ts, &again) && same_place(again, sc.nr, sc.sp, sc.pc));
  // Moved: the latest stack seen asleep in the same call, else the latest CPU sample's.
  if (!stable) return m.episode_stack_id && m.episode_nr == sc.nr ? m.episode_stack_id : fallback;
  if (st.failed && !st.truncated && n < int(format::kMaxStackFrames)) pcs[n++] = format::kUnwindFailedPc;
  uint64_t id = stack_intern(writer, pcs, n, st.truncated);
  if (id == format::kNoStackId) return fallback;
  m.episode_nr = sc.nr;
  m.episode_sp = sc.sp;
  m.episode_pc = sc.pc;
  m.episode_pcount = pcount;
  m.episode_stack_id = id;
  return id;
}

// CPU time of a thread that keeps SIGPROF blocked (no CPU-timer samples): credited from
// outside, split between user and system like the kernel's tick counts since the last credit.
void credit_cpu(ThreadState* writer, ThreadState* ts, uint64_t exec, uint64_t stack, uint64_t flush_after_ns) {
  MicrostateTrack& m = ts->ms;
  if (exec <= m.sampler_cpu_exec_ns) return;
  uint64_t d = exec - m.sampler_cpu_exec_ns;
  m.sampler_cpu_exec_ns = exec;
  uint64_t ut = 0, st = 0;
  uint64_t sys = 0;
  if (read_task_times(ts->tid, &ut, &st)) {
    uint64_t du = ut - m.sampler_cpu_utime, ds = st - m.sampler_cpu_stime;
    if (du + ds) sys = uint64_t(double(d) * double(ds) / double(du + ds));
    else if (ut + st) sys = uint64_t(double(d) * double(st) / double(ut + st));
    m.sampler_cpu_utime = ut;
    m.sampler_cpu_stime = st;
  }
  add(writer, ts, stack, format::kMsUser, d - sys, flush_after_ns);
  add(writer, ts, stack, format::kMsSystem, sys, flush_after_ns);
}

bool is_fault(BlockedClass c) { return c == BlockedClass::kDataFault || c == BlockedClass::kTextFault; }

// The latest sleep seen was a page fault, and the thread has taken more major faults since.
bool more_faults_since_seen_faulting(ThreadState* ts) {
  MicrostateTrack& m = ts->ms;
  if (!is_fault(m.episode_class) || !m.episode_stack_id) return false;
  uint64_t now = 0;
  if (!read_task_majflt(ts->tid, &now) || now <= m.fault_majflt) return false;
  m.fault_majflt = now;
  return true;
}

// Accounts the time since the previous look. Wait CPU is exact (the kernel's run-queue delay);
// the rest of the off-CPU time, the residual, is attributed when the thread is seen asleep, to
// what it sleeps in; while it is seen runnable the residual may still hold a run-queue wait the
// kernel adds to the delay only when the thread runs again, so it is carried.
void account(ThreadState* writer, ThreadState* ts, const SchedStat& st, uint64_t now, uint64_t exec,
             Mode mode, uint64_t min_residual_ns, uint64_t flush_after_ns) {
  MicrostateTrack& m = ts->ms;
  uint64_t cpu_stack = __atomic_load_n(&ts->last_stack_id, __ATOMIC_RELAXED);
  if (!cpu_stack) cpu_stack = m.episode_stack_id;
  uint64_t d_delay = st.delay_ns > m.last_delay_ns ? st.delay_ns - m.last_delay_ns : 0;
  if (st.delay_ns > m.last_delay_ns) m.last_delay_ns = st.delay_ns;
  if (exec > m.last_exec_ns) m.last_exec_ns = exec;
  if (ts->cpu_by_sampler) credit_cpu(writer, ts, exec, cpu_stack, flush_after_ns);
  // A thread that has waited for a CPU before its first sample: the wait goes to the code it
  // then runs (its first known stack), or to no stack if it never gets one.
  if (!cpu_stack && mode == Mode::kTick) {
    if (!ts->paused && __atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED)) m.unplaced_wait_ns += d_delay;
  } else {
    add(writer, ts, cpu_stack, format::kMsWaitCpu, d_delay + m.unplaced_wait_ns, flush_after_ns);
    m.unplaced_wait_ns = 0;
  }

  int64_t residual = int64_t(now - m.base_wall_ns) - int64_t(m.last_exec_ns - m.base_exec_ns) -
                     int64_t(m.last_delay_ns - m.base_delay_ns) - int64_t(m.blocked_accounted_ns);
  if (residual <= 0 || (mode == Mode::kTick && uint64_t(residual) < min_residual_ns)) return;
  uint32_t state;
  uint64_t stack;
  if (mode == Mode::kOwnEnd) {
    // The thread itself, running: what it slept in since the last look is not visible any
    // more; the latest sleep seen stands for it.
    state = microstate_of(m.episode_class == BlockedClass::kNone ? BlockedClass::kOther : m.episode_class);
    stack = m.episode_stack_id ? m.episode_stack_id : cpu_stack;
  } else {
    SyscallState sc;
    if (!read_sys(ts, &sc)) return;
    if (sc.running && mode == Mode::kExit) {
      state = format::kMsWaitCpu;  // at exit: the run-queue wait the kernel has not added yet
      stack = cpu_stack;
    } else if (sc.running && more_faults_since_seen_faulting(ts)) {
      // Seen running between page faults (tens of microseconds asleep each, then a little
      // CPU): on a loaded machine most looks land here. Carrying the residual would hand a
      // whole loop's faults to whatever the thread sleeps in next (an unlink after the loop);
      // the kernel's fault count says it slept in faults again. At most the current run-queue
      // wait, which the kernel adds to the delay later, is early here: later residuals give
      // it back.
      state = microstate_of(m.episode_class);
      stack = m.episode_stack_id;
    } else if (sc.running) {
      return;
    } else {
      m.episode_class = classify(ts, sc);
      state = microstate_of(m.episode_class);
      stack = blocked_stack(writer, ts, sc, st.pcount, cpu_stack);
      if (is_fault(m.episode_class)) read_task_majflt(ts->tid, &m.fault_majflt);
    }
  }
  add(writer, ts, stack, state, uint64_t(residual), flush_after_ns);
  m.blocked_accounted_ns += uint64_t(residual);
}

}  // namespace

bool microstates_baseline(ThreadState* ts, Baseline from, uint64_t birth_ns) {
  MicrostateTrack& m = ts->ms;
  if (__atomic_load_n(&m.state, __ATOMIC_ACQUIRE) == kMsTrackActive) microstates_close(ts);
  memset(&m, 0, sizeof m);
  m.schedstat_fd = m.syscall_fd = -1;
  m.episode_nr = -2;
  SchedStat st;
  if (!read_sched(ts, &st)) {
    microstates_close(ts);
    return false;
  }
  open_counted(ts->tid, "syscall", &m.syscall_fd);
  uint64_t now = monotonic_ns();
  m.last_exec_ns = st.exec_ns;
  m.last_delay_ns = st.delay_ns;
  switch (from) {
    case Baseline::kNow:
      m.base_wall_ns = now;
      m.base_exec_ns = ts == current_thread_if_any() ? own_cpu_ns() : st.exec_ns;
      m.base_delay_ns = st.delay_ns;
      m.last_exec_ns = m.base_exec_ns;
      break;
    case Baseline::kBirth:
      m.base_wall_ns = birth_ns && birth_ns <= now ? birth_ns : now;
      break;
    case Baseline::kBirthUnknown:
      // Assume it never slept before it was found: its life so far is its CPU and its waits.
      m.base_wall_ns = now - (st.exec_ns + st.delay_ns < now ? st.exec_ns + st.delay_ns : 0);
      break;
  }
  __atomic_store_n(&m.state, kMsTrackActive, __ATOMIC_RELEASE);
  return true;
}

void microstates_retire(ThreadState* writer, ThreadState* ts) {
  MicrostateTrack& m = ts->ms;
  if (__atomic_load_n(&m.state, __ATOMIC_ACQUIRE) != kMsTrackActive) return;
  if (m.unplaced_wait_ns) add(writer, ts, format::kNoStackId, format::kMsWaitCpu, m.unplaced_wait_ns, ~0ull);
  m.unplaced_wait_ns = 0;
  flush(writer, ts);
  microstates_close(ts);
}

void microstates_forget_tracks() {
  // Only the calling thread exists (fork child): no lock is really held, whatever the
  // parent's threads were doing; every track's descriptors are the child's copies.
  thread_for_each(
      [](ThreadState* ts, void*) {
        __atomic_store_n(&ts->ms_lock, 0, __ATOMIC_RELAXED);
        if (__atomic_load_n(&ts->ms.state, __ATOMIC_ACQUIRE) == kMsTrackActive) microstates_close(ts);
      },
      nullptr);
}

void microstates_close(ThreadState* ts) {
  close_counted(&ts->ms.schedstat_fd);
  close_counted(&ts->ms.syscall_fd);
  __atomic_store_n(&ts->ms.state, kMsTrackEnded, __ATOMIC_RELEASE);
}

void microstates_thread_start(ThreadState* ts, uint64_t created_ns) {
  if (!ts || !clock_enabled() || outside_sampler_active()) return;
  ms_lock(ts);
  if (!microstates_baseline(ts, created_ns ? Baseline::kBirth : Baseline::kNow, created_ns))
    log_warning("microstates", "cannot read /proc/self/task/<tid>/schedstat: no wait/lock/owait times");
  ms_unlock(ts);
}

bool microstates_adopt_slot(ThreadState* ts, uint64_t cpu_before_ns) {
  if (!clock_adopt(ts, cpu_before_ns)) return false;
  if (outside_sampler_active()) return true;  // collect keeps the thread's microstates
  ms_lock(ts);
  microstates_baseline(ts, cpu_before_ns ? Baseline::kNow : Baseline::kBirthUnknown, 0);
  // libc's internal threads (SIGEV_THREAD notifications, AIO) block every signal: a CPU timer
  // would never be heard, so the sampler credits their CPU time instead.
  uint64_t blocked = 0;
  if (read_task_sigblk(ts->tid, &blocked) && (blocked & (uint64_t(1) << (SIGPROF - 1)))) {
    clock_thread_end(ts);
    ts->cpu_by_sampler = true;
    ts->ms.sampler_cpu_exec_ns = cpu_before_ns;
  }
  ms_unlock(ts);
  return true;
}

bool microstates_adopt(uint32_t tid, uint64_t cpu_before_ns) {
  ThreadState* ts = thread_claim_for(tid);
  if (!ts) return false;
  if (microstates_adopt_slot(ts, cpu_before_ns)) return true;
  thread_release(ts);
  return false;
}

void microstates_look(ThreadState* writer, ThreadState* ts, uint64_t flush_after_ns) {
  SchedStat st;
  if (!read_sched(ts, &st)) return;
  uint64_t period = g_rt.config.clock_interval_ns;
  account(writer, ts, st, monotonic_ns(), st.exec_ns, Mode::kTick, period / 4, flush_after_ns);
}

void microstates_thread_end(ThreadState* ts) {
  if (!ts || !clock_enabled()) return;
  ms_lock(ts);
  if (__atomic_load_n(&ts->ms.state, __ATOMIC_ACQUIRE) == kMsTrackActive) {
    SchedStat st;
    uint64_t cpu = own_cpu_ns();
    if (read_sched(ts, &st)) account(ts, ts, st, monotonic_ns(), cpu, Mode::kOwnEnd, 0, ~0ull);
    flush(ts, ts);
    microstates_close(ts);
  }
  ms_unlock(ts);
}

namespace {
void final_look(ThreadState* ts, void* arg) {
  auto* self = static_cast<ThreadState*>(arg);
  if (ts->is_helper) return;
  // The sampler has stopped; a thread ending right now may hold the lock briefly.
  bool locked = false;
  for (int i = 0; i < 1000 && !(locked = ms_trylock(ts)); ++i) sched_yield();
  if (!locked) return;
  if (__atomic_load_n(&ts->ms.state, __ATOMIC_ACQUIRE) == kMsTrackActive) {
    SchedStat st;
    if (read_sched(ts, &st)) {
      bool own = ts == self;
      account(self, ts, st, monotonic_ns(), own ? own_cpu_ns() : st.exec_ns,
              own ? Mode::kOwnEnd : Mode::kExit, 0, ~0ull);
    }
    flush(self, ts);
    microstates_close(ts);
  }
  ms_unlock(ts);
}
}  // namespace

void microstates_final_pass() {
  ThreadState* self = current_thread();
  if (!self) return;
  thread_for_each(final_look, self);
}

}  // namespace erkit::collector
