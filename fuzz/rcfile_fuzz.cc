// libFuzzer target: .er.rc processing. Any text, read as the cwd, home or system file, for
// er_print and er_src, must be processed without crashing; the accumulated defaults must be
// queryable afterwards.
#include <string>

#include "rcfile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace erkit::rcfile;
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (Consumer who : {Consumer::ErPrint, Consumer::ErSrc}) {
    RcDefaults d;
    process_rc_text(text, "./.er.rc", d, who);
    process_rc_text(text, "~/.er.rc", d, who);  // a second file on top: accumulation rules
    (void)d.search_path();
    for (const char* c : {"dmetrics", "dsort", "scc", "dcc", "sthresh", "dthresh", "name", "limit"}) (void)d.get(c);
  }
  return 0;
}
