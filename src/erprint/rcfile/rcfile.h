// .er.rc processing: system er.rc, ~/.er.rc and ./.er.rc, with cwd > home > system
// precedence. dmetrics, dsort and addpath accumulate across all files (pathmap too, an
// addition of later Studio releases); for every other allowed command the first occurrence
// (in precedence order) wins.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace erkit::rcfile {

struct RcPaths {
  std::optional<std::filesystem::path> cwd;     // ./.er.rc
  std::optional<std::filesystem::path> home;    // ~/.er.rc
  std::optional<std::filesystem::path> system;  // <install>/lib/erkit/er.rc, given by the caller
};

// Paths for the current directory and $HOME, plus the caller's system file.
RcPaths standard_paths(const std::filesystem::path& system_rc);

enum class Consumer { ErPrint, ErSrc };  // er_src only honours scc and dcc

struct RcDefaults {
  std::string dmetrics;               // ':'-joined, highest precedence first
  std::string dsort;
  std::vector<std::string> addpath;   // highest precedence first
  std::vector<std::pair<std::string, std::string>> pathmaps;  // (old prefix, new prefix), highest first
  std::map<std::string, std::string> settings;  // first-wins commands by canonical name
  std::vector<std::pair<std::string, std::string>> mobj_defines;  // (name, expression); first per name
  std::vector<std::string> files_read;
  std::vector<std::string> warnings;  // "file:line: message"

  std::optional<std::string> get(std::string_view command) const;
  // setpath (default "$expts:.") followed by every addpath entry.
  std::string search_path() const;
};

// Commands allowed in .er.rc (canonical names).
bool allowed_in_rc(std::string_view command);

// Applies one file's text on top of d (which holds higher-precedence files already).
void process_rc_text(std::string_view text, std::string_view source, RcDefaults& d,
                     Consumer who = Consumer::ErPrint);

// Reads the files in precedence order; missing files are skipped, a file reachable by two
// names (running in $HOME) is read once.
RcDefaults load_rc(const RcPaths& paths, Consumer who = Consumer::ErPrint);

}  // namespace erkit::rcfile
