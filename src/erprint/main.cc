// er_print: text-mode analysis of experiments (seed-spec §7); see invocation.h.
#include <fmt/format.h>

#include <algorithm>

#include <filesystem>
#include <string>
#include <vector>

#include "common/progress.h"
#include "common/version.h"
#include "erprint/commands.h"
#include "erprint/interactive.h"
#include "erprint/invocation.h"
#include "erprint/session.h"
#include "common/terminal_text.h"
#include "rcfile.h"

using namespace erkit;
using namespace erkit::erprint;

namespace {

int fail(const std::string& m) {
  fmt::print(stderr, "er_print: {}\n", common::printable(m));
  return 1;
}

// .er.rc files: ./.er.rc, ~/.er.rc, then the system er.rc (or the built-in defaults when the
// installation has none).
rcfile::RcDefaults load_defaults() {
  const std::string sys = system_rc_path();
  rcfile::RcDefaults d = rcfile::load_rc(rcfile::standard_paths(sys));
  std::error_code ec;
  if (sys.empty() || !std::filesystem::is_regular_file(sys, ec))
    rcfile::process_rc_text(fmt::format("dmetrics {}\ndsort {}\n", kBuiltinDefaultMetrics, kBuiltinDefaultSort),
                            "(built-in defaults)", d);
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  Invocation inv = parse_invocation(std::vector<std::string>(argv + 1, argv + argc));
  if (!inv.error.empty()) return fail(inv.error + "\n" + kUsage);
  if (inv.help) {
    fmt::print("{}\n", kUsage);
    return 0;
  }
  if (inv.version) {
    fmt::print("er_print: erkit {}\n", ERKIT_VERSION);
    if (inv.experiments.empty()) return 0;
  }
  if (inv.experiments.empty()) {
    // help and version need no experiment.
    bool only_info = !inv.actions.empty();
    for (const auto& a : inv.actions) only_info &= a.kind == Action::Kind::Command && (a.text == "help" || a.text == "version");
    if (!only_info) return fail(fmt::format("no experiment given\n{}", kUsage));
    Session s;
    s.finish_loading();
    for (const auto& a : inv.actions) execute(s, a.text);
    return 0;
  }
  // Progress on a terminal while loading (common/progress.h); none for JSON output.
  common::Progress::set_tool("er_print");
  for (const auto& a : inv.actions)
    if (a.kind == Action::Kind::Command && a.text.rfind("outformat", 0) == 0 && a.text.find("json") != std::string::npos) common::Progress::disable();
  rcfile::RcDefaults rc = load_defaults();
  for (const auto& w : rc.warnings) fmt::print(stderr, "er_print: warning: {}\n", common::printable(w));
  Session s(std::move(rc));
  // Leading en_desc commands decide whether descendants are loaded at all (they are by
  // default); a later en_desc off deselects them instead.
  for (const auto& a : inv.actions) {
    if (a.kind != Action::Kind::Command || a.text.rfind("en_desc ", 0) != 0) break;
    std::string arg = a.text.substr(8);  // as the invocation quoted it
    arg.erase(std::remove_if(arg.begin(), arg.end(), [](char c) { return c == '"' || c == '\'' || c == ' '; }), arg.end());
    if (arg == "off" || arg == "on") s.en_desc = arg == "on";
  }
  for (const auto& e : inv.experiments) {
    std::string error;
    if (!s.load(e, &error)) return fail(error);
  }
  s.finish_loading();
  for (const auto& w : s.warnings) fmt::print(stderr, "er_print: warning: {}\n", common::printable(w));
  int status = 0;
  if (inv.actions.empty()) inv.actions.push_back({Action::Kind::Interactive, ""});
  for (const auto& a : inv.actions) {
    switch (a.kind) {
      case Action::Kind::Command: {
        s.input = InputMode::CommandLine;
        CommandResult r = execute(s, a.text);
        if (!r.ok) status = 1;
        if (r.quit) return status;
        break;
      }
      case Action::Kind::Script: {
        std::string error;
        if (!run_script_file(s, a.text, &error)) {
          fmt::print(stderr, "er_print: {}\n", common::printable(error));
          status = 1;
        }
        break;
      }
      case Action::Kind::Interactive:
        if (!run_interactive(s)) status = 1;
        break;
    }
  }
  return status;
}
