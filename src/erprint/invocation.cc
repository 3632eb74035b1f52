#include "erprint/invocation.h"

#include <fmt/format.h>

#include "common/cli.h"
#include "erprint/commands.h"
#include "erprint/session.h"
#include "reader/experiment.h"

namespace erkit::erprint {

const char* const kUsage =
    "Usage: er_print [-script file | -command [args] | - | -V | -json] ... experiment-list\n"
    "  -script file       run the commands in file\n"
    "  -command [args]    run one er_print command (e.g. -functions, -metrics e.%user, -limit 10)\n"
    "  -                  read commands from standard input (interactive on a terminal)\n"
    "  -V, -v, --version  print the version\n"
    "  -json              print every report as a JSON object (same as -outformat json)\n"
    "  --help             print this help\n"
    "  --                 ends the options: every later word is an experiment\n"
    "With no command, er_print is interactive. 'er_print -help' lists the commands; see also man er_print.";

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// An option word that starts a new action rather than being an argument.
bool is_option(const std::string& a) {
  if (a == "-" || a == "--" || a == "-script" || a == "-V" || a == "-v" || a == "-json") return true;
  if (a.size() < 2 || a[0] != '-') return false;
  std::string error;
  return find_command(a.substr(1), &error) != nullptr;
}

std::string quote(const std::string& a) {
  std::string out = "\"";
  for (char c : a) {
    if (c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

bool looks_like_experiment(const std::string& a) {
  return ends_with(a, ".er") || ends_with(a, ".er/") || ends_with(a, ".erg") || reader::is_experiment_dir(a);
}

Invocation parse_invocation(const std::vector<std::string>& args) {
  Invocation inv;
  size_t i = 0;
  bool after_dashes = false;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      after_dashes = true;
      ++i;
      break;
    } else if (a == "--help") {
      inv.help = true;
    } else if (a == "-V" || a == "-v" || a == "--version") {
      inv.version = true;
    } else if (a.size() > 2 && a[0] == '-' && a[1] == '-') {
      // GNU-style long spelling of a command (--functions): name the one meant.
      std::string error;
      const Command* c = find_command(a.substr(2), &error);
      inv.error = c && c->name.rfind(a.substr(2), 0) == 0
                      ? fmt::format("unknown option '{}' (did you mean '-{}'?)", a, c->name)
                      : common::unknown_option(a, {});  // --hepl: did you mean '--help'?
      return inv;
    } else if (a == "-") {
      inv.actions.push_back({Action::Kind::Interactive, ""});
    } else if (a == "-json") {
      inv.actions.push_back({Action::Kind::Command, "outformat json"});
    } else if (a == "-script") {
      if (i + 1 >= args.size()) {
        inv.error = "-script needs a file name";
        return inv;
      }
      inv.actions.push_back({Action::Kind::Script, args[++i]});
    } else if (a.size() > 1 && a[0] == '-') {
      std::string error;
      const Command* c = find_command(a.substr(1), &error);
      if (!c) {
        // A predefined memory-object type is a command too (types from .er.rc: -memobj T).
        bool memobj = false;
        for (const auto& [name, expr] : predefined_memobj_types()) memobj |= name == a.substr(1);
        if (memobj) {
          inv.actions.push_back({Action::Kind::Command, a.substr(1)});
          continue;
        }
        inv.error = error;
        return inv;
      }
      std::string line = c->name;
      int taken = 0;
      // Required arguments are taken even when they look like options ("-outfile -").
      while (taken < c->max_args && i + 1 < args.size() && !looks_like_experiment(args[i + 1]) &&
             (taken < c->min_args || !is_option(args[i + 1]))) {
        // Expressions go as written (their own quotes matter); other words are quoted.
        line += " " + (c->raw_after >= 0 && taken >= c->raw_after ? args[++i] : quote(args[++i]));
        ++taken;
      }
      inv.actions.push_back({Action::Kind::Command, line});
    } else {
      break;
    }
  }
  for (; i < args.size(); ++i) {
    if (!after_dashes && args[i].size() > 1 && args[i][0] == '-' && !looks_like_experiment(args[i])) {
      inv.error = fmt::format("'{}' comes after the experiment list; options and commands go before it", args[i]);
      return inv;
    }
    inv.experiments.push_back(args[i]);
  }
  return inv;
}

}  // namespace erkit::erprint
