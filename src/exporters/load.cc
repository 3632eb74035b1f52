#include "exporters/load.h"

#include <fmt/format.h>

#include "exptools/experiment_files.h"
#include "reader/experiment.h"

namespace erkit::exporters {
namespace {

bool load_paths(model::Profile& p, const std::vector<std::string>& paths, std::vector<std::string>* warnings,
                std::string* error) {
  for (const auto& path : paths) {
    if (exptools::ends_with(path, ".erg")) {
      exptools::GroupFile g;
      if (!exptools::read_group(path, &g, error)) return false;
      if (!load_paths(p, g.paths, warnings, error)) return false;
      continue;
    }
    auto r = reader::open_experiment(path);
    if (!r.experiment) {
      *error = r.error;
      return false;
    }
    for (const auto& pr : r.experiment->problems)
      warnings->push_back(fmt::format("{}/{}: {}", r.experiment->path, pr.file, pr.message));
    if (r.experiment->incomplete_records)
      warnings->push_back(fmt::format("{}: {} incomplete records skipped", r.experiment->path,
                                      r.experiment->incomplete_records));
    // Descendant experiments (collect -F) are part of the profile, as in er_print (en_desc on).
    std::vector<std::string> descendants;
    for (const auto& d : r.experiment->descendants) {
      bool loaded = false;
      for (const auto& e : p.experiments()) loaded |= e.path == d;
      if (!loaded && d != r.experiment->path) descendants.push_back(d);
    }
    p.add_experiment(std::move(*r.experiment));
    if (!descendants.empty() && !load_paths(p, descendants, warnings, error)) {
      warnings->push_back(*error);
      error->clear();
    }
  }
  return true;
}

}  // namespace

bool load_experiments(model::Profile& p, const std::vector<std::string>& paths, std::vector<std::string>* warnings,
                      std::string* error) {
  if (!load_paths(p, paths, warnings, error)) return false;
  // Objects that could not be symbolised (each named once).
  for (const auto& pr : p.resolver().problems()) warnings->push_back(pr);
  return true;
}

}  // namespace erkit::exporters
