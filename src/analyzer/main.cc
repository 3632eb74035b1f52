// analyzer: the Performance Analyzer as a local web application (docs/analyzer.md).
//   analyzer [--port N] [--no-browser] experiment...
// Serves the page on 127.0.0.1, prints its URL (with the session's random token) and opens a
// browser when there is a display.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "analyzer/er_model.h"
#include "analyzer/security.h"
#include "analyzer/server.h"
#include "common/cli.h"
#include "common/terminal_text.h"
#include "common/version.h"

extern char** environ;

using namespace erkit;

namespace {

constexpr std::string_view kUsage =
    "Usage: analyzer [options] experiment...\n"
    "       analyzer [options] [collect options] target [target arguments]\n"
    "Serves the Performance Analyzer for the experiments (directories test.N.er, groups .erg,\n"
    "descendants as er_print takes them) on 127.0.0.1 and prints its URL. Given a program\n"
    "instead, it opens the Collect window filled in with it, its arguments and the collect\n"
    "options -p -h -s -H -i -S -F -o -j -J -g -A.\n"
    "  --port N       listen on port N (default: a free port)\n"
    "  --no-browser   do not open a browser (the URL is printed either way)\n"
    "  -V             print the version (as --version)\n"
    "  -h             print this help (as --help); -h COUNTERS before a target is collect's\n"
    "Every request must carry the random token of the printed URL (docs/analyzer.md).\n";

int fail(const std::string& m) {
  fmt::print(stderr, "analyzer: {}\n", common::printable(m));
  return 2;
}

// Opens the URL with xdg-open when a display is there; never waits for it.
void open_browser(const std::string& url) {
  if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY")) return;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  std::string prog = "xdg-open";
  char* argv[] = {prog.data(), const_cast<char*>(url.c_str()), nullptr};
  pid_t pid = 0;
  if (posix_spawnp(&pid, "xdg-open", &fa, nullptr, argv, environ) != 0)
    fmt::print(stderr, "analyzer: no browser opened (xdg-open not found); open the URL above\n");
  posix_spawn_file_actions_destroy(&fa);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const std::vector<std::string> known = {"--port", "--no-browser", "-V", "--version", "-h", "--help"};
  common::ToolInfo info{"analyzer", kUsage, known};
  if (int rc = common::handle_standard_options(info, args); rc >= 0) return rc;
  int port = 0;
  bool browser = true;
  std::vector<std::string> experiments;
  bool options_done = false;
  analyzer::CollectRequest collect;
  bool collect_mode = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (collect_mode) {
      collect.args.push_back(a);
      continue;
    }
    if (options_done || a.empty() || a[0] != '-') {
      // The first word that is no experiment is a target: it and the rest are the Collect
      // window's program and arguments.
      std::error_code ec;
      if (experiments.empty() && !std::filesystem::is_directory(a, ec) && !a.ends_with(".erg") &&
          !a.ends_with(".er") && !a.ends_with(".er/")) {
        collect_mode = true;
        collect.target = a;
        continue;
      }
      experiments.push_back(a);
      continue;
    }
    if (std::string* field = a == "-p" ? &collect.clock : (a == "-h" && i + 1 < args.size()) ? &collect.hwc : a == "-s" ? &collect.sync
                             : a == "-H" ? &collect.heap : a == "-i" ? &collect.io : a == "-S" ? &collect.samples
                             : a == "-F" ? &collect.descendants : a == "-o" ? &collect.name
                             : a == "-j" ? &collect.java : a == "-J" ? &collect.java_args : a == "-g" ? &collect.group
                             : a == "-A" ? &collect.archive : nullptr) {
      if (i + 1 >= args.size()) return fail(fmt::format("{} needs a value (collect's option)", a));
      *field = args[++i];
      continue;
    }
    if (a == "--") {
      options_done = true;
    } else if (a == "-h") {
      fmt::print("{}", kUsage);
      return 0;
    } else if (a == "-V") {
      fmt::print("analyzer: erkit {}\n", ERKIT_VERSION);
      return 0;
    } else if (a == "--no-browser") {
      browser = false;
    } else if (a == "--port" || a.rfind("--port=", 0) == 0) {
      std::string v;
      if (a == "--port") {
        if (i + 1 >= args.size()) return fail("--port needs a port number");
        v = args[++i];
      } else {
        v = a.substr(7);
      }
      char* end = nullptr;
      long p = std::strtol(v.c_str(), &end, 10);
      if (v.empty() || *end || p < 1 || p > 65535) return fail(fmt::format("--port: '{}' is not a port number (1-65535)", v));
      port = int(p);
    } else {
      return fail(common::unknown_option(a, known) + "\n" + std::string(kUsage));
    }
  }
  if (experiments.empty() && !collect_mode) return fail("no experiment given\n" + std::string(kUsage));
  for (const auto& e : experiments) {
    std::error_code ec;
    if (!std::filesystem::is_directory(e, ec) && !std::filesystem::is_regular_file(e, ec))
      return fail(fmt::format("'{}' is not an experiment", e));
  }
  if (collect_mode) {
    std::string why;
    std::vector<std::string> words;
    std::error_code ec;
    if (!analyzer::collect_command(collect, std::filesystem::current_path(ec).string(), &words, &why))
      return fail(why);
  }

  analyzer::ErModel model;
  std::string error;

  // SIGINT/SIGTERM end the server cleanly; blocked here so that only the watcher takes them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  analyzer::AnalyzerServer server(model, analyzer::random_token());
  // collect is installed beside the analyzer (build/bin, $prefix/bin).
  std::error_code ec;
  server.set_collect((std::filesystem::read_symlink("/proc/self/exe", ec).parent_path() / "collect").string(), collect);
  if (!server.bind(port, &error)) return fail(error);
  // The experiments are read while the browser starts and loads the page (its files need no
  // experiment); the API's requests wait for the load (docs/performance.md, section 10).
  if (!experiments.empty()) model.start_loading();
  fmt::print("analyzer: {}\n", server.url());
  std::fflush(stdout);
  if (browser) open_browser(server.url());

  // Then the reports of the first screen and of every tab, computed ahead of the page's
  // requests (kept until a setting changes; the page's own requests go first).
  std::thread warm;
  if (!experiments.empty())
    warm = std::thread([&] {
      std::string why;
      if (!model.load(experiments, &why)) {
        // Nothing to serve: the message and exit status of a bad experiment, at once (the
        // server may not listen yet, so it cannot be stopped in order).
        fmt::print(stderr, "analyzer: {}\n", common::printable(why));
        std::fflush(stderr);
        _exit(2);
      }
      for (const auto& w : model.warnings()) fmt::print(stderr, "analyzer: warning: {}\n", common::printable(w));
      // First what the first screen shows (the function list), then what a click needs at once
      // (callers and callees, the line and PC metrics of Source and Disassembly), then which
      // tabs apply and the other tabs' reports.
      model.prewarm({"functions", "#edges", "#annotation", "#swap", "experiment_list", "leaks", "data_objects", "overview",
                     "calltree", "statistics", "header", "objects", "lines", "pcs"},
                    20000);
      model.prewarm_selections();
    });
  std::thread watcher([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    server.stop();
  });
  server.serve();
  // serve() also returns when listening fails; wake the watcher so it can be joined.
  pthread_kill(watcher.native_handle(), SIGTERM);
  watcher.join();
  model.stop_prewarm();
  if (warm.joinable()) warm.join();
  return 0;
}
