// The one experiment-set loader: experiments and .erg groups (members in turn, relative to the
// group file) read with reader::open_experiment and added to a Profile, with the same warnings
// for every tool (er_print, er_convert/er_export, the analyzer).
#pragma once
#include <string>
#include <vector>

#include "model/profile.h"

namespace erkit::model {

struct LoadOptions {
  bool descendants = false;  // also load each experiment's descendants (er_print's en_desc on)
};

struct LoadedSet {
  std::vector<std::string> paths;     // experiments loaded, in EXPID order
  std::vector<std::string> warnings;  // damage found while reading, one line each
  // Parallel to paths: the index (in paths) of the experiment each was loaded as a descendant
  // of, its own index for one given directly or in a group (runs of a comparison, compare_model.h).
  std::vector<uint32_t> founders;
};

// Loads `path` into p. Returns false with *error for a path that is neither an experiment nor
// a group (a group stops at its first bad member); a descendant that cannot be read is a
// warning. Experiments already in `out->paths` are not loaded again as descendants.
bool load_experiment_set(Profile& p, const std::string& path, const LoadOptions& o, LoadedSet* out, std::string* error);

}  // namespace erkit::model
