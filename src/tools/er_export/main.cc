// er_export [-V] [-d] experiment...: the raw contents of experiments as readable text
// (seed-spec §11), for when the analysis tools cannot read one. Descendant experiments are
// dumped too (-D leaves them out).
#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <vector>

#include "common/cli.h"
#include "common/terminal_text.h"
#include "common/version.h"
#include "exporters/raw_dump.h"

namespace {
const char* kUsage =
    "Usage: er_export [-V] [-d|-D] experiment...\n"
    "  -d      also dump the descendant experiments (the default)\n"
    "  -D      do not dump the descendant experiments\n"
    "  -V, -v  print the version\n"
    "  --      ends the options\n";
const std::vector<std::string> kOptions = {"-d", "-D", "-V", "-v"};

// Standard output with every complete line escaped (names in an experiment may hold terminal
// escape sequences); a line is escaped whole so that UTF-8 split between writes stays intact.
struct EscapingOut {
  std::string pending;
};

ssize_t escaping_write(void* cookie, const char* buf, size_t size) {
  auto* o = static_cast<EscapingOut*>(cookie);
  o->pending.append(buf, size);
  size_t end = o->pending.rfind('\n');
  if (end != std::string::npos) {
    std::string text = erkit::common::printable(std::string_view(o->pending).substr(0, end + 1));
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) return -1;
    o->pending.erase(0, end + 1);
  }
  return ssize_t(size);
}

int escaping_close(void* cookie) {
  auto* o = static_cast<EscapingOut*>(cookie);
  std::string text = erkit::common::printable(o->pending);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : -1;
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> paths;
  bool descendants = true, dashes = false;  // descendants are part of the profile (en_desc on)
  if (int rc = erkit::common::handle_standard_options({"er_export", kUsage, kOptions}, {argv + 1, argv + argc});
      rc >= 0)
    return rc;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (dashes) {
      paths.push_back(a);
    } else if (a == "--") {
      dashes = true;
    } else if (a == "-V" || a == "-v") {
      fmt::print("er_export: erkit {}\n", ERKIT_VERSION);
      return 0;
    } else if (a == "-d") {
      descendants = true;
    } else if (a == "-D") {
      descendants = false;
    } else if (a.size() > 1 && a[0] == '-') {
      fmt::print(stderr, "er_export: {}\n{}", erkit::common::unknown_option(a, kOptions), kUsage);
      return 2;
    } else {
      paths.push_back(a);
    }
  }
  if (paths.empty()) {
    fmt::print(stderr, "{}", kUsage);
    return 2;
  }
  int status = 0;
  EscapingOut state;
  FILE* out = fopencookie(&state, "w", {nullptr, escaping_write, nullptr, escaping_close});
  if (!out) out = stdout;
  for (const auto& p : paths) {
    std::string error;
    if (!erkit::exporters::dump_experiment(p, out, descendants, &error)) {
      std::fflush(out);
      fmt::print(stderr, "er_export: {}\n", erkit::common::printable(error));
      status = 1;
    }
  }
  if (out != stdout && std::fclose(out) != 0) status = 1;
  return status;
}
