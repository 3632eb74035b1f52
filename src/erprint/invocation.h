// er_print's command line (seed-spec §7.1):
//   er_print [-script file | -command [args] | - | -V | -json] ... experiment-list
// Options are kept in order; a -command takes the following words as its arguments (up to
// its maximum) until the next option that names a command, `-`, or an experiment.
#pragma once
#include <string>
#include <vector>

namespace erkit::erprint {

struct Action {
  enum class Kind { Command, Script, Interactive };
  Kind kind;
  std::string text;  // the command line, or the script path
};

struct Invocation {
  std::vector<Action> actions;
  std::vector<std::string> experiments;
  bool version = false;
  bool help = false;  // --help
  std::string error;  // non-empty: the command line is wrong
};

Invocation parse_invocation(const std::vector<std::string>& args);
// Something that names an experiment: *.er, *.er/, *.erg, or a directory with an erkit log.
bool looks_like_experiment(const std::string& arg);
extern const char* const kUsage;

}  // namespace erkit::erprint
