#include "collect/outside/sampler.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "collect/outside/outside_cpu.h"
#include "collect/outside/outside_files.h"
#include "collect/outside/overview.h"
#include "collect/outside/proc_task.h"
#include "collect/outside/remote_unwind.h"
#include "format/experiment_format.h"
#include "format/log_keys.h"
#include "format/outside_sampler.h"

namespace erkit::collect::outside {

enum class Sleep { kNone, kLock, kText, kData, kOther };

struct OutsideSampler::Track {
  uint64_t base_wall = 0, base_exec = 0, base_delay = 0;
  uint64_t last_exec = 0, last_delay = 0, accounted = 0;
  // The latest sleep seen: its system call, where, its stack and class.
  int64_t ep_nr = -2;
  uint64_t ep_sp = 0, ep_pc = 0, ep_stack = 0;
  Sleep ep_class = Sleep::kNone;
  uint64_t fault_majflt = 0;
  uint64_t carried = 0;  // residual of the latest look that found the thread runnable
  // Samples with the same stack are merged until this much time accumulates.
  uint64_t pend_stack = 0;
  uint64_t pend[format::kMsCount] = {};
  uint64_t seen_look = 0;
};

namespace {

uint64_t clock_now(clockid_t c) {
  timespec t;
  clock_gettime(c, &t);
  return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

uint32_t microstate_of(Sleep c) {
  switch (c) {
    case Sleep::kLock: return format::kMsUserLock;
    case Sleep::kText: return format::kMsTextFault;
    case Sleep::kData: return format::kMsDataFault;
    default: return format::kMsOtherWait;
  }
}

bool is_fault(Sleep c) { return c == Sleep::kText || c == Sleep::kData; }

uint64_t field(const std::string& line, const char* key) {
  auto at = line.find(key);
  return at == std::string::npos ? 0 : std::strtoull(line.c_str() + at + std::strlen(key), nullptr, 10);
}

// The value of a log key (format/log_keys.h) in a log line.
uint64_t key_value(const std::string& line, const char* key) { return field(line, (" " + std::string(key) + "=").c_str()); }

}  // namespace

OutsideSampler::OutsideSampler(std::string experiment, pid_t pid, uint64_t interval_ns, bool adopt_unnamed)
    : experiment_(std::move(experiment)), pid_(pid), interval_ns_(interval_ns), adopt_unnamed_(adopt_unnamed) {
  period_ns_ = interval_ns < 10000000 ? 10000000 : interval_ns > 100000000 ? 100000000 : interval_ns;
  proc_ = std::make_unique<ProcTask>(pid);
  unwinder_ = std::make_unique<RemoteUnwinder>(pid);
}

OutsideSampler::~OutsideSampler() {
  finish();
  if (log_fd_ >= 0) close(log_fd_);
}

void OutsideSampler::periodic_samples(uint64_t interval_ns, bool start_and_end) {
  sample_interval_ns_ = interval_ns;
  start_and_end_samples_ = start_and_end;
}

void OutsideSampler::overview_sample(uint32_t reason, uint64_t now) {
  if (!overview_ || !files_) return;
  format::OverviewSampleRecord r{};
  if (!overview_->read(&r)) return;  // the process is gone
  r.reason = reason;
  r.tstamp_ns = now > start_mono_ns_ ? now - start_mono_ns_ : 0;
  r.number = ++sample_number_;  // renumbered with the collector's by the reader
  files_->overview_sample(r);
}

namespace {
void append_log(const std::string& experiment, const std::string& line) {
  int fd = open((experiment + "/" + format::kLogFile).c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return;
  std::string l = line + "\n";
  if (write(fd, l.data(), l.size()) != ssize_t(l.size())) {
  }
  close(fd);
}
}  // namespace

// A thread the collector has not named two looks after it was listed, and which has run 2 ms
// of CPU meanwhile (the collector names the threads it starts before they run their code, and
// the pre-existing ones as its clock starts): its CPU time is sampled from here, the CPU it
// used before credited to its first sample, as the in-process adopter does.
void OutsideSampler::adopt(uint32_t tid, uint64_t now) {
  auto since = unknown_since_.try_emplace(tid, looks_).first->second;
  if (!cpu_ || !clock_started_ || looks_ < since + 2) return;
  auto st = proc_->schedstat(tid);
  if (!st || st->exec_ns < 2000000) return;
  if (!cpu_->add(tid, nullptr, nullptr, st->exec_ns)) return;
  unknown_since_.erase(tid);
  known_.insert(tid);
  adopted_.insert(tid);
  append_log(experiment_, std::to_string(now > start_mono_ns_ ? now - start_mono_ns_ : 0) + " thread_start tid=" +
                              std::to_string(tid) + " adopted=1 by=collect");
}

void OutsideSampler::read_log() {
  // Kept open: read from where the previous look stopped.
  if (log_fd_ < 0) log_fd_ = open((experiment_ + "/" + format::kLogFile).c_str(), O_RDONLY | O_CLOEXEC);
  const int fd = log_fd_;
  if (fd < 0) return;
  char buf[65536];
  ssize_t n;
  while ((n = pread(fd, buf, sizeof buf, off_t(log_offset_))) > 0) {
    log_offset_ += uint64_t(n);
    log_partial_.append(buf, size_t(n));
    size_t begin = 0, nl;
    while ((nl = log_partial_.find('\n', begin)) != std::string::npos) {
      std::string line = log_partial_.substr(begin, nl - begin);
      begin = nl + 1;
      if (line.find(" exit how=") != std::string::npos) {
        collector_ended_ = true;  // exit, or exec: a new image records into its own experiment
        if (start_mono_ns_) exit_at_ns_ = start_mono_ns_ + std::strtoull(line.c_str(), nullptr, 10);
      } else if (line.find(" thread_end ") != std::string::npos && line.find(std::string(" ") + format::log_key::kExecNs + "=") != std::string::npos) {
        if (uint64_t tid = field(line, " tid="))
          ends_[uint32_t(tid)] = {key_value(line, format::log_key::kAtNs), key_value(line, format::log_key::kExecNs),
                                   key_value(line, format::log_key::kDelayNs)};
      } else if (line.find(" thread_start ") != std::string::npos) {
        uint64_t tid = field(line, " tid=");
        // The collector named a thread collect adopted: its own timer samples it from now on.
        if (tid && line.find(" by=collect") == std::string::npos && adopted_.erase(uint32_t(tid)) && cpu_)
          cpu_->remove(uint32_t(tid));
        if (tid) known_.insert(uint32_t(tid));
        // Started by the program under the collector (not adopted): its life, CPU time and
        // run-queue delay count from this line, even if collect's first look comes later.
        if (tid && start_mono_ns_ && line.find(" adopted=1") == std::string::npos)
          born_[uint32_t(tid)] = start_mono_ns_ + std::strtoull(line.c_str(), nullptr, 10);
      } else if (line.find(" setting name=clock_source ") != std::string::npos) {
        clock_started_ = true;
      } else if (line.find(" setting name=sampler where=collect ") != std::string::npos) {
        initial_.tid = uint32_t(field(line, " tid="));
        initial_.at_ns = key_value(line, format::log_key::kAtNs);
        initial_.exec_ns = key_value(line, format::log_key::kExecNs);
        initial_.delay_ns = key_value(line, format::log_key::kDelayNs);
      } else if (!start_mono_ns_ && line.find(" start ") != std::string::npos) {
        start_mono_ns_ = field(line, " monotonic_ns=");
      }
    }
    log_partial_.erase(0, begin);
  }
}

bool OutsideSampler::started() {
  read_log();
  if (!start_mono_ns_) return false;
  if (!files_) {
    files_ = std::make_unique<OutsideFiles>(experiment_);
    known_.insert(uint32_t(pid_));  // the initial thread
    if (adopt_unnamed_) cpu_ = std::make_unique<OutsideCpu>(pid_, interval_ns_, start_mono_ns_, *files_, *unwinder_);
    if (sample_interval_ns_ || start_and_end_samples_) {
      overview_ = std::make_unique<OverviewReader>(pid_);
      due_ = std::make_unique<PeriodicDue>(start_mono_ns_, sample_interval_ns_);
      if (start_and_end_samples_) overview_sample(format::kSampleStart, clock_now(CLOCK_MONOTONIC));
    }
  }
  return true;
}

void OutsideSampler::look() {
  if (finished_) return;
  uint64_t cpu0 = clock_now(CLOCK_THREAD_CPUTIME_ID);
  if (started() && !collector_ended_) {
    ++looks_;
    uint64_t now = clock_now(CLOCK_MONOTONIC);
    // Threads that reported their end: their last stretch, exactly.
    for (auto& [tid, f] : ends_) {
      auto it = tracks_.find(tid);
      if (it != tracks_.end()) {
        end_track(tid, it->second, f.at_ns, f.exec_ns, f.delay_ns);
        tracks_.erase(it);
      }
      ended_.insert(tid);
    }
    ends_.clear();
    const std::vector<uint32_t> listed = proc_->tids();
    // An ended thread no longer listed: its tid may be reused by a new thread.
    for (auto e = ended_.begin(); e != ended_.end();)
      e = std::find(listed.begin(), listed.end(), *e) == listed.end() ? ended_.erase(e) : std::next(e);
    for (uint32_t tid : listed) {
      if (ended_.count(tid)) continue;
      if (!known_.count(tid)) {  // not (yet) the collector's: born after the previous look
        first_listed_.try_emplace(tid, last_look_ns_);
        if (adopt_unnamed_) adopt(tid, now);
        if (!known_.count(tid)) continue;
      }
      auto [it, is_new] = tracks_.try_emplace(tid);
      if (is_new) ++threads_seen_;
      look_at(tid, it->second, now, is_new);
      it->second.seen_look = looks_;
    }
    // Threads gone since the previous look: what they had pending is written; their time since
    // that look is lost (at most one period).
    for (auto it = tracks_.begin(); it != tracks_.end();) {
      if (it->second.seen_look != looks_) {
        if (adopted_.erase(it->first)) {
          if (cpu_) cpu_->remove(it->first);
          append_log(experiment_, std::to_string(now > start_mono_ns_ ? now - start_mono_ns_ : 0) +
                                      " thread_end tid=" + std::to_string(it->first) + " adopted=1 by=collect");
        }
        close_track(it->first, it->second, now);
        it = tracks_.erase(it);
      } else {
        ++it;
      }
    }
    last_look_ns_ = now;
    if (due_ && due_->due(now)) overview_sample(format::kSamplePeriodic, clock_now(CLOCK_MONOTONIC));
    if (cpu_) cpu_->drain();
    files_->flush();
  }
  cpu_ns_ += clock_now(CLOCK_THREAD_CPUTIME_ID) - cpu0;
}

void OutsideSampler::flush(uint32_t tid, Track& t, uint64_t now) {
  uint64_t sum = 0;
  for (uint64_t v : t.pend) sum += v;
  if (!sum || !files_) return;
  format::ClockSampleRecord r{};
  r.tid = tid;
  r.tstamp_ns = now > start_mono_ns_ ? now - start_mono_ns_ : 0;
  r.stack_id = t.pend_stack;
  r.cpu = -1;
  r.flags = format::kClockFlagBlockedSample | format::kClockFlagOutside |
            (tid == uint32_t(pid_) ? format::kClockFlagMainThread : 0);
  std::memcpy(r.ns, t.pend, sizeof r.ns);
  files_->clock_sample(r);
  std::memset(t.pend, 0, sizeof t.pend);
}

void OutsideSampler::add(uint32_t tid, Track& t, uint64_t stack, uint32_t state, uint64_t ns, uint64_t now) {
  if (!ns) return;
  uint64_t sum = 0;
  for (uint64_t v : t.pend) sum += v;
  if (t.pend_stack != stack && sum) flush(tid, t, now);
  t.pend_stack = stack;
  t.pend[state] += ns;
  sum = 0;
  for (uint64_t v : t.pend) sum += v;
  uint64_t flush_after = period_ns_ * 10 > 20000000 ? period_ns_ * 10 : 20000000;
  if (sum >= flush_after) flush(tid, t, now);
}

uint64_t OutsideSampler::sleep_stack(uint32_t tid, Track& t, int64_t nr, uint64_t sp, uint64_t pc,
                                     uint64_t pcount) {
  if (t.ep_stack && t.ep_nr == nr && t.ep_sp == sp && t.ep_pc == pc) return t.ep_stack;
  bool failed = false;
  ++unwinds_;
  std::vector<uint64_t> pcs = unwinder_->unwind(tid, sp, pc, format::kMaxStackFrames, &failed);
  if (pcs.empty()) return t.ep_stack && t.ep_nr == nr ? t.ep_stack : 0;
  // Kept only if the thread did not move meanwhile (not scheduled in, or asleep at the same place).
  auto after = proc_->schedstat(tid);
  bool stable = after && after->pcount == pcount;
  if (!stable) {
    auto again = proc_->syscall(tid);
    stable = again && !again->running && again->nr == nr && again->sp == sp && again->pc == pc;
  }
  if (!stable) return t.ep_stack && t.ep_nr == nr ? t.ep_stack : 0;
  if (failed && pcs.size() < format::kMaxStackFrames) pcs.push_back(format::kUnwindFailedPc);
  uint64_t id = files_->stack(pcs, false);
  t.ep_nr = nr;
  t.ep_sp = sp;
  t.ep_pc = pc;
  t.ep_stack = id;
  return id;
}

void OutsideSampler::look_at(uint32_t tid, Track& t, uint64_t now, bool is_new) {
  auto st = proc_->schedstat(tid);
  if (!st) return;
  auto born = is_new ? born_.find(tid) : born_.end();
  if (born != born_.end()) {
    t.base_wall = born->second <= now ? born->second : now;
    born_.erase(born);
    first_listed_.erase(tid);
  } else if (is_new) {
    if (looks_ == 1) {
      // There when the sampler starts (the initial thread, threads of libraries' constructors).
      t.base_wall = now;
      t.base_exec = st->exec_ns;
      t.base_delay = st->delay_ns;
      if (tid == initial_.tid && initial_.at_ns && initial_.at_ns <= now) {  // from the collector's start
        t.base_wall = initial_.at_ns;
        t.base_exec = initial_.exec_ns;
        t.base_delay = initial_.delay_ns;
      }
    } else {
      // Born since the previous look: its life from its start time (USER_HZ ticks since boot,
      // no earlier than that look), its CPU time and run-queue delay from zero.
      auto listed = first_listed_.find(tid);
      uint64_t birth = listed != first_listed_.end() ? listed->second : last_look_ns_;
      if (listed != first_listed_.end()) first_listed_.erase(listed);
      if (auto ts = proc_->stat(tid)) {
        uint64_t hz = uint64_t(sysconf(_SC_CLK_TCK));
        uint64_t boot_to_mono = clock_now(CLOCK_BOOTTIME) - clock_now(CLOCK_MONOTONIC);
        uint64_t since_boot = ts->start_ticks * (1000000000ull / (hz ? hz : 100));
        uint64_t started = since_boot > boot_to_mono ? since_boot - boot_to_mono : 0;
        if (started > birth && started <= now) birth = started;
      }
      t.base_wall = birth;
    }
  }
  if (is_new) {
    t.last_exec = t.base_exec;
    t.last_delay = t.base_delay;
  }
  // Wait CPU: exact, the kernel's run-queue delay; its stack is the thread's latest CPU sample,
  // which the reader supplies (kNoStackId here).
  uint64_t d_delay = st->delay_ns > t.last_delay ? st->delay_ns - t.last_delay : 0;
  if (st->delay_ns > t.last_delay) t.last_delay = st->delay_ns;
  if (st->exec_ns > t.last_exec) t.last_exec = st->exec_ns;
  add(tid, t, format::kNoStackId, format::kMsWaitCpu, d_delay, now);

  int64_t residual = int64_t(now - t.base_wall) - int64_t(t.last_exec - t.base_exec) -
                     int64_t(t.last_delay - t.base_delay) - int64_t(t.accounted);
  if (residual <= 0 || uint64_t(residual) < interval_ns_ / 4) return;
  uint32_t state;
  uint64_t stack;
  auto sc = proc_->syscall(tid);
  if (!sc) return;
  if (sc->running) {
    // Seen running between page faults: the kernel's fault count says it slept in faults again.
    auto ts = is_fault(t.ep_class) && t.ep_stack ? proc_->stat(tid) : std::nullopt;
    if (!ts || ts->majflt <= t.fault_majflt) {  // carried: may still hold a run-queue wait
      t.carried = uint64_t(residual);
      return;
    }
    t.fault_majflt = ts->majflt;
    state = microstate_of(t.ep_class);
    stack = t.ep_stack;
  } else {
    Sleep c = Sleep::kOther;
    auto ts = sc->nr < 0 ? proc_->stat(tid) : std::nullopt;
    if (sc->nr == SYS_futex) c = Sleep::kLock;
#ifdef SYS_futex_waitv
    else if (sc->nr == SYS_futex_waitv) c = Sleep::kLock;
#endif
    else if (sc->nr < 0 && ts && (ts->state == 'T' || ts->state == 't')) c = Sleep::kOther;
    else if (sc->nr < 0) c = proc_->page_present(sc->pc) == false ? Sleep::kText : Sleep::kData;
    t.ep_class = c;
    state = microstate_of(c);
    stack = sleep_stack(tid, t, sc->nr, sc->sp, sc->pc, st->pcount);
    if (is_fault(c) && ts) t.fault_majflt = ts->majflt;
  }
  add(tid, t, stack, state, uint64_t(residual), now);
  t.accounted += uint64_t(residual);
  t.carried = 0;
}

// A thread's end, or the process's: the residual still carried goes, as the ending thread's
// own accounting does in-process, to its latest sleep (class and stack), or to Wait CPU if it
// never slept (then it is the run-queue wait the kernel had not added yet).
void OutsideSampler::close_track(uint32_t tid, Track& t, uint64_t now) {
  if (t.carried) {
    uint32_t state = t.ep_class == Sleep::kNone ? uint32_t(format::kMsWaitCpu) : microstate_of(t.ep_class);
    add(tid, t, t.ep_stack, state, t.carried, now);
    t.accounted += t.carried;
    t.carried = 0;
  }
  flush(tid, t, now);
}

void OutsideSampler::end_track(uint32_t tid, Track& t, uint64_t at, uint64_t exec_ns, uint64_t delay_ns) {
  uint64_t d_delay = delay_ns > t.last_delay ? delay_ns - t.last_delay : 0;
  if (delay_ns > t.last_delay) t.last_delay = delay_ns;
  if (exec_ns > t.last_exec) t.last_exec = exec_ns;
  add(tid, t, format::kNoStackId, format::kMsWaitCpu, d_delay, at);
  int64_t residual = int64_t(at - t.base_wall) - int64_t(t.last_exec - t.base_exec) -
                     int64_t(t.last_delay - t.base_delay) - int64_t(t.accounted);
  if (residual > 0) {
    // As the in-process sampler's ending thread: to its latest sleep, else run-queue wait.
    uint32_t state = t.ep_class == Sleep::kNone ? uint32_t(format::kMsWaitCpu) : microstate_of(t.ep_class);
    add(tid, t, t.ep_stack, state, uint64_t(residual), at);
    t.accounted += uint64_t(residual);
  }
  t.carried = 0;
  flush(tid, t, at);
}

void OutsideSampler::finish() {
  if (finished_) return;
  finished_ = true;
  uint64_t now = clock_now(CLOCK_MONOTONIC);
  read_log();
  // Ended threads whose end line came after the last look; then the initial thread, from the
  // zombie's counts up to the collector's exit line (the process is not reaped yet).
  for (auto& [tid, f] : ends_) {
    auto it = tracks_.find(tid);
    if (it == tracks_.end()) continue;
    end_track(tid, it->second, f.at_ns, f.exec_ns, f.delay_ns);
    tracks_.erase(it);
  }
  ends_.clear();
  if (exit_at_ns_ && exit_at_ns_ <= now) {
    auto it = tracks_.find(uint32_t(pid_));
    auto st = it != tracks_.end() ? proc_->schedstat(uint32_t(pid_)) : std::nullopt;
    if (st) {
      end_track(uint32_t(pid_), it->second, exit_at_ns_, st->exec_ns, st->delay_ns);
      tracks_.erase(it);
    }
  }
  for (auto& [tid, t] : tracks_) close_track(tid, t, now);
  if (cpu_) cpu_->stop();
  if (!files_) return;
  if (start_and_end_samples_) overview_sample(format::kSampleEnd, now);
  files_->flush();
  // The whole tree's sampling cost, once, in the founder's log (collect's CPU, not the target's).
  char line[256];
  int n = std::snprintf(line, sizeof line,
                        "%llu sampler where=collect looks=%llu threads=%llu unwinds=%llu cpu_ns=%llu period_ns=%llu\n",
                        (unsigned long long)(now > start_mono_ns_ ? now - start_mono_ns_ : 0),
                        (unsigned long long)looks_, (unsigned long long)threads_seen_,
                        (unsigned long long)unwinds_, (unsigned long long)cpu_ns_, (unsigned long long)period_ns_);
  int fd = open((experiment_ + "/" + format::kLogFile).c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd >= 0) {
    if (write(fd, line, size_t(n)) != n) {
    }
    close(fd);
  }
}

}  // namespace erkit::collect::outside
