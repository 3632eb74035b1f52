#include "model/viewmode/view_mode.h"

namespace erkit::model {

bool parse_view_mode(const std::string& s, ViewMode* m) {
  if (s == "user") *m = ViewMode::kUser;
  else if (s == "expert") *m = ViewMode::kExpert;
  else if (s == "machine") *m = ViewMode::kMachine;
  else return false;
  return true;
}

const char* view_mode_name(ViewMode m) {
  return m == ViewMode::kUser ? "user" : m == ViewMode::kExpert ? "expert" : "machine";
}

}  // namespace erkit::model
