// Text and JSON reports of the dataspace commands: data_objects, data_single, data_layout
// (seed-spec §7.7) and memobj (§7.8), in the manual's layouts.
#pragma once
#include <string>
#include <vector>

#include "dataspace/dataspace.h"
#include "views/json.h"

namespace erkit::dataspace {

struct DsReport {
  std::string text;
  json::Value data;
};

// data_sort (seed-spec §7.7): a data-derived metric by name ("" the first shown: descending),
// or the static "name" (ascending) or "size" (descending); reverse flips the order.
struct DataSort {
  std::string metric;
  bool reverse = false;
};
// The index into d.metrics() a sort uses (-1: by name or size).
int sort_metric(const Dataspace& d, const std::vector<std::string>& shown_metrics, const DataSort& sort);

// `metrics`: the metric names to show (empty: all); <Total> stays first whatever the sort.
DsReport render_data_objects(const Dataspace& d, const std::vector<std::string>& metrics, size_t limit,
                             const DataSort& sort = {});
// One object by name (or unique substring); *error when none or ambiguous without n.
DsReport render_data_single(const Dataspace& d, const std::string& name, int n, std::string* error);
// Aggregates in the sort's order; each aggregate's elements in offset order.
DsReport render_data_layout(const Dataspace& d, const std::vector<std::string>& metrics, const DataSort& sort = {});
// Indices of address-based types (`hex`) are shown in hex, those of index objects in decimal.
DsReport render_memobj(const Dataspace& d, const std::string& type, const std::vector<MemoryObjectRow>& rows,
                       size_t limit, bool hex = true, const DataSort& sort = {});

}  // namespace erkit::dataspace
