// Helpers shared by the exporters: names as er_print shows them, metric units, JSON text,
// and a walk over every event with its resolved stack.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "model/event_source.h"
#include "model/profile.h"
#include "views/function_views.h"

namespace erkit::exporters {

// The unit word of a metric's integer values: "nanoseconds", "bytes" or "count".
const char* unit_word(uint32_t metric);

// Appends s as a JSON string literal (quoted, escaped; invalid UTF-8 becomes U+FFFD).
void append_json_string(std::string* out, std::string_view s);
std::string json_string(std::string_view s);

// Every event of every experiment in time order per experiment, with its resolved stack (leaf
// first). `exp` is the 0-based experiment index.
void for_each_resolved_event(
    const model::Profile& p,
    const std::function<void(uint32_t exp, const model::EventRecord& ev, const model::ResolvedStack& stack)>& fn);

// A process id for experiment `exp`: its recorded pid, or exp+1 when unknown.
int64_t process_id(const model::Profile& p, uint32_t exp);

}  // namespace erkit::exporters
