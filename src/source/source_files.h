// Finding source files for annotated listings (seed-spec §7.6 setpath/addpath, §10.4): the
// search path ($expts = the experiments' directories and their archives/), path maps
// (pathmap old-prefix new-prefix), then the path recorded by the compiler.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace erkit::source {

struct SourcePaths {
  std::vector<std::string> search = {"$expts", "."};  // setpath / addpath
  std::vector<std::pair<std::string, std::string>> pathmaps;  // (from prefix, to prefix)
  std::vector<std::string> experiments;  // directories $expts stands for, in load order

  // Parses a colon-separated list ('\:' escapes a colon; "$" alone means $expts).
  static std::vector<std::string> split_path_list(const std::string& list);
  std::string search_string() const;
};

struct FoundSource {
  std::string path;     // "" when not found
  std::string message;  // why not found, or a warning (newer than the object)
  std::vector<std::string> tried;
};

// Locates `recorded` (as DWARF names it; `comp_dir` resolves a relative name). `object`,
// when given, is compared by modification time: a newer source gets a warning.
FoundSource find_source(const SourcePaths& paths, const std::string& recorded, const std::string& comp_dir = "",
                        const std::string& object = "");

// The lines of a text file (without newlines); false if unreadable.
bool read_lines(const std::string& path, std::vector<std::string>* lines);

}  // namespace erkit::source
