// collect: runs a program with the collector preloaded and records an experiment.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "collect/launch.h"
#include "collect/naming.h"
#include "collect/options.h"
#include "collect/usage.h"
#include "common/elf_probe.h"
#include "common/version.h"

using namespace erkit::collect;

namespace {

FILE* g_out = stdout;

int fail(const std::string& msg) {
  fmt::print(g_out == stdout ? stderr : g_out, "collect: {}\n", msg);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    print_usage(stdout);
    return 0;
  }
  ParseResult pr = parse_options(args);
  if (!pr.options) return fail(pr.error);
  Options& o = *pr.options;
  if (!o.output_file.empty()) {
    g_out = std::fopen(o.output_file.c_str(), "a");
    if (!g_out) {
      g_out = stdout;
      return fail(fmt::format("cannot open output file '{}'", o.output_file));
    }
  }
  if (o.version_only) {
    fmt::print(g_out, "collect: erkit {}\n", ERKIT_VERSION);
    return 0;
  }
  if (o.print_readme) {
    print_readme(g_out);
    return 0;
  }
  for (const auto& w : o.warnings) fmt::print(g_out, "collect: warning: {}\n", w);
  for (const char* what : {"hwc", "sync", "mpi", "java"}) {
    bool asked = (what[0] == 'h' && !o.hwc_counters.empty()) || (what[0] == 's' && o.sync_trace != "off") ||
                 (what[0] == 'm' && o.mpi_trace) || (what[0] == 'j' && o.java != "off");
    if (asked) return fail(fmt::format("{} data collection is not available in this version yet", what));
  }
  if (o.heap_trace || o.io_trace)
    return fail(fmt::format("{} tracing is not available in this version yet", o.heap_trace ? "heap" : "I/O"));

  std::string error;
  LaunchContext ctx;
  ctx.program_path = resolve_program(o.target[0], &error);
  if (ctx.program_path.empty()) return fail(error);
  erkit::common::ElfProbe elf = erkit::common::probe_elf(ctx.program_path);
  if (elf.is_elf && !elf.error.empty()) return fail(fmt::format("'{}': {}", ctx.program_path, elf.error));
  if (elf.is_elf && !elf.is_dynamic)
    return fail(fmt::format("'{}' is statically linked: the collector cannot be preloaded into it; "
                            "relink it dynamically to profile it", ctx.program_path));
  ctx.collector_lib = find_collector_library(&error);
  if (ctx.collector_lib.empty()) return fail(error);
  for (int i = 0; i < argc; ++i) ctx.command_line += (i ? " " : "") + std::string(argv[i]);

  if (o.dry_run) {
    NamingResult nr = preview_experiment_name(o.experiment_name, o.directory);
    if (!nr.error.empty()) return fail(nr.error);
    print_dry_run(g_out, o, ctx, nr.path);
    return 0;
  }
  NamingResult nr = create_experiment_dir(o.experiment_name, o.directory);
  if (!nr.error.empty()) return fail(nr.error);
  ctx.experiment = nr.path;
  if (!o.group.empty() && !add_to_group(o.group, o.directory, ctx.experiment, &error)) return fail(error);
  if (o.verbose) fmt::print(g_out, "collect: erkit {}; recording experiment {}\n", ERKIT_VERSION, ctx.experiment);
  std::fflush(g_out);
  int rc = run_target(o, ctx, &error);
  if (!error.empty()) return fail(error);
  if (g_out != stdout) std::fclose(g_out);
  return rc;
}
