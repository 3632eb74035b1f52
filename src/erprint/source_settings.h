// The settings of the source views (seed-spec §7.6: scc, dcc, sthresh, dthresh, setpath,
// addpath, pathmap) and their object cache, one per session. They start from the built-in
// defaults (identical to the shipped er.rc) and take the .er.rc values (seed-spec §7.19):
// scc, dcc, sthresh, dthresh and setpath first-wins, addpath and pathmap accumulated.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rcfile.h"
#include "views/annotated_listing.h"
#include "views/code_index.h"
#include "views/source_view.h"

namespace erkit::erprint {

struct SourceSettings {
  SourceSettings();
  views::SourceOptions opts;
  views::CodeIndexCache code;
  // The line and PC metrics of every function (build_annotation_metrics without `keep`), the
  // same for each source and disasm report until the aggregates are built again
  // (Profile::generation): the analyzer shows one function's source after another.
  std::shared_ptr<views::AnnotationMetrics> annotation;
  uint64_t annotation_generation = 0;
};

// Applies the rc values to *s; returns a warning per value that does not parse (that setting
// keeps its built-in default).
std::vector<std::string> apply_rc(const rcfile::RcDefaults& rc, SourceSettings* s);

// Parses a threshold (a percentage, 0-100). False when v is not one.
bool parse_threshold(const std::string& v, double* out);
// The threshold as set: "75", "12.5".
std::string threshold_string(double v);

}  // namespace erkit::erprint
