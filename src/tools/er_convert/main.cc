// er_convert: writes loaded experiments in formats other tools open (see exporters/exporters.h
// and docs/exports.md).
//   er_convert -format pprof|chrome|speedscope|folded|callgrind [-metrics m1,m2] [-o file|-]
//              [-name long|short|mangled] [-V] experiment-list
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "common/cli.h"
#include "common/progress.h"
#include "common/version.h"
#include "exporters/exporters.h"
#include "exporters/load.h"
#include "expfiles/experiment_files.h"

using namespace erkit;

namespace {

const char* kUsage =
    "Usage: er_convert -format FORMAT [-metrics LIST] [-o FILE] [-name long|short|mangled] experiment-list\n"
    "  FORMAT   pprof       gzipped profile.proto (go tool pprof, speedscope, ...)\n"
    "           chrome      Chrome trace event JSON timeline (Perfetto UI, chrome://tracing)\n"
    "           speedscope  speedscope JSON, one time-ordered profile per thread\n"
    "           folded      folded stacks for flamegraph.pl / inferno\n"
    "           callgrind   callgrind format for KCachegrind\n"
    "  -metrics LIST  comma-separated er_print metric names (user,system,total,...);\n"
    "                 default: every metric with data, user first. Single-valued formats use the first.\n"
    "  -o FILE        output file ('-' for standard output); default: <experiment>.<format suffix>\n"
    "  -name STYLE    function names: long (default), short (no parameters) or mangled\n"
    "  -V             print the version\n"
    "  --             ends the options\n";

const std::vector<std::string> kOptions = {"-format", "-metrics", "-o", "-name", "-V", "--format"};

int usage_error(const std::string& m) {
  fmt::print(stderr, "er_convert: {}\n{}", m, kUsage);
  return 2;
}

std::string stem_of(const std::string& path) {
  std::string b = expfiles::base_name(path);
  for (const char* suffix : {".erg", ".er"})
    if (expfiles::ends_with(b, suffix)) return b.substr(0, b.size() - std::string(suffix).size());
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc), paths;
  std::string format, metrics, output;
  exporters::Options opts;
  if (int rc = common::handle_standard_options({"er_convert", kUsage, kOptions}, args); rc >= 0) return rc;
  common::Progress::set_tool("er_convert");  // progress on a terminal while loading
  bool dashes = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (!dashes && a == "--") {
      dashes = true;
      continue;
    }
    if (dashes) {
      paths.push_back(a);
      continue;
    }
    auto value = [&](std::string* dst) {
      if (i + 1 >= args.size()) return false;
      *dst = args[++i];
      return true;
    };
    if (a == "-V" || a == "--version") {
      fmt::print("er_convert: erkit {}\n", ERKIT_VERSION);
      return 0;
    } else if (a == "-h" || a == "--help") {
      fmt::print("{}", kUsage);
      return 0;
    } else if (a == "-format" || a == "-f" || a == "--format") {
      if (!value(&format)) return usage_error(a + " needs a format name");
    } else if (a == "-metrics" || a == "-m") {
      if (!value(&metrics)) return usage_error(a + " needs a metric list");
    } else if (a == "-o") {
      if (!value(&output)) return usage_error("-o needs a file name");
    } else if (a == "-name") {
      std::string style;
      if (!value(&style)) return usage_error("-name needs long, short or mangled");
      if (style == "short") opts.names.short_names = true;
      else if (style == "mangled") opts.names.mangled = true;
      else if (style != "long") return usage_error(fmt::format("unknown name style '{}'", style));
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error(common::unknown_option(a, kOptions));
    } else {
      paths.push_back(a);
    }
  }
  if (format.empty()) return usage_error("no -format given");
  auto f = exporters::parse_format(format);
  if (!f) return usage_error(fmt::format("unknown format '{}'", format));
  if (paths.empty()) return usage_error("no experiment given");

  model::Profile profile;
  std::vector<std::string> warnings;
  std::string error;
  if (!exporters::load_experiments(profile, paths, &warnings, &error)) {
    fmt::print(stderr, "er_convert: {}\n", error);
    return 1;
  }
  for (const auto& w : warnings) fmt::print(stderr, "er_convert: warning: {}\n", w);
  auto selected = exporters::select_metrics(profile, metrics, &error);
  if (!selected) {
    fmt::print(stderr, "er_convert: {}\n", error);
    return 1;
  }
  opts.metrics = *selected;
  {
    bool any = false;
    for (int64_t v : profile.totals()) any |= v != 0;
    if (!any)
      fmt::print(stderr, "er_convert: warning: no events in {} experiment(s) (descendants included): the output holds no samples\n",
                 profile.experiments().size());
  }
  std::string bytes = exporters::write_export(profile, *f, opts, &error);
  if (!error.empty()) {
    fmt::print(stderr, "er_convert: {}\n", error);
    return 1;
  }
  if (output.empty()) output = exporters::default_output_name(*f, stem_of(paths.front()));
  if (output == "-") {
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() || std::fflush(stdout) != 0) {
      fmt::print(stderr, "er_convert: cannot write to standard output\n");
      return 1;
    }
    return 0;
  }
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  if (!out) {
    fmt::print(stderr, "er_convert: cannot write '{}'\n", output);
    return 1;
  }
  fmt::print(stderr, "er_convert: wrote {} ({}, {} bytes)\n", output, exporters::format_name(*f), bytes.size());
  return 0;
}
