// Moved to source/code_index.h (issue 18: reading object code is not a view); this forwarding
// header keeps the old name and namespace for code that includes it.
#pragma once
#include "source/code_index.h"

namespace erkit::views {
using source::CodeIndexCache;
using source::CodeInstr;
using source::FunctionCode;
using source::ObjectCodeIndex;
}  // namespace erkit::views
