// Loading the experiments named on a command line (experiments and .erg groups) into a
// Profile for the conversion tools: model::load_experiment_set (the loader er_print uses) over
// every path, then the symbolisation problems.
#pragma once
#include <string>
#include <vector>

#include "model/profile.h"

namespace erkit::exporters {

// Loads each path (a group loads its members). Problems found while reading are appended to
// `warnings`; returns false with *error for a path that is not an experiment or group.
bool load_experiments(model::Profile& p, const std::vector<std::string>& paths, std::vector<std::string>* warnings,
                      std::string* error);

}  // namespace erkit::exporters
