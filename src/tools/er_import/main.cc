// er_import: turns a perf recording into an erkit experiment (see exporters/perf_import.h).
//   er_import [-o name.er] [-V] [perf.data | perf-script.txt | -]
// A perf.data file is read through `perf script` (the PERF environment variable names another
// perf); any other file, or '-' for standard input, is taken as `perf script` output.
#include <fmt/format.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "common/cli.h"
#include "common/version.h"
#include "exporters/perf_import.h"
#include "expfiles/experiment_files.h"

using namespace erkit;

namespace {

const char* kUsage =
    "Usage: er_import [-o name.er] [-V] [perf.data | perf-script-output | -]\n"
    "  -o name.er  the experiment to write (default: perf.N.er, the first that does not exist)\n"
    "  -V          print the version\n"
    "  --          ends the options\n"
    "A perf.data file (the default input) is read through 'perf script'; any other file, or '-'\n"
    "for standard input, is taken as 'perf script' output.\n";
const std::vector<std::string> kOptions = {"-o", "-V"};

bool exists(const std::string& p) {
  struct stat st;
  return lstat(p.c_str(), &st) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string input, output;
  std::string command = "er_import";
  if (int rc = common::handle_standard_options({"er_import", kUsage, kOptions}, {argv + 1, argv + argc}); rc >= 0)
    return rc;
  bool dashes = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    command += " " + a;
    if (!dashes && a == "--") {
      dashes = true;
      continue;
    }
    if (dashes) {
      if (!input.empty()) {
        fmt::print(stderr, "er_import: one input at a time\n{}", kUsage);
        return 2;
      }
      input = a;
      continue;
    }
    if (a == "-V" || a == "-v") {
      fmt::print("er_import: erkit {}\n", ERKIT_VERSION);
      return 0;
    } else if (a == "-o") {
      if (i + 1 >= argc) {
        fmt::print(stderr, "er_import: -o needs an experiment name\n{}", kUsage);
        return 2;
      }
      output = argv[++i];
      command += std::string(" ") + argv[i];
    } else if (a.size() > 1 && a[0] == '-') {
      fmt::print(stderr, "er_import: {}\n{}", common::unknown_option(a, kOptions), kUsage);
      return 2;
    } else if (!input.empty()) {
      fmt::print(stderr, "er_import: one input at a time\n{}", kUsage);
      return 2;
    } else {
      input = a;
    }
  }
  if (input.empty()) input = "perf.data";
  if (output.empty()) {
    for (int n = 1;; ++n) {
      output = fmt::format("perf.{}.er", n);
      if (!exists(output)) break;
    }
  } else if (!expfiles::ends_with(output, ".er")) {
    fmt::print(stderr, "er_import: experiment name '{}' must end in .er\n", output);
    return 1;
  } else if (exists(output)) {
    fmt::print(stderr, "er_import: '{}' already exists\n", output);
    return 1;
  }

  std::string text, error, header;
  if (input == "-") {
    std::stringstream ss;
    ss << std::cin.rdbuf();
    text = ss.str();
  } else if (!exists(input)) {
    fmt::print(stderr, "er_import: '{}': no such file\n", input);
    return 1;
  } else if (exporters::is_perf_data(input)) {
    const char* perf = std::getenv("PERF");
    text = exporters::run_perf_script(input, perf && *perf ? perf : "perf", &error);
    header = exporters::run_perf_header(input, perf && *perf ? perf : "perf");
    if (!error.empty()) {
      fmt::print(stderr, "er_import: {}\n", error);
      return 1;
    }
  } else {
    std::ifstream in(input, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::istringstream in(text);
  exporters::PerfScript script = exporters::parse_perf_script(in);
  if (script.samples.empty() && script.unparsed_lines) {
    fmt::print(stderr, "er_import: '{}' is not perf script output (first unrecognised line: {})\n", input,
               script.first_unparsed.substr(0, 120));
    return 1;
  }
  // perf's header: from perf report --header-only, or the '#' lines of perf script --header.
  auto r = exporters::import_perf_script(script, output, command, exporters::parse_perf_header(header.empty() ? text : header));
  for (const auto& w : r.warnings) fmt::print(stderr, "er_import: warning: {}\n", w);
  if (script.unparsed_lines)
    fmt::print(stderr, "er_import: warning: {} lines not understood (first: {})\n", script.unparsed_lines,
               script.first_unparsed.substr(0, 120));
  if (!r.ok) {
    fmt::print(stderr, "er_import: {}\n", r.error);
    return 1;
  }
  fmt::print("er_import: wrote {}: {} samples of {} thread{} from {}\n", output, r.samples, r.threads,
             r.threads == 1 ? "" : "s", input);
  return 0;
}
