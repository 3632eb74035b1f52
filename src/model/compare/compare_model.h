// Comparing experiments (er_print's `compare on|off|delta|ratio`): the function list's
// metrics per side, where a side is one path given to er_print (an experiment, or a group of
// repeated runs). Functions are matched across sides by name and source file, not by address,
// so two builds of one program line up. For a side of several runs, each row carries the mean
// and the spread across runs, from which the noise of a difference is estimated.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/profile.h"

namespace erkit::model::compare {

enum class Mode { Off, On, Delta, Ratio };
std::optional<Mode> parse_mode(std::string_view s);
const char* mode_name(Mode m);

struct Column {
  char flavor;  // 'e' exclusive, 'i' inclusive
  uint32_t metric;
};

// One metric of one row on one side: over the side's runs.
struct SideStats {
  double mean = 0;  // per run (ns, bytes, counts)
  double sd = 0;    // sample standard deviation across runs (0 for one run)
  uint32_t runs = 0;
};

struct Row {
  std::string key;   // what matched the functions: name, and source file where needed
  FuncId func = 0;   // a function of the row (of the first side that has it), for its name
  std::vector<std::vector<SideStats>> cells;  // [column][side]
};

struct Table {
  uint32_t sides = 0;
  std::vector<uint32_t> runs;  // per side
  std::vector<Column> columns;
  std::vector<Row> rows;       // <Total> first, then rows with any non-zero value
};

// side_of[e] and run_of[e] for each experiment index e of p (er_print's Session::exp_side and
// exp_run). Runs are numbered across sides; experiments of one run (descendants) are summed.
Table build_function_table(const Profile& p, const std::vector<Column>& cols, const std::vector<uint32_t>& side_of,
                           const std::vector<uint32_t>& run_of);

// The key functions are matched by: the name alone where every function of that name has
// the same source file (or none: a stripped build matches a build with debug information),
// else the name and the source file's base name (static functions of one name in two files).
std::vector<std::string> match_keys(const FunctionTable& ft);

// Change of side k against the base side, and whether it exceeds the noise.
struct Change {
  double delta = 0;         // mean(k) - mean(base)
  std::optional<double> ratio;  // mean(k) / mean(base); none when the base is 0
  double noise = 0;         // 2 standard errors of the difference; 0 when no side has 2 runs
  bool has_noise = false;
  bool significant = false;  // has_noise and |delta| > noise
};
Change change(const SideStats& base, const SideStats& k);

}  // namespace erkit::model::compare
