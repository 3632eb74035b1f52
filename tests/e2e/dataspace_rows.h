// Reading er_print's data_objects listings in the dataspace end-to-end tests.
#pragma once

#include <cstdlib>
#include <sstream>
#include <string>

namespace erkit::e2e {

// The first number of the line of `listing` that ends with `name`, -1 if none.
inline double data_row_value(const std::string& listing, const std::string& name) {
  std::istringstream in(listing);
  std::string line;
  while (std::getline(in, line))
    if (line.size() >= name.size() && line.compare(line.size() - name.size(), name.size(), name) == 0)
      return std::strtod(line.c_str(), nullptr);
  return -1;
}

}  // namespace erkit::e2e
