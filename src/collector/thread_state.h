// Per-thread collector state, in a fixed pool so that a signal handler can find or claim its
// thread's slot without allocating. A slot is claimed either by its own thread (through the
// thread-local pointer) or, for threads that never pass through the collector's thread-start
// trampoline (raw clone(), libc-internal threads, threads that predate the collector), by the
// collector on their behalf ("adopted"), keyed by tid only: such a thread may even share its
// thread-local storage with its creator (clone without CLONE_SETTLS), so nothing that runs on
// it may trust the thread-local pointer.
// Async-signal-safe: current_thread(), current_thread_if_any(), thread_find(),
// is_pool_slot().
#pragma once
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "format/clock_compact.h"
#include "format/experiment_format.h"

namespace erkit::collector {

inline constexpr int kMaxNesting = 3;  // normal context, signal, signal-in-signal
inline constexpr int kThreadPoolSize = 4096;

// No default member initializers here or in ThreadState: the pool is a static array, zeroed in
// .bss for free; a non-trivial constructor made every process (each exec'd descendant too)
// run a start-up loop writing all 4096 slots, megabytes of page faults.
struct BlockCursor {
  char* block;  // mmap'ed block, or nullptr
  uint32_t used;
};

// What a thread off the CPU is waiting for, as the microstate sampler classifies it.
enum class BlockedClass : uint8_t { kNone = 0, kLock, kOther, kTextFault, kDataFault };

// Microstate accounting of one thread, maintained by the collector's sampler thread and, at the
// thread's end, by the thread itself; every access holds ThreadState::ms_lock.
struct MicrostateTrack {
  int state;                 // kMsTrack* below
  int schedstat_fd;          // /proc/self/task/<tid>/schedstat, -1 if closed
  int syscall_fd;            // /proc/self/task/<tid>/syscall, -1 if closed
  uint64_t base_wall_ns;     // CLOCK_MONOTONIC at the baseline
  uint64_t base_exec_ns;     // on-CPU time at the baseline
  uint64_t base_delay_ns;    // run-queue delay at the baseline
  uint64_t last_delay_ns;    // run-queue delay at the latest look
  uint64_t last_exec_ns;     // on-CPU time at the latest look
  uint64_t blocked_accounted_ns;  // off-CPU, not-runnable time already attributed
  // The latest blocked episode seen: its identity (to reuse its stack) and class.
  int64_t episode_nr;
  uint64_t episode_sp, episode_pc, episode_pcount;
  uint64_t episode_stack_id;
  BlockedClass episode_class;
  uint64_t fault_majflt;     // the thread's major faults when last seen asleep in a fault
  // Accumulated, not yet written: one record per stack, flushed when the stack changes.
  uint64_t pending_stack_id;
  uint32_t pending_omp_state;  // OpenMP state of the pending time (openmp_state.h), 0 = none
  uint64_t pending_omp_fork;
  uint64_t pending_ns[format::kMsCount];
  // Run-queue wait seen before the thread had any known stack: given to its first one.
  uint64_t unplaced_wait_ns;
  // CPU time the sampler itself credits (threads that keep SIGPROF blocked, see sampler).
  uint64_t sampler_cpu_exec_ns;
  uint64_t sampler_cpu_utime, sampler_cpu_stime;  // /proc .../stat ticks at the last credit
};
inline constexpr int kMsTrackInactive = 0;
inline constexpr int kMsTrackActive = 1;
inline constexpr int kMsTrackEnded = 2;

// Signals whose delivery the collector may hold back for the program (sigmask_interpose.cc).
inline constexpr int kHeldSignals = 2;
struct HeldSignal {
  int sig;  // 0: free
  siginfo_t info;
};

struct ThreadState {
  int in_use;          // claimed slot (atomic)
  uint32_t tid;
  bool is_main;
  bool is_helper;       // the collector's own sampler thread: never profiled
  bool java_thread;     // a Java thread of a JVM (the Java agent said so: docs/java.md)
  void* java_env;       // its JNIEnv (AsyncGetCallTrace finds the thread by it)
  bool adopted;         // claimed by the collector for a thread it did not see start
  bool has_timer;
  bool baseline_valid;  // last_* hold a real previous reading
  bool split_unknown;   // last_user_ns holds user+system, the split is not known yet
  bool clock_started;   // clock profiling was set up for it (own start, adoption)
  bool cpu_by_sampler;  // SIGPROF is blocked on it (libc-internal threads): no timer; the
                        // sampler credits its CPU time from outside, at its last known stack
  uint8_t missing_scans;  // sampler: consecutive /proc/self/task listings without this tid
  int paused;           // collector_thread_pause()
  timer_t timer;
  bool has_perf;        // a perf task-clock event samples it (perf_clock.h)
  int perf_fd;          // that event's descriptor (moved if the program's dup2 needs its number)
  int perf_sig_fd;      // the number its signals carry as si_fd (the number it was set up at)
  int perf_ending;      // atomic: the thread's clock is being stopped (no re-open by the sampler)
  uint64_t last_user_ns, last_system_ns;
  uint64_t last_stack_id;  // stack of the latest CPU sample: receives the tail at thread end
  uintptr_t stack_lo, stack_hi;  // 0/0 when unknown
  int writer_depth;     // nesting of record_reserve (signal re-entry)
  BlockCursor cursors[kMaxNesting][uint32_t(format::DataKind::kCount)];
  // Per depth: the previous compact clock sample in that depth's profile block
  // (format/clock_compact.h), zeroed whenever the block changes.
  format::ClockCompactBase clock_base[kMaxNesting];
  int in_collector;     // >0 while collector code runs on this thread (tracers skip)
  // The program's view of its signal mask for the collector's signals: bit n-1 set = the
  // program believes signal n is blocked on this thread (the kernel mask never blocks them).
  uint64_t program_blocked;
  HeldSignal held[kHeldSignals];  // arrived while the program had them blocked
  // OpenMP (openmp_state.h): the thread's state, the region it works for and that region's
  // fork-point stack; a small cache of fork-point stacks by call site.
  uint32_t omp_state;       // format::OmpState
  uint32_t omp_mutex_kind;  // OMPT: the state of the mutex wait in progress
  uint64_t omp_region;      // region id (GOMP: for the implicit barrier / idle distinction)
  uint64_t omp_fork_stack;
  uint64_t omp_cache_key[4], omp_cache_stack[4];
  uint32_t omp_cache_next;
  uint32_t omp_in_task, omp_state_outside_task;  // OMPT: running an explicit task; the state to go back to
  uint64_t omp_microtask;  // libomp: the outlined function of the region being forked (openmp_kmpc.cc)
  uint64_t omp_task_entry;  // libomp: the task entry of the latest task allocated (openmp_kmpc.cc)
  // Everything above is cleared when the slot is claimed; what follows is not (the sampler
  // may hold ms_lock while it discovers that the slot is being reused, see thread_state.cc).
  MicrostateTrack ms;
  int ms_lock;  // atomic; never taken from a signal handler
};

// The calling thread's state, claiming a slot on first use. nullptr if the pool is exhausted.
ThreadState* current_thread();
// The calling thread's state if it has one already.
ThreadState* current_thread_if_any();
// Frees the calling thread's slot (at thread exit).
void thread_release_current();
// Claims a slot for another thread (adoption) without touching thread-local storage. nullptr
// if the pool is exhausted or the tid already has a slot. Not signal-safe.
ThreadState* thread_claim_for(uint32_t tid);
// Frees a slot claimed with thread_claim_for (the thread has ended). Not signal-safe.
void thread_release(ThreadState* ts);
// The slot of a live tid, or nullptr. Scans the used part of the pool.
ThreadState* thread_find(uint32_t tid);
// Whether `p` points at a slot of the pool (claimed or not): a timer's sigev_value.
bool is_pool_slot(const void* p);
// Calls fn for every claimed slot (not signal-safe: used at init/fini and by the sampler).
void thread_for_each(void (*fn)(ThreadState*, void*), void* arg);

// Spin lock on ts->ms_lock (normal contexts only; holders never block inside).
void ms_lock(ThreadState* ts);
bool ms_trylock(ThreadState* ts);
void ms_unlock(ThreadState* ts);

}  // namespace erkit::collector
