// er_export [-V] [-d] experiment...: the raw contents of experiments as readable text
// (seed-spec §11), for when the analysis tools cannot read one. -d adds descendant experiments.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "common/cli.h"
#include "common/version.h"
#include "exporters/raw_dump.h"

namespace {
const char* kUsage =
    "Usage: er_export [-V] [-d] experiment...\n"
    "  -d      also dump the descendant experiments\n"
    "  -V, -v  print the version\n"
    "  --      ends the options\n";
const std::vector<std::string> kOptions = {"-d", "-V", "-v"};
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> paths;
  bool descendants = false, dashes = false;
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
  for (const auto& p : paths) {
    std::string error;
    if (!erkit::exporters::dump_experiment(p, stdout, descendants, &error)) {
      std::fflush(stdout);
      fmt::print(stderr, "er_export: {}\n", error);
      status = 1;
    }
  }
  return status;
}
