// er_print: text-mode analysis of experiments (seed-spec §7).
//   er_print [-script file | -command [args] | - | -V] experiment-list
#include <fmt/format.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "common/version.h"
#include "erprint/commands.h"
#include "erprint/session.h"

using namespace erkit::erprint;

namespace {

struct Invocation {
  std::vector<std::string> command_lines;  // in order
  std::vector<std::string> experiments;
  bool interactive = false;
  bool version = false;
};

bool is_experiment_arg(const std::string& a) {
  return (a.size() > 3 && a.substr(a.size() - 3) == ".er") || (a.size() > 4 && a.substr(a.size() - 4) == ".erg") ||
         (a.size() > 4 && a.substr(a.size() - 4) == ".er/");
}

// Reads a script, joining lines that end with a backslash.
bool read_script(std::istream& in, std::vector<std::string>* lines) {
  std::string line, pending;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\\') {
      pending += line.substr(0, line.size() - 1);
      continue;
    }
    lines->push_back(pending + line);
    pending.clear();
  }
  if (!pending.empty()) lines->push_back(pending);
  return true;
}

int fail(const std::string& m) {
  fmt::print(stderr, "er_print: {}\n", m);
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Invocation inv;
  std::vector<std::string> args(argv + 1, argv + argc);
  // Commands given as -name come before the experiment list; a command's arguments are the
  // words that follow it up to the next -option or experiment name.
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-V" || a == "-v") {
      inv.version = true;
    } else if (a == "-") {
      inv.interactive = true;
    } else if (a == "-script") {
      if (i + 1 >= args.size()) return fail("-script needs a file name");
      std::ifstream in(args[++i]);
      if (!in) return fail(fmt::format("cannot read script '{}'", args[i]));
      read_script(in, &inv.command_lines);
    } else if (a.size() > 1 && a[0] == '-') {
      std::string error;
      const Command* c = find_command(a.substr(1), &error);
      if (!c) return fail(error);
      std::string line = c->name;
      int taken = 0;
      while (taken < c->max_args && i + 1 < args.size() && !is_experiment_arg(args[i + 1]) &&
             !(args[i + 1].size() > 1 && args[i + 1][0] == '-' && taken >= c->min_args)) {
        line += " \"" + args[++i] + "\"";
        ++taken;
      }
      inv.command_lines.push_back(line);
    } else {
      break;
    }
  }
  for (; i < args.size(); ++i) inv.experiments.push_back(args[i]);
  if (inv.version) {
    fmt::print("er_print: erkit {}\n", ERKIT_VERSION);
    if (inv.experiments.empty()) return 0;
  }
  if (inv.experiments.empty()) return fail("no experiment given\nUsage: er_print [-script file | -command [args] | - | -V] experiment-list");
  Session s;
  for (const auto& e : inv.experiments) {
    std::string error;
    if (!s.load(e, &error)) return fail(error);
  }
  s.finish_loading();
  for (const auto& w : s.warnings) fmt::print(stderr, "er_print: warning: {}\n", w);
  int status = 0;
  for (const auto& line : inv.command_lines) {
    CommandResult r = run_command_line(s, line);
    if (!r.ok) {
      fmt::print(stderr, "er_print: {}\n", r.error);
      status = 1;
    }
    if (r.quit) return status;
  }
  if (inv.command_lines.empty() || inv.interactive) {
    bool tty = isatty(0);
    std::string line, pending;
    while (true) {
      if (tty) fmt::print("(er_print) "), std::fflush(stdout);
      if (!std::getline(std::cin, line)) break;
      if (!line.empty() && line.back() == '\\') {
        pending += line.substr(0, line.size() - 1);
        continue;
      }
      CommandResult r = run_command_line(s, pending + line);
      pending.clear();
      if (!r.ok) {
        fmt::print(stderr, "er_print: {}\n", r.error);
        if (!tty) status = 1;
      }
      if (r.quit) break;
    }
  }
  return status;
}
