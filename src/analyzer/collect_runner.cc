#include "analyzer/collect_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

extern char** environ;

namespace erkit::analyzer {

namespace {

bool matches(const std::string& v, const char* re) { return std::regex_match(v, std::regex(re)); }

// Adds "-o value" when the field is set and matches collect's grammar for it.
bool option(std::vector<std::string>* argv, const char* opt, const std::string& v, const char* re, const char* field,
            std::string* error) {
  if (v.empty()) return true;
  if (!matches(v, re)) {
    *error = fmt::format("{} ({}): '{}' is not a value collect takes", field, opt, v);
    return false;
  }
  argv->push_back(opt);
  argv->push_back(v);
  return true;
}

}  // namespace

std::string experiment_name(const CollectRequest& req, const std::string& dir, std::string* error) {
  if (!req.name.empty()) {
    std::string n = req.name;
    if (n.size() < 3 || n.compare(n.size() - 3, 3, ".er") != 0) n += ".er";
    if (!matches(n, R"([A-Za-z0-9_][A-Za-z0-9_.+-]*\.er)")) {
      *error = fmt::format("experiment name '{}': letters, digits and _.+- only, no directories", req.name);
      return "";
    }
    return n;
  }
  std::error_code ec;
  for (int n = 1; n < 100000; ++n) {
    std::string name = fmt::format("test.{}.er", n);
    if (!std::filesystem::exists(std::filesystem::path(dir) / name, ec)) return name;
  }
  *error = "no free test.N.er name";
  return "";
}

bool collect_command(const CollectRequest& req, const std::string& dir, std::vector<std::string>* argv,
                     std::string* error) {
  argv->assign({"collect"});
  if (req.target.empty()) {
    *error = "no target program";
    return false;
  }
  if (req.target[0] == '-') {
    *error = fmt::format("target '{}' starts with '-'", req.target);
    return false;
  }
  const std::string name = experiment_name(req, dir, error);
  if (name.empty()) return false;
  if (!option(argv, "-p", req.clock, R"(off|on|lo|low|hi|high|[0-9]+(\.[0-9]+)?[mu]?(,\+)?)", "clock profiling", error) ||
      !option(argv, "-h", req.hwc, R"([+]?[A-Za-z0-9_.:~=-]+(,[+]?[A-Za-z0-9_.:~=-]+)*)", "hardware counters", error) ||
      !option(argv, "-s", req.sync, R"(on|off|calibrate|all|[0-9]+)", "synchronization tracing", error) ||
      !option(argv, "-H", req.heap, R"(on|off)", "heap tracing", error) ||
      !option(argv, "-i", req.io, R"(on|off)", "I/O tracing", error) ||
      !option(argv, "-S", req.samples, R"(on|off|[0-9]+(\.[0-9]+)?)", "periodic samples", error) ||
      !option(argv, "-F", req.descendants, R"(on|off|all)", "descendants", error) ||
      !option(argv, "-j", req.java, R"(on|off)", "Java profiling", error) ||
      // One argv word (no shell): any printable text, collect splits it into JVM arguments.
      !option(argv, "-J", req.java_args, R"([^\x00-\x1f\x7f]+)", "JVM arguments", error) ||
      !option(argv, "-g", req.group, R"([A-Za-z0-9_][A-Za-z0-9_.+-]*\.erg)", "experiment group", error) ||
      !option(argv, "-A", req.archive, R"(on|off|copy)", "archive", error))
    return false;
  if (req.signals) {
    // ",r": recording starts resumed (without it collect starts paused, as Studio's -y).
    argv->insert(argv->end(), {"-y", std::string(kPauseSignal) + ",r", "-l", kSampleSignal});
  }
  argv->insert(argv->end(), {"-d", dir, "-o", name, req.target});
  argv->insert(argv->end(), req.args.begin(), req.args.end());
  return true;
}

std::string shell_quote_command(const std::vector<std::string>& argv) {
  std::string o;
  for (const auto& w : argv) {
    if (!o.empty()) o += ' ';
    if (!w.empty() && matches(w, R"([A-Za-z0-9_@%+=:,./-]+)")) {
      o += w;
      continue;
    }
    o += '\'';
    for (char c : w) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
    o += '\'';
  }
  return o;
}

CollectRunner::~CollectRunner() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (st_.running && st_.pid > 0) kill(st_.pid, SIGTERM);
  }
  if (thread_.joinable()) thread_.join();
}

bool CollectRunner::start(const std::string& program, const std::vector<std::string>& argv, const std::string& dir,
                          const std::string& experiment, std::string* error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (st_.running) {
    *error = "a collect run is in progress";
    return false;
  }
  if (thread_.joinable()) thread_.join();  // the last run's reader has finished
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    *error = fmt::format("pipe: {}", std::strerror(errno));
    return false;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  // Nothing of the server's goes along: its listening and connection sockets are not
  // close-on-exec (cpp-httplib), so they are closed in the child.
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);
  // The server blocks its stop signals for the watcher thread; the child gets them back.
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> av;
  for (const auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
  av.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, program.c_str(), &fa, &at, av.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    *error = fmt::format("cannot run {}: {}", program, std::strerror(rc));
    return false;
  }
  st_ = Status{};
  st_.started = st_.running = true;
  st_.pid = pid;
  st_.argv = argv;
  st_.experiment = experiment;
  thread_ = std::thread([this, fd = fds[0]] { reader(fd); });
  return true;
}

void CollectRunner::reader(int fd) {
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::lock_guard<std::mutex> lock(mu_);
    st_.output.append(buf, size_t(n));
  }
  close(fd);
  pid_t pid;
  {
    std::lock_guard<std::mutex> lock(mu_);
    pid = st_.pid;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::lock_guard<std::mutex> lock(mu_);
  st_.running = false;
  if (WIFEXITED(status)) st_.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) st_.term_signal = WTERMSIG(status);
}

CollectRunner::Status CollectRunner::status(size_t from) {
  std::lock_guard<std::mutex> lock(mu_);
  Status s = st_;
  s.output_end = st_.output.size();
  s.output = from < st_.output.size() ? st_.output.substr(from) : std::string();
  return s;
}

// collect forks the target: its one child (Linux's /proc/PID/task/PID/children).
pid_t CollectRunner::target_pid() {
  std::ifstream in(fmt::format("/proc/{}/task/{}/children", st_.pid, st_.pid));
  pid_t child = 0;
  if (in >> child) return child;
  return 0;
}

namespace {

// Whether process pid has a handler for sig (the SigCgt mask of /proc/PID/status).
bool catches(pid_t pid, int sig) {
  std::ifstream in(fmt::format("/proc/{}/status", pid));
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("SigCgt:", 0) != 0) continue;
    const uint64_t mask = std::strtoull(line.c_str() + 7, nullptr, 16);
    return (mask >> (sig - 1)) & 1;
  }
  return false;
}

}  // namespace

bool CollectRunner::signal(const std::string& what, std::string* error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!st_.running) {
    *error = "no collect run is in progress";
    return false;
  }
  int sig = 0;
  if (what == "pause" || what == "resume") sig = SIGUSR1;
  else if (what == "sample") sig = SIGUSR2;
  else {
    *error = fmt::format("unknown signal request '{}' (pause, resume or sample)", what);
    return false;
  }
  if (std::find(st_.argv.begin(), st_.argv.end(), "-y") == st_.argv.end()) {
    *error = "this run was started without the pause/resume and sample signals";
    return false;
  }
  pid_t t = target_pid();
  if (t <= 0) {
    *error = "the target is not running (yet); try again";
    return false;
  }
  // Only once the collector in the target catches the signal (SigCgt of /proc/PID/status):
  // sent earlier, its default action would end the target.
  if (!catches(t, sig)) {
    *error = "the target does not catch the signal yet (the collector is starting); try again";
    return false;
  }
  if (kill(t, sig) != 0) {
    *error = fmt::format("kill {}: {}", t, std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace erkit::analyzer
