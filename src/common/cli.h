// The GNU command-line conventions every erkit tool follows (issue 26), beside the manual's own
// forms (-V, collect with no arguments, er_print's -help):
//   --help     usage on stdout, exit 0          --version  "<tool>: erkit <version>", exit 0
//   --         ends the options                 errors name the tool and the bad argument,
//                                               with "did you mean" for a near miss.
#pragma once
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace erkit::common {

struct ToolInfo {
  std::string_view name;                // "er_src"
  std::string_view usage;               // the full usage text, first line "Usage: <name> ..."
  std::vector<std::string> options;     // the tool's options, for "did you mean"
};

// What the standard options ask for.
enum class StandardOption { None, Help, Version };

// Looks at the arguments before "--" (or before the first of `stop_at` when >= 0) for --help
// and --version. --help wins over --version, as in GNU tools.
StandardOption find_standard_option(const std::vector<std::string>& args, size_t stop_at = std::string::npos);

// Handles --help and --version (printing to `out`); returns -1 when neither was given, else the
// exit status (0).
int handle_standard_options(const ToolInfo& tool, const std::vector<std::string>& args, FILE* out = stdout,
                            size_t stop_at = std::string::npos);

// The candidate closest to `word` by edit distance, if close enough to be a likely typo
// (at most a third of the word's length, at least 1, and a unique prefix counts); else "".
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

// "unknown option '--hepl' (did you mean '--help'?)"; the standard --help and --version are
// candidates too.
std::string unknown_option(std::string_view arg, const std::vector<std::string>& known);

// Edit distance (insertions, deletions, substitutions, adjacent transpositions).
size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace erkit::common
