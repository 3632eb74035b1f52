#include "model/hwc_abort.h"

#include <fmt/format.h>

#include <set>
#include <utility>

namespace erkit::model {

std::string hwc_abort_warning(const reader::Experiment& e) {
  std::set<std::pair<uint32_t, uint32_t>> aborted;  // (tid, counter)
  std::set<uint32_t> threads;
  for (const auto& h : e.hwc)
    if (h.flags & format::kHwcFlagAbort) aborted.insert({h.tid, h.counter}), threads.insert(h.tid);
  if (aborted.empty()) return "";
  std::string reason;
  for (const auto& [t, text] : e.log.warnings)
    if (text.find("collector_hwc_ABORT") != std::string::npos) {
      reason = text;
      break;
    }
  return fmt::format("{}: hardware-counter collection aborted for {} counter{} of {} thread{} "
                     "(collector_hwc_ABORT); their counts after that are missing{}{}",
                     e.path, aborted.size(), aborted.size() == 1 ? "" : "s", threads.size(),
                     threads.size() == 1 ? "" : "s", reason.empty() ? "" : ": ", reason);
}

}  // namespace erkit::model
