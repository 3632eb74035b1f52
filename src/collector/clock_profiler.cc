#include "collector/clock_profiler.h"
#include "collector/collector_cost.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "collector/data_writer.h"
#include "collector/java_bridge.h"
#include "collector/hwc_profiler.h"
#include "collector/microstates.h"
#include "collector/openmp_state.h"
#include "collector/perf_clock.h"
#include "collector/runtime.h"
#include "collector/signal_guard.h"
#include "collector/stack_store.h"
#include "collector/task_proc.h"
#include "collector/text_line.h"
#include "collector/thread_state.h"
#include "collector/unwind/unwind.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace logset = format::log_setting;
namespace {

using format::ClockSampleRecord;

bool g_enabled = false;

uint64_t tv_ns(const timeval& tv) {
  return uint64_t(tv.tv_sec) * 1000000000ull + uint64_t(tv.tv_usec) * 1000ull;
}

// The calling thread's CPU time so far: the total from its CPU clock, exact to the nanosecond
// (the kernel brings the running thread's runtime up to date for it), split between user and
// system time as the kernel splits it (getrusage's system part). getrusage alone is not enough:
// for a thread that runs without being scheduled out, its figures advance only at scheduler
// ticks (4 ms at HZ=250), so three of four 1 ms samples would see no CPU time at all. The split
// never makes either part go backwards against the previous reading (`ts`, when it has one):
// a jump of getrusage's system time larger than the CPU used since is deferred.
bool thread_times(const ThreadState* ts, uint64_t* user_ns, uint64_t* system_ns) {
  rusage ru;
  if (syscall(SYS_getrusage, RUSAGE_THREAD, &ru) != 0) return false;  // raw: leaves errno alone
  uint64_t ur = tv_ns(ru.ru_utime), sr = tv_ns(ru.ru_stime);
  timespec tp;
  if (syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &tp) != 0) {
    *user_ns = ur;
    *system_ns = sr;
    return true;
  }
  uint64_t t = uint64_t(tp.tv_sec) * 1000000000ull + uint64_t(tp.tv_nsec);
  if (t < ur + sr) t = ur + sr;
  uint64_t s = sr, u = t - sr;
  if (ts && ts->baseline_valid && !ts->split_unknown) {
    if (u < ts->last_user_ns) {
      u = ts->last_user_ns;
      s = t > u ? t - u : 0;
    } else if (s < ts->last_system_ns) {
      s = ts->last_system_ns;
      u = t > s ? t - s : 0;
    }
  }
  *user_ns = u;
  *system_ns = s;
  return true;
}

bool start_timer(ThreadState* ts, clockid_t clock) {
  sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = SIGPROF;
  sev.sigev_value.sival_ptr = ts;  // the handler's key to the thread's state
  sev._sigev_un._tid = pid_t(ts->tid);
  timer_t timer;
  if (timer_create(clock, &sev, &timer) != 0) return false;
  ts->timer = timer;
  ts->has_timer = true;
  itimerspec its;
  uint64_t ns = g_rt.config.clock_interval_ns;
  its.it_interval.tv_sec = time_t(ns / 1000000000ull);
  its.it_interval.tv_nsec = long(ns % 1000000000ull);
  its.it_value = its.it_interval;
  if (timer_settime(timer, 0, &its, nullptr) != 0) {
    ts->has_timer = false;
    timer_delete(timer);
    return false;
  }
  return true;
}

// The thread's sampling source: a perf task-clock event (every interval of its CPU time), or a
// POSIX CPU-time timer where perf events are unavailable.
bool start_source(ThreadState* ts, clockid_t timer_clock) {
  __atomic_store_n(&ts->perf_ending, 0, __ATOMIC_RELEASE);
  if (perf_clock_start(ts)) return true;
  return start_timer(ts, timer_clock);
}

// The user and system time the thread used since its previous reading; advances the baseline.
void take_delta(ThreadState* ts, uint64_t user_ns, uint64_t system_ns, uint64_t* du, uint64_t* ds) {
  if (ts->split_unknown) {
    // Adopted thread: the baseline is a CPU total; split the difference like the totals.
    uint64_t now = user_ns + system_ns;
    uint64_t d = now > ts->last_user_ns ? now - ts->last_user_ns : 0;
    *ds = now ? uint64_t(double(d) * double(system_ns) / double(now)) : 0;
    *du = d - *ds;
    ts->split_unknown = false;
  } else {
    *du = user_ns >= ts->last_user_ns ? user_ns - ts->last_user_ns : 0;
    *ds = system_ns >= ts->last_system_ns ? system_ns - ts->last_system_ns : 0;
  }
  ts->last_user_ns = user_ns;
  ts->last_system_ns = system_ns;
}

void record_sample(ThreadState* ts, void* uc) {
  uint64_t user_ns = 0, system_ns = 0;
  if (!thread_times(ts, &user_ns, &system_ns)) return;
  uint64_t du, ds;
  // The thread is running the collector's own code (its start, its exit flush): that stack is
  // not the program's. The time stays in the baseline and goes with the next sample, or with
  // the exit tail, which is credited to the last stack of the program.
  if (ts->in_collector) return;
  if (!ts->baseline_valid) {
    // Cannot happen for timers started by this module; kept as a safe fallback.
    ts->baseline_valid = true;
    ts->last_user_ns = user_ns;
    ts->last_system_ns = system_ns;
    return;
  }
  take_delta(ts, user_ns, system_ns, &du, &ds);
  // While paused the baseline still advances, so a resumed thread is not credited with the pause.
  if (ts->paused || !__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED)) return;
  if (du + ds == 0) return;

  uint64_t pcs[format::kMaxStackFrames + 1];
  unwind::UnwindStatus st{};
  unwind::StackBounds bounds{ts->stack_lo, ts->stack_hi};
  int limit = java_machine_limit();
  int n = unwind::unwind_from_ucontext(uc, bounds, pcs, limit, &st);
  if (st.failed && !st.truncated && n < limit) pcs[n++] = format::kUnwindFailedPc;
  bool truncated = java_finish_stack(ts, uc, pcs, &n, st.truncated);
  uint64_t stack_id = stack_intern(ts, pcs, n, truncated);
  __atomic_store_n(&ts->last_stack_id, stack_id, __ATOMIC_RELAXED);
  uint64_t ns[format::kMsCount] = {};
  ns[format::kMsUser] = du;
  ns[format::kMsSystem] = ds;
  write_clock_record(ts, ts, stack_id, ns,
                     unwind::interrupted_in_syscall(uc) ? format::kClockFlagInSyscall : 0);
  hwc_clock_sample(ts, uc, stack_id, du + ds);  // -p on,+ : the data address of this sample
}

void on_sigprof(int sig, siginfo_t* si, void* uc) {
  if (!clock_owns_signal(si)) {
    deliver_to_program(sig, si, uc);
    return;
  }
  // Only errno can be disturbed (raw system calls elsewhere); restore it only if it changed,
  // because a clone()d thread without its own TLS shares errno with its creator.
  // A signal of a timer deleted meanwhile (thread ended, exit) is dropped.
  // Under qemu-user the signal carries the host kernel's timer id, not the id qemu gave the
  // program, so only the slot's state can tell (docs/platforms.md).
  ThreadState* ts;
  if (si->si_code == SI_TIMER) {
    ts = static_cast<ThreadState*>(si->si_value.sival_ptr);
    if (!__atomic_load_n(&ts->in_use, __ATOMIC_ACQUIRE) || !ts->has_timer ||
        (ts->timer != reinterpret_cast<timer_t>(intptr_t(si->si_timerid)) && !g_rt.config.emulated))
      return;
  } else {
    ts = perf_clock_slot_of(si);  // F_OWNER_TID: delivered to the thread the event samples
    if (!ts) return;
  }
  int saved_errno = errno;
  uint64_t entered = monotonic_ns();
  record_sample(ts, uc);
  // Sampled from outside (collect): collect takes the periodic samples from /proc
  // (collect/outside/overview.h), not the clock signals.
  cost_add_signal(monotonic_ns() - entered);
  if (errno != saved_errno) errno = saved_errno;
}

struct AdoptContext {
  uint32_t self;
  int adopted;
};

void adopt_existing(uint32_t tid, void* arg) {
  auto* ctx = static_cast<AdoptContext*>(arg);
  if (tid == ctx->self) return;
  if (microstates_adopt(tid, cpu_time_of(tid))) ctx->adopted++;
}

// Slots that exist when clock profiling starts: threads that claimed one through an
// interposer before the collector initialised (never set up: adopted like the others), and,
// after a failed exec, threads whose timers clock_fini() deleted (set up again).
void resume_slot(ThreadState* ts, void* arg) {
  auto* ctx = static_cast<AdoptContext*>(arg);
  if (ts->tid == ctx->self || ts->is_helper) return;
  if (!ts->clock_started) {
    if (microstates_adopt_slot(ts, cpu_time_of(ts->tid))) ctx->adopted++;
  } else if (!ts->has_timer && !ts->has_perf && !ts->cpu_by_sampler) {
    if (!start_source(ts, thread_cpu_clock(pid_t(ts->tid)))) return;
    ms_lock(ts);
    microstates_baseline(ts, Baseline::kNow, 0);
    ms_unlock(ts);
  }
}

}  // namespace

bool clock_enabled() { return g_enabled; }

void write_clock_record(ThreadState* writer, const ThreadState* subject, uint64_t stack_id,
                        const uint64_t ns[format::kMsCount], uint32_t flags) {
  uint64_t fork = 0;
  uint32_t omp = omp_seen() && writer ? omp_sample_state(subject, writer == subject, &fork) : 0;
  write_clock_record_omp(writer, subject, stack_id, ns, flags, omp, fork);
}

void write_clock_record_omp(ThreadState* writer, const ThreadState* subject, uint64_t stack_id,
                            const uint64_t ns[format::kMsCount], uint32_t flags, uint32_t omp_state, uint64_t fork) {
  if (!writer) return;
  if (omp_state) {  // an OpenMP program: the sample carries the thread's OpenMP state
    using format::ClockSampleOmpRecord;
    auto* rec = static_cast<ClockSampleOmpRecord*>(record_reserve(
        writer, format::DataKind::kProfile, format::kRecClockSampleOmp, sizeof(ClockSampleOmpRecord)));
    if (rec) {
      rec->tid = subject->tid;
      rec->tstamp_ns = now_ns();
      rec->stack_id = stack_id;
      rec->cpu = writer == subject ? sched_getcpu() : -1;
      rec->flags = flags | (subject->is_main ? format::kClockFlagMainThread : 0);
      memcpy(rec->ns, ns, sizeof rec->ns);
      rec->omp_state = omp_state;
      rec->reserved = 0;
      rec->fork_stack_id = fork;
      record_commit(rec, format::kRecClockSampleOmp, sizeof(ClockSampleOmpRecord));
    }
    record_release(writer);
    return;
  }
  if (!g_rt.config.clock_full_records) {  // the compact record (issue 24): 16-24 bytes, not 88
    format::ClockFields f;
    f.tid = subject->tid;
    f.tstamp_ns = now_ns();
    f.stack_id = stack_id;
    f.cpu = writer == subject ? sched_getcpu() : -1;
    f.flags = flags | (subject->is_main ? format::kClockFlagMainThread : 0);
    memcpy(f.ns, ns, sizeof f.ns);
    record_write_clock_compact(writer, f);
    return;
  }
  auto* rec = static_cast<ClockSampleRecord*>(record_reserve(
      writer, format::DataKind::kProfile, format::kRecClockSample, sizeof(ClockSampleRecord)));
  if (rec) {
    rec->tid = subject->tid;
    rec->tstamp_ns = now_ns();
    rec->stack_id = stack_id;
    rec->cpu = writer == subject ? sched_getcpu() : -1;
    rec->flags = flags | (subject->is_main ? format::kClockFlagMainThread : 0);
    memcpy(rec->ns, ns, sizeof rec->ns);
    record_commit(rec, format::kRecClockSample, sizeof(ClockSampleRecord));
  }
  record_release(writer);
}

bool clock_owns_signal(const siginfo_t* si) {
  // Every timer of the collector carries a pointer into the thread pool; the program cannot
  // know those addresses. A signal of a timer deleted meanwhile is still the collector's.
  // A perf event's signal carries the descriptor number it was set up at (perf_clock.h).
  return si && ((si->si_code == SI_TIMER && is_pool_slot(si->si_value.sival_ptr)) || perf_clock_owns_signal(si));
}

bool clock_init() {
  if (g_rt.config.clock_interval_ns == 0) return true;
  if (!install_collector_handler(SIGPROF, on_sigprof)) return false;
  g_enabled = true;
  perf_clock_init();
  ThreadState* ts = current_thread();
  if (ts) {
    ts->is_main = uint32_t(g_rt.main_tid) == ts->tid;
    clock_thread_start(ts);
    microstates_thread_start(ts, 0);
  }
  {
    TextLine line;
    line.event(now_ns(), logev::kSetting).kv(logkey::kName, logset::kClockSource)
        .kv(logkey::kSource, ts && ts->has_perf ? "perf_task_clock" : "posix_timer").write_to(g_rt.log_fd);
  }
  // Threads created before the collector initialised (other libraries' constructors) are
  // adopted; their CPU time before this point is not the experiment's.
  AdoptContext ctx{ts ? ts->tid : uint32_t(syscall(SYS_gettid)), 0};
  thread_for_each(resume_slot, &ctx);
  if (g_rt.config.emulated) note_emulator_threads(ctx.self);  // qemu's threads are not the program's
  else for_each_task(adopt_existing, &ctx);
  if (ctx.adopted) {
    TextLine line;
    line.event(now_ns(), logev::kSetting).kv_dec(logkey::kPreexistingThreads, ctx.adopted).write_to(g_rt.log_fd);
  }
  sampler_thread_start();
  return true;
}

void clock_thread_start(ThreadState* ts) {
  if (!g_enabled || !ts) return;
  ts->clock_started = true;
  if (thread_times(nullptr, &ts->last_user_ns, &ts->last_system_ns)) ts->baseline_valid = true;
  if (!start_source(ts, CLOCK_THREAD_CPUTIME_ID))
    log_warning("clock_timer", "could not start the clock-profiling timer of a thread");
}

bool clock_adopt(ThreadState* ts, uint64_t cpu_before_ns) {
  if (!g_enabled || !ts) return false;
  ts->clock_started = true;
  ts->adopted = true;
  ts->last_user_ns = cpu_before_ns;
  ts->last_system_ns = 0;
  ts->split_unknown = cpu_before_ns != 0;
  ts->baseline_valid = true;
  if (!start_source(ts, thread_cpu_clock(pid_t(ts->tid)))) {
    log_warning("clock_timer", "could not start the clock-profiling timer of an adopted thread");
    return false;
  }
  if (g_rt.active) {
    TextLine line;
    line.event(now_ns(), logev::kThreadStart).kv_dec(logkey::kTid, ts->tid).kv(logkey::kAdopted, "1");
    line.write_to(g_rt.log_fd);
  }
  return true;
}

void clock_retire_adopted(ThreadState* writer, ThreadState* ts, uint64_t final_exec_ns) {
  clock_thread_end(ts);
  uint64_t last = ts->last_user_ns + ts->last_system_ns;
  if (g_enabled && ts->last_stack_id && final_exec_ns > last && !ts->split_unknown) {
    uint64_t d = final_exec_ns - last;
    uint64_t ns[format::kMsCount] = {};
    ns[format::kMsSystem] = last ? uint64_t(double(d) * double(ts->last_system_ns) / double(last)) : 0;
    ns[format::kMsUser] = d - ns[format::kMsSystem];
    if (__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED))
      write_clock_record(writer, ts, ts->last_stack_id, ns, 0);
  }
  if (g_rt.active) {
    TextLine line;
    line.event(now_ns(), logev::kThreadEnd).kv_dec(logkey::kTid, ts->tid);
    line.kv(logkey::kAdopted, "1").write_to(g_rt.log_fd);
  }
}

void clock_check_source(ThreadState* ts) {
  if (!g_enabled || perf_clock_check(ts) || ts->has_timer) return;
  if (!start_timer(ts, thread_cpu_clock(pid_t(ts->tid))))
    log_warning("clock_timer", "a thread lost its perf event and no timer could replace it");
}

void clock_thread_end(ThreadState* ts) {
  perf_clock_stop(ts);
  if (ts && ts->has_timer) {
    ts->has_timer = false;
    timer_delete(ts->timer);
  }
}

void clock_flush_tail(ThreadState* ts) {
  if (!g_enabled || !ts || !ts->baseline_valid || !ts->last_stack_id) return;
  if (ts != current_thread_if_any()) return;  // RUSAGE_THREAD reads the calling thread only
  uint64_t u = 0, s = 0;
  if (!thread_times(ts, &u, &s)) return;
  uint64_t ns[format::kMsCount] = {};
  take_delta(ts, u, s, &ns[format::kMsUser], &ns[format::kMsSystem]);
  if (ns[format::kMsUser] + ns[format::kMsSystem] && __atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED))
    write_clock_record(ts, ts, ts->last_stack_id, ns, 0);
}

namespace {
// Other threads still running at exit: their CPU clock gives the total since their last
// sample; it is split between user and system like their latest reading.
void flush_other_thread(ThreadState* ts, void*) {
  if (ts == current_thread_if_any() || ts->is_helper || !ts->baseline_valid || !ts->last_stack_id)
    return;
  // A thread that ended unseen (syscall(SYS_exit): adopted raw-clone threads) since the sampler's
  // last listings has no clock any more: its CPU total at the sampler's last look stands in, as
  // when the sampler retires it (clock_retire_adopted).
  uint64_t total;
  if (!clock_ns(thread_cpu_clock(pid_t(ts->tid)), &total)) total = ts->ms.last_exec_ns;
  uint64_t last = ts->last_user_ns + ts->last_system_ns;
  if (total <= last || ts->split_unknown) return;
  uint64_t delta = total - last;
  uint64_t ns[format::kMsCount] = {};
  ns[format::kMsSystem] = last ? uint64_t(double(delta) * double(ts->last_system_ns) / double(last)) : 0;
  ns[format::kMsUser] = delta - ns[format::kMsSystem];
  // Written from this thread's own cursors: the other thread may be mid-record in its own.
  if (__atomic_load_n(&g_rt.recording, __ATOMIC_RELAXED))
    write_clock_record(current_thread(), ts, ts->last_stack_id, ns, 0);
  ts->last_user_ns += ns[format::kMsUser];
  ts->last_system_ns += ns[format::kMsSystem];
}
}  // namespace

void clock_fini() {
  if (!g_enabled) return;
  sampler_thread_stop();
  ThreadState* ts = current_thread_if_any();
  clock_thread_end(ts);
  // Stop every timer first, so no sample races with the tails written below.
  thread_for_each([](ThreadState* t, void*) { clock_thread_end(t); }, nullptr);
  clock_flush_tail(ts);
  thread_for_each(flush_other_thread, nullptr);
  microstates_final_pass();
  g_enabled = false;
}

}  // namespace erkit::collector
