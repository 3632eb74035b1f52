// Text from experiments and user input made safe to print (issue 15): a program name, a
// function name or a mistyped command may hold escape sequences that would reprogram the
// user's terminal (retitle it, hide text, move the cursor). Control characters other than
// newline and tab, DEL, the C1 controls and bytes that are not valid UTF-8 are shown as \xNN;
// valid UTF-8 text (accented names, CJK) is kept as it is.
#pragma once
#include <string>
#include <string_view>

namespace erkit::common {

std::string printable(std::string_view text);
// True if printable(text) would change nothing (the common case: no copy needed).
bool is_printable(std::string_view text);

}  // namespace erkit::common
