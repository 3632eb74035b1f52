// Recursive-descent parser producing a detail::Program.
#pragma once

#include <string_view>
#include <variant>

#include "filter.h"
#include "program.h"

namespace erkit::filter::detail {

std::variant<Program, ParseError> parse_program(std::string_view text, const ParseOptions& opts);

// Regex check/compile shared by the parser (syntax check) and bind (matching).
bool regex_valid(const std::string& pattern, std::string* err);

int64_t eval_node(const Program& p, uint32_t idx, const EventView& e);

}  // namespace erkit::filter::detail
