// The load-object map: which objects are mapped where, and when. Written at start and after
// every dlopen/dlclose by comparing the loader's list with the last one recorded.
// Not signal-safe.
#pragma once

namespace erkit::collector {
void load_map_refresh();
// In a forked child that opens its own experiment: every object must be recorded again there.
void load_map_forget();
}  // namespace erkit::collector
