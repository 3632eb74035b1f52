// Moved to source/source_files.h (issue 18: finding and reading source files is not a view);
// this forwarding header keeps the old name and namespace for code that includes it.
#pragma once
#include "source/source_files.h"

namespace erkit::views {
using source::find_source;
using source::FoundSource;
using source::read_lines;
using source::SourcePaths;
}  // namespace erkit::views
