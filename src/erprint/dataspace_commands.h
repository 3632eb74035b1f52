// er_print's dataspace and memory-object reports (seed-spec §7.7, §7.8) over the records of
// collect -h +counter and -p on,+ (src/dataspace/).
#pragma once
#include <string>
#include <vector>

#include "erprint/commands.h"

namespace erkit::erprint {

CommandResult run_data_objects(Session& s);
CommandResult run_data_single(Session& s, const std::vector<std::string>& a);
CommandResult run_data_layout(Session& s);
CommandResult run_memobj(Session& s, const std::string& type, const std::string& expr);
// data_metrics with a spec: the data-derived metric names to show ("d.page-faults:d.dclock").
void set_data_metrics(Session& s, const std::vector<std::string>& names);
// data_sort: the metric (data-derived name, or "name"/"size") the data lists sort by.
void set_data_sort(Session& s, const std::string& metric, bool reverse);
// Whether `name` is a data-derived metric of the loaded experiments ("page-faults", "dclock").
bool data_metric_known(Session& s, const std::string& name);
// What the data lists use now, as data_metrics / data_sort take it (issue 19): the metrics
// shown ("d+page-faults:d%page-faults:name"; '.' for times, '+' for counts) and the sort
// ("d+page-faults", "-name"; by default the first metric shown).
std::string current_data_metrics(Session& s);
std::string current_data_sort(Session& s);
// Whether the loaded experiments hold dataspace records.
bool has_dataspace(Session& s);

}  // namespace erkit::erprint
