// Metrics of raw counters (issue 19): a counter collect -h knows by a raw name (a libpfm4 event
// of the PMU, "pmu::EVENT:UMASK", a sysfs event "pmu/event", a perf spelling "pmu/config=N/" or
// "r<hex>") has a function metric of its own like the named counters, named after the event
// (seed-spec §2.2: "er_print metric names: the counter alias or raw name"). The catalog keeps
// kRawCounterFirst..Last as slots; each is named once, the first time an experiment's counter
// of that name is met, and keeps its name for the life of the process (er_print, the analyzer).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace erkit::model {

// The metric name of a raw event, usable in er_print's metric lists: libpfm4's PMU prefix
// ("skl::") dropped, ':' (event:umask) written '.' as Intel's manuals do
// (INST_RETIRED:ANY_P -> INST_RETIRED.ANY_P), any other character outside [A-Za-z0-9_.-]
// ('/', '=', ',') written '_', runs of separators folded, none at either end. A name that
// would be a built-in metric's gets "raw_" before it.
std::string raw_counter_metric_name(std::string_view event);

// The metric of the counter an experiment's log names (its hwc line's name): the built-in
// counter metric of that name, else the raw-counter slot of raw_counter_metric_name(name),
// named now if it is new. kMetricCount when every slot is taken by other names (then the
// counter has no function metric; docs/counters.md).
uint32_t hwc_counter_metric(std::string_view log_name);

// The metric name of an experiment's counter as reports and metric lists spell it.
std::string hwc_counter_metric_name(std::string_view log_name);

// Grows by one each time a slot is named: er_print's metric catalog rebuilds its view then.
uint64_t raw_counter_generation();

}  // namespace erkit::model
