// Forwarding header (issue 18): src/exptools is now src/expfiles (experiment files: what a path
// is, .erg groups, copy/move/remove), namespace erkit::expfiles; erkit::exptools names it too.
#pragma once
#include "expfiles/utilities.h"

namespace erkit {
namespace exptools = expfiles;
}  // namespace erkit
