// Experiment naming (seed-spec §5.1): stem.N.er names advance to the first unused N; a name
// without the .N. part must not exist. The directory is created atomically with mkdir so
// concurrent collects (MPI ranks) never share one.
#pragma once
#include <string>

namespace erkit::collect {

struct NamingResult {
  std::string path;   // created experiment directory
  std::string error;  // set on failure
};

// `requested` may be empty (default test.1.er). `dir` may be empty (current directory).
NamingResult create_experiment_dir(const std::string& requested, const std::string& dir);
// The name that create_experiment_dir would choose, without creating it (for -n).
NamingResult preview_experiment_name(const std::string& requested, const std::string& dir);

}  // namespace erkit::collect
