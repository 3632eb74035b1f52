// The page's files (src/analyzer/assets/), embedded in the binary at build time
// (embed_assets.cmake), so the analyzer needs no installed web root and serves nothing else.
#pragma once
#include <string_view>

namespace erkit::analyzer {

struct Asset {
  std::string_view name;  // "app.js"
  std::string_view type;  // "text/javascript; charset=utf-8"
  std::string_view data;
};

// The asset of that exact name, or nullptr (no path interpretation at all: "../x" is no name).
const Asset* find_asset(std::string_view name);

}  // namespace erkit::analyzer
