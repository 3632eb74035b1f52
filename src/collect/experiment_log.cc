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

namespace erkit::collect {

using common::quote_value;

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
  append(fmt::format("0 collect version={} command={} target={} args={} cwd={}", ERKIT_VERSION,
                     quote_value(ctx.command_line), quote_value(ctx.program_path), quote_value(args),
                     quote_value(std::filesystem::current_path().string())));
  append(fmt::format("0 setting name=clock interval_ns={}", o.clock_interval_ns));
  append(fmt::format("0 setting name=sample interval_ms={}", o.sample_interval_ms));
  append(fmt::format("0 setting name=heap on={}", o.heap_trace ? 1 : 0));
  append(fmt::format("0 setting name=sync value={}", o.sync_trace));
  append(fmt::format("0 setting name=io on={}", o.io_trace ? 1 : 0));
  append(fmt::format("0 setting name=mpi on={}", o.mpi_trace ? 1 : 0));
  if (ctx.mpi_rank >= 0) append(fmt::format("0 mpi_rank rank={} source=launcher", ctx.mpi_rank));
  if (o.follow_regex.empty())
    append(fmt::format("0 setting name=follow value={}", o.follow == 0 ? "off" : o.follow == 1 ? "on" : "all"));
  else
    append(fmt::format("0 setting name=follow value=all regex={}", quote_value(o.follow_regex)));
  if (o.sample_signal) append(fmt::format("0 setting name=sample_signal signal={}", signal_name(o.sample_signal)));
  if (o.pause_signal)
    append(fmt::format("0 setting name=pause_signal signal={} initially={}", signal_name(o.pause_signal),
                       o.pause_signal_resume ? "recording" : "paused"));
  if (o.stop_after_exec) append("0 setting name=stop_after_exec on=1");
  append(fmt::format("0 setting name=archive value={}", o.archive));
  append(fmt::format("0 setting name=limit mb={}", o.size_limit_mb));
  for (const auto& l : hwc_log_lines(o.hwc)) append(l);
  // The CPUs' clock rate: er_print shows cycle-type counters as time with it (issue 19).
  if (std::string l = cpu_clock_log_line(probe_cpu_clock()); !l.empty()) append(l);
  if (o.clock_dataspace) append("0 setting name=clock_dataspace on=1");
  if (!ctx.emulation.machine.empty())
    append(fmt::format("0 setting name=emulation machine={} emulator={} sysroot={}", ctx.emulation.machine,
                       quote_value(ctx.emulation.emulator), quote_value(ctx.emulation.sysroot)));
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

void ExperimentLog::write_target_pid(pid_t pid) { append(fmt::format("0 target pid={}", pid)); }

void ExperimentLog::write_end(int status) {
  if (WIFEXITED(status)) {
    append(fmt::format("0 end how=exit status={}", WEXITSTATUS(status)));
  } else if (WIFSIGNALED(status)) {
    append(fmt::format("0 end how=signal signal={} name={}{}", WTERMSIG(status), signal_name(WTERMSIG(status)),
                       WCOREDUMP(status) ? " core=1" : ""));
  } else {
    append("0 end how=unknown");
  }
}

}  // namespace erkit::collect
