#include "collect/experiment_log.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>

#include "collect/cpu_clock.h"
#include "collect/launch.h"
#include "common/text_escape.h"
#include "common/version.h"
#include "format/experiment_format.h"
#include "format/log_keys.h"

namespace erkit::collect {

using common::EventLine;
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace logset = format::log_setting;

ExperimentLog::ExperimentLog(std::string dir) : dir_(std::move(dir)) {}

void ExperimentLog::append(const std::string& line) {
  std::string path = dir_ + "/" + format::kLogFile;
  int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return;
  std::string l = line + "\n";
  ssize_t n = write(fd, l.data(), l.size());
  (void)n;
  close(fd);
}

void ExperimentLog::write_header(const Options& o, const LaunchContext& ctx) {
  append(fmt::format("{} {}", format::kLogMagic, format::kFormatVersion));
  std::string args;
  for (size_t i = 1; i < o.target.size(); ++i) args += (i > 1 ? " " : "") + o.target[i];
  append(EventLine(0, logev::kCollect)
             .kv(logkey::kVersion, ERKIT_VERSION)
             .kv_quoted(logkey::kCommand, ctx.command_line)
             .kv_quoted(logkey::kTarget, ctx.program_path)
             .kv_quoted(logkey::kArgs, args)
             .kv_quoted(logkey::kCwd, std::filesystem::current_path().string())
             .str());
  auto setting = [](const char* name) { return EventLine(0, logev::kSetting).kv(logkey::kName, name); };
  append(setting(logset::kClock).kv(logkey::kIntervalNs, o.clock_interval_ns).str());
  append(setting(logset::kSample).kv(logkey::kIntervalMs, o.sample_interval_ms).str());
  append(setting(logset::kHeap).kv(logkey::kOn, o.heap_trace ? 1 : 0).str());
  append(setting(logset::kSync).kv(logkey::kValue, o.sync_trace).str());
  append(setting(logset::kIo).kv(logkey::kOn, o.io_trace ? 1 : 0).str());
  append(setting(logset::kMpi).kv(logkey::kOn, o.mpi_trace ? 1 : 0).str());
  if (ctx.mpi_rank >= 0)
    append(EventLine(0, logev::kMpiRank).kv(logkey::kRank, ctx.mpi_rank).kv(logkey::kSource, "launcher").str());
  if (o.follow_regex.empty())
    append(setting(logset::kFollow).kv(logkey::kValue, o.follow == 0 ? "off" : o.follow == 1 ? "on" : "all").str());
  else
    append(setting(logset::kFollow).kv(logkey::kValue, "all").kv_quoted(logkey::kRegex, o.follow_regex).str());
  if (o.sample_signal) append(setting(logset::kSampleSignal).kv(logkey::kSignal, signal_name(o.sample_signal)).str());
  if (o.pause_signal)
    append(setting(logset::kPauseSignal)
               .kv(logkey::kSignal, signal_name(o.pause_signal))
               .kv(logkey::kInitially, o.pause_signal_resume ? "recording" : "paused")
               .str());
  if (o.stop_after_exec) append(setting(logset::kStopAfterExec).kv(logkey::kOn, 1).str());
  append(setting(logset::kArchive).kv(logkey::kValue, o.archive).str());
  append(setting(logset::kLimit).kv(logkey::kMb, o.size_limit_mb).str());
  for (const auto& l : hwc_log_lines(o.hwc)) append(l);
  // The CPUs' clock rate: er_print shows cycle-type counters as time with it (issue 19).
  if (std::string l = cpu_clock_log_line(probe_cpu_clock()); !l.empty()) append(l);
  if (o.clock_dataspace) append(setting(logset::kClockDataspace).kv(logkey::kOn, 1).str());
  if (!ctx.emulation.machine.empty())
    append(setting(logset::kEmulation)
               .kv(logkey::kMachine, ctx.emulation.machine)
               .kv_quoted(logkey::kEmulator, ctx.emulation.emulator)
               .kv_quoted(logkey::kSysroot, ctx.emulation.sysroot)
               .str());
  {
    std::string map = dir_ + "/" + format::kMapFile;
    int fd = open(map.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd >= 0) {
      std::string l = fmt::format("{} {}\n", format::kMapMagic, format::kFormatVersion);
      ssize_t n = write(fd, l.data(), l.size());
      (void)n;
      close(fd);
    }
  }
  if (!o.comments.empty()) write_notes(o.comments);
}

void ExperimentLog::write_notes(const std::vector<std::string>& comments) {
  std::string path = dir_ + "/" + format::kNotesFile;
  int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return;
  for (const auto& c : comments) {
    std::string l = c + "\n";
    ssize_t n = write(fd, l.data(), l.size());
    (void)n;
  }
  close(fd);
}

void ExperimentLog::write_target_pid(pid_t pid) { append(EventLine(0, logev::kTarget).kv(logkey::kPid, pid).str()); }

void ExperimentLog::write_end(int status) {
  EventLine end(0, logev::kEnd);
  if (WIFEXITED(status)) {
    end.kv(logkey::kHow, "exit").kv(logkey::kStatus, WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    end.kv(logkey::kHow, "signal").kv(logkey::kSignal, sig).kv(logkey::kName, signal_name(sig));
    if (WCOREDUMP(status)) end.kv(logkey::kCore, 1);
  } else {
    end.kv(logkey::kHow, "unknown");
  }
  append(end.str());
}

}  // namespace erkit::collect
