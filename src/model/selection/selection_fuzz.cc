// libFuzzer entry: parse, apply to a small state, and check the canonical text re-parses.
#include <cstdlib>
#include <string>

#include "selection.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace erkit::selection;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto r = parse_selection(text);
  if (auto* s = std::get_if<SelectionSpec>(&r)) {
    if (!std::holds_alternative<SelectionSpec>(parse_selection(s->to_string()))) std::abort();
    SelectionState st(4);
    (void)st.apply(Target::Threads, *s);
    (void)st.to_string(Target::Threads);
  }
  return 0;
}
