#include "exporters/load.h"

#include "model/experiment_set.h"

namespace erkit::exporters {

bool load_experiments(model::Profile& p, const std::vector<std::string>& paths, std::vector<std::string>* warnings,
                      std::string* error) {
  model::LoadedSet set;
  // Descendant experiments (collect -F) are part of the profile, as in er_print (issue 15).
  model::LoadOptions options;
  options.descendants = true;
  for (const auto& path : paths) {
    bool ok = model::load_experiment_set(p, path, options, &set, error);
    warnings->insert(warnings->end(), set.warnings.begin(), set.warnings.end());
    set.warnings.clear();
    if (!ok) return false;
  }
  // Objects that could not be symbolised (each named once).
  for (const auto& pr : p.resolver().problems()) warnings->push_back(pr);
  return true;
}

}  // namespace erkit::exporters
