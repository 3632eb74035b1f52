#include "common/cli.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/version.h"

namespace erkit::common {

StandardOption find_standard_option(const std::vector<std::string>& args, size_t stop_at) {
  StandardOption found = StandardOption::None;
  for (size_t i = 0; i < args.size() && i < stop_at; ++i) {
    if (args[i] == "--") break;
    if (args[i] == "--help") return StandardOption::Help;
    if (args[i] == "--version") found = StandardOption::Version;
  }
  return found;
}

int handle_standard_options(const ToolInfo& tool, const std::vector<std::string>& args, FILE* out, size_t stop_at) {
  switch (find_standard_option(args, stop_at)) {
    case StandardOption::None: return -1;
    case StandardOption::Help:
      fmt::print(out, "{}", tool.usage);
      if (!tool.usage.empty() && tool.usage.back() != '\n') fmt::print(out, "\n");
      fmt::print(out, "  --help     print this help and exit\n  --version  print the version and exit\n"
                      "See also: man {}\n", tool.name);
      return 0;
    case StandardOption::Version: fmt::print(out, "{}: erkit {}\n", tool.name, ERKIT_VERSION); return 0;
  }
  return -1;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment distance, three rows.
  std::vector<size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    prev2.swap(prev);
    prev.swap(cur);
  }
  return prev[b.size()];
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty()) return {};
  // A unique prefix names its option.
  std::string prefixed;
  int prefixes = 0;
  for (const auto& c : candidates)
    if (c.size() > word.size() && c.compare(0, word.size(), word) == 0 && word.size() >= 3) {
      prefixed = c;
      ++prefixes;
    }
  if (prefixes == 1) return prefixed;
  // One- to three-letter words are too short to guess from (-q is not a typo of -V).
  size_t limit = word.size() >= 4 ? std::max<size_t>(1, word.size() / 3) : 0;
  std::string best;
  size_t best_d = limit + 1;
  for (const auto& c : candidates) {
    size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return limit > 0 && best_d <= limit && best != word ? best : std::string();
}

std::string unknown_option(std::string_view arg, const std::vector<std::string>& known) {
  std::vector<std::string> all = known;
  all.push_back("--help");
  all.push_back("--version");
  std::string m = fmt::format("unknown option '{}'", arg);
  if (std::string near = closest_match(arg, all); !near.empty()) m += fmt::format(" (did you mean '{}'?)", near);
  return m;
}

}  // namespace erkit::common
