// Lexical level of metric specs: split on ':' and take each keyword apart.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "metricspec.h"

namespace erkit::metricspec {

struct Keyword {
  std::string flavors;  // "ie" as written; empty for static keywords
  uint8_t vis = 0;      // VisBit set from . + %
  bool hidden = false;  // '!'
  bool vis_given = false;
  std::string name;
  size_t offset = 0;    // of the keyword in the spec
  size_t name_offset = 0;
  bool is_static() const { return flavors.empty(); }
};

std::variant<std::vector<Keyword>, SpecError> parse_keywords(std::string_view spec);

}  // namespace erkit::metricspec
