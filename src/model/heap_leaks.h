// Which heap allocations were never released by the end of the recording (seed-spec §2.4: a
// leak is any block not freed, referenced or not).
//
// Events come from many threads and are ordered by time; the collector stamps a release before
// the real call frees the block and an allocation after the real call returned it, so an address
// is released before it is handed out again even across threads. A realloc (or mremap) record
// is stamped at its end and carries its duration (`duration_ns`): its old block is released at
// the call's start, its new block obtained at the end.
#pragma once
#include <vector>

#include "format/experiment_format.h"

namespace erkit::model {

// Whether an event allocates (malloc family, realloc with a result, mmap, a Java object).
bool heap_allocates(const format::HeapEvent& h);
// leaked[i]: event i allocated a block that no later event released. `events` sorted by time.
std::vector<bool> leaked_allocations(const std::vector<format::HeapEvent>& events);

}  // namespace erkit::model
