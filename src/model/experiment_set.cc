#include "model/experiment_set.h"

#include <fmt/format.h>

#include <algorithm>

#include "expfiles/experiment_files.h"
#include "model/hwc_abort.h"
#include "reader/experiment.h"

namespace erkit::model {

namespace {

// founder: the index of the experiment a descendant belongs to; -1 for a path given directly.
bool load_set(Profile& p, const std::string& path, const LoadOptions& o, LoadedSet* out, std::string* error,
              int64_t founder) {
  if (expfiles::ends_with(path, ".erg") && path.size() > 4) {
    expfiles::GroupFile g;
    if (!expfiles::read_group(path, &g, error)) {
      *error = fmt::format("{}: not an experiment group (first line must be '{}')", path, expfiles::kGroupHeader);
      return false;
    }
    for (const auto& m : g.paths)
      if (!load_set(p, m, o, out, error, -1)) return false;
    return true;
  }
  auto r = reader::open_experiment(path);
  if (!r.experiment) {
    *error = r.error;
    return false;
  }
  for (const auto& pr : r.experiment->problems)
    out->warnings.push_back(fmt::format("{}/{}: {}", r.experiment->path, pr.file, pr.message));
  if (r.experiment->incomplete_records)
    out->warnings.push_back(fmt::format("{}: {} records were left incomplete by the target's end and are skipped",
                                        r.experiment->path, r.experiment->incomplete_records));
  if (std::string w = hwc_abort_warning(*r.experiment); !w.empty()) out->warnings.push_back(w);  // issue 19
  std::vector<std::string> descendants = r.experiment->descendants;
  out->founders.resize(out->paths.size());
  out->founders.push_back(founder < 0 ? uint32_t(out->paths.size()) : uint32_t(founder));
  const int64_t self_founder = out->founders.back();
  out->paths.push_back(r.experiment->path);
  p.add_experiment(std::move(*r.experiment));
  if (o.descendants)
    for (const auto& d : descendants) {
      if (std::find(out->paths.begin(), out->paths.end(), d) != out->paths.end()) continue;
      if (!load_set(p, d, o, out, error, self_founder)) out->warnings.push_back(*error), error->clear();
    }
  return true;
}

}  // namespace

bool load_experiment_set(Profile& p, const std::string& path, const LoadOptions& o, LoadedSet* out, std::string* error) {
  return load_set(p, path, o, out, error, -1);
}

}  // namespace erkit::model
