// libFuzzer entry: any input must parse or fail cleanly; parsed ones must round-trip.
#include <cstdlib>
#include <string>

#include "filter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace erkit::filter;
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto r = Expr::parse(text);
  if (auto* e = std::get_if<Expr>(&r)) {
    const uint32_t stack[] = {1, 2, 3};
    EventView ev;
    ev.stack_funcs = stack;
    (void)e->eval(ev);
    const std::string printed = e->to_string();
    auto again = Expr::parse(printed);
    if (!std::holds_alternative<Expr>(again) || std::get<Expr>(again).to_string() != printed) std::abort();
  }
  return 0;
}
