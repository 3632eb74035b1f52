#include "erprint/source_settings.h"

#include <fmt/format.h>

#include <cstdlib>

namespace erkit::erprint {

SourceSettings::SourceSettings() {
  // The shipped er.rc: scc basic, dcc basic:src, sthresh 75, dthresh 50, setpath $expts:.
  opts.scc = commentary::ComSpec{commentary::kBasic, false, true, false};
  opts.dcc = commentary::ComSpec{commentary::kBasic, false, true, false};
  opts.sthresh = 75;
  opts.dthresh = 50;
  opts.paths.search = {"$expts", "."};
}

bool parse_threshold(const std::string& v, double* out) {
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || end == v.c_str() || *end || !(d >= 0 && d <= 100)) return false;
  *out = d;
  return true;
}

std::string threshold_string(double v) { return fmt::format("{}", v); }

std::vector<std::string> apply_rc(const rcfile::RcDefaults& rc, SourceSettings* s) {
  std::vector<std::string> warnings;
  auto com = [&](const char* cmd, bool disasm, commentary::ComSpec* spec) {
    auto v = rc.get(cmd);
    if (!v) return;
    std::string error;
    if (!commentary::parse_com_spec(*v, disasm, spec, &error))
      warnings.push_back(fmt::format(".er.rc {}: {}; the default applies", cmd, error));
  };
  com("scc", false, &s->opts.scc);
  com("dcc", true, &s->opts.dcc);
  auto thresh = [&](const char* cmd, double* out) {
    auto v = rc.get(cmd);
    if (v && !parse_threshold(*v, out))
      warnings.push_back(fmt::format(".er.rc {}: '{}' is not a percentage (0-100); the default applies", cmd, *v));
  };
  thresh("sthresh", &s->opts.sthresh);
  thresh("dthresh", &s->opts.dthresh);
  auto& p = s->opts.paths;
  if (auto v = rc.get("setpath")) p.search = views::SourcePaths::split_path_list(*v);
  for (const auto& a : rc.addpath)
    for (auto& d : views::SourcePaths::split_path_list(a)) p.search.push_back(std::move(d));
  for (const auto& m : rc.pathmaps) p.pathmaps.push_back(m);
  return warnings;
}

}  // namespace erkit::erprint
