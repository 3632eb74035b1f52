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

// `metrics`: the metric names to show (empty: all), `sort`: the metric to sort by ("" the first).
DsReport render_data_objects(const Dataspace& d, const std::vector<std::string>& metrics, size_t limit);
// One object by name (or unique substring); *error when none or ambiguous without n.
DsReport render_data_single(const Dataspace& d, const std::string& name, int n, std::string* error);
DsReport render_data_layout(const Dataspace& d, const std::vector<std::string>& metrics);
// Indices of address-based types (`hex`) are shown in hex, those of index objects in decimal.
DsReport render_memobj(const Dataspace& d, const std::string& type, const std::vector<MemoryObjectRow>& rows,
                       size_t limit, bool hex = true);

}  // namespace erkit::dataspace
