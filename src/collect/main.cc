// collect: runs a program with the collector preloaded and records an experiment.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "collect/java_launch.h"
#include "collect/launch.h"
#include "collect/naming.h"
#include "collect/options.h"
#include "collect/outside/attach.h"
#include "collect/experiment_log.h"
#include "collect/usage.h"
#include "common/elf_probe.h"
#include "common/version.h"
#include "reader/load_object_archives.h"

using namespace erkit::collect;

namespace {

// collect's own output: stdout, or the -O file (which receives errors too).
FILE* g_out = stdout;

std::string& error_sink() {
  static std::string e;
  return e;
}

int fail(const std::string& msg) {
  fmt::print(g_out == stdout ? stderr : g_out, "collect: {}\n", msg);
  std::fflush(g_out);
  return 2;
}

// -O applies before anything else is said, so its file also receives option errors.
std::string early_output_file(const std::vector<std::string>& args) {
  std::string file;
  for (size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i].size() < 2 || args[i][0] != '-' || args[i] == "--") break;
    if (args[i] == "-O") file = args[i + 1];
    if (args[i][1] != '-' && std::string("nRVvx").find(args[i][1]) == std::string::npos) ++i;  // skip the option's value
  }
  return file;
}

void archive(const Options& o, const std::string& experiment) {
  if (o.archive == "off") return;
  erkit::reader::ArchiveOptions ao;
  ao.copy = o.archive == "copy";
  auto r = erkit::reader::write_archives(experiment, ao);
  if (!r.error.empty()) fmt::print(g_out, "collect: warning: archiving failed: {}\n", r.error);
  for (const auto& w : r.warnings) fmt::print(g_out, "collect: warning: archive: {}\n", w);
  if (o.verbose)
    fmt::print(g_out, "collect: archived {} load objects{}\n", r.archived,
               ao.copy ? fmt::format(" ({} copied)", r.copied) : "");
}

// collect -P <pid> (issue 16): attach to a running process, sample it from outside, detach.
int attach(Options& o, int argc, char** argv) {
  namespace outside = erkit::collect::outside;
  std::vector<std::string> warnings;
  std::string why = outside::attach_refusal(o, o.attach_pid, &warnings);
  if (!why.empty()) return fail(why);
  for (const auto& w : warnings) fmt::print(g_out, "collect: warning: {}\n", w);
  LaunchContext ctx;
  ctx.out = g_out == stdout ? nullptr : g_out;
  ctx.program_path = outside::process_exe(o.attach_pid);
  o.target = outside::process_args(o.attach_pid);
  if (o.target.empty()) o.target.push_back(ctx.program_path);
  for (int i = 0; i < argc; ++i) ctx.command_line += (i ? " " : "") + std::string(argv[i]);
  NamingResult nr = preview_experiment_name(o.experiment_name, o.directory);
  if (!nr.error.empty()) return fail(nr.error);
  if (!o.group.empty() && !check_group(o.group, o.directory, &error_sink())) return fail(error_sink());
  if (o.dry_run) {
    fmt::print(g_out, "collect: would attach to process {} ({}) and record experiment {}\n", o.attach_pid,
               ctx.program_path, nr.path);
    return 0;
  }
  nr = create_experiment_dir(o.experiment_name, o.directory);
  if (!nr.error.empty()) return fail(nr.error);
  if (!o.group.empty() && !add_to_group(o.group, o.directory, nr.path, &error_sink())) return fail(error_sink());
  ExperimentLog log(nr.path);
  log.write_header(o, ctx);
  if (o.verbose) fmt::print(g_out, "collect: attaching to process {}; recording experiment {}\n", o.attach_pid, nr.path);
  std::fflush(g_out);
  auto r = outside::record_attached(o, o.attach_pid, nr.path);
  if (!r.error.empty()) return fail(r.error);
  archive(o, nr.path);
  fmt::print(g_out, "collect: {} process {}: {} CPU samples of {} threads in {}\n",
             r.process_ended ? "recorded until the end of" : "detached from", o.attach_pid, r.samples, r.threads,
             nr.path);
  if (g_out != stdout) std::fclose(g_out);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    print_usage(stdout);
    return 0;
  }
  if (std::string file = early_output_file(args); !file.empty()) {
    g_out = std::fopen(file.c_str(), "ae");  // close-on-exec: not the target's descriptor
    if (!g_out) {
      g_out = stdout;
      return fail(fmt::format("cannot open output file '{}'", file));
    }
    setvbuf(g_out, nullptr, _IOLBF, 0);
  }
  ParseResult pr = parse_options(args);
  if (!pr.options) return fail(pr.error);
  Options& o = *pr.options;
  if (o.help) {  // GNU --help: usage on stdout, whatever -O says
    print_usage(stdout);
    return 0;
  }
  if (o.version_only) {
    fmt::print(g_out, "collect: erkit {}\n", ERKIT_VERSION);
    return 0;
  }
  if (o.print_readme) {
    print_readme(g_out);
    return 0;
  }
  if (o.verbose) fmt::print(g_out, "collect: erkit {}\n", ERKIT_VERSION);
  for (const auto& w : o.warnings) fmt::print(g_out, "collect: warning: {}\n", w);
  if (o.attach_pid) return attach(o, argc, argv);
  if (!o.hwc.empty()) {
    std::string herr;
    if (!probe_hwc(o.hwc, &herr)) return fail(herr);
  }
  // collect -m on mpirun ...: the ranks are descendants of the launcher.
  if (o.mpi_trace && !o.follow_explicit) o.follow = 1;
  if (o.clock_interval_ns == 0 && o.hwc.empty() && !o.heap_trace && !o.io_trace && o.sync_trace == "off" && !o.mpi_trace)
    fmt::print(g_out, "collect: warning: every data kind is off: only samples will be recorded\n");

  std::string error;
  LaunchContext ctx;
  ctx.out = g_out == stdout ? nullptr : g_out;
  ctx.program_path = resolve_program(o.target[0], &error);
  if (ctx.program_path.empty()) return fail(error);
  erkit::common::ElfProbe elf = erkit::common::probe_elf(ctx.program_path);
  if (elf.is_elf && !elf.error.empty()) return fail(fmt::format("'{}': {}", ctx.program_path, elf.error));
  if (elf.is_elf && !elf.is_dynamic)
    return fail(fmt::format("'{}' is statically linked: the collector cannot be preloaded into it; "
                            "relink it dynamically to profile it", ctx.program_path));
  if (elf.is_elf && !plan_emulation(elf.machine, &ctx.emulation, &error)) return fail(error);
  ctx.collector_lib = find_collector_library(o, &error, ctx.emulation.lib_subdir);
  if (ctx.collector_lib.empty()) return fail(error);
  if (o.java == "on" || (o.java == "auto" && starts_jvm(ctx.program_path))) {
    ctx.java_agent = find_java_agent(ctx.collector_lib, &error);
    if (ctx.java_agent.empty()) return fail(error);
  }
  if (o.mpi_trace) {
    ctx.mpi_lib = find_mpi_library(ctx.collector_lib, &error);
    if (ctx.mpi_lib.empty()) return fail(error);
  }
  for (int i = 0; i < argc; ++i) ctx.command_line += (i ? " " : "") + std::string(argv[i]);

  // Under an MPI launcher (mpirun -np N collect ...) each rank names its experiment by its rank.
  ctx.mpi_rank = launcher_rank();
  bool by_rank = ctx.mpi_rank >= 0 && o.experiment_name.empty();
  NamingResult nr = by_rank ? preview_rank_experiment_name(rank_stem(o.group), ctx.mpi_rank, o.directory)
                            : preview_experiment_name(o.experiment_name, o.directory);
  if (!nr.error.empty()) return fail(nr.error);
  if (!o.group.empty() && !check_group(o.group, o.directory, &error)) return fail(error);
  if (o.dry_run) {
    print_dry_run(g_out, o, ctx, nr.path);
    return 0;
  }
  nr = by_rank ? create_rank_experiment_dir(rank_stem(o.group), ctx.mpi_rank, o.directory)
               : create_experiment_dir(o.experiment_name, o.directory);
  if (!nr.error.empty()) return fail(nr.error);
  ctx.experiment = nr.path;
  if (!o.group.empty() && !add_to_group(o.group, o.directory, ctx.experiment, &error)) return fail(error);
  if (o.verbose) {
    fmt::print(g_out, "collect: recording experiment {}\n", ctx.experiment);
    fmt::print(g_out, "collect: target {}; collector {}; parameters {}\n", ctx.program_path, ctx.collector_lib,
               collector_params(o));
    if (!ctx.emulation.machine.empty())
      fmt::print(g_out, "collect: {} target: run under {} -L {}\n", ctx.emulation.machine, ctx.emulation.emulator,
                 ctx.emulation.sysroot);
  }
  std::fflush(g_out);
  int killed_by = 0;
  int rc = run_target(o, ctx, &error, &killed_by);
  if (!error.empty()) return fail(error);
  archive(o, ctx.experiment);
  if (o.verbose) fmt::print(g_out, "collect: experiment {} complete\n", ctx.experiment);
  if (g_out != stdout) std::fclose(g_out);
  // The experiment is complete: end as the target did, by its signal.
  if (killed_by) die_by_signal(killed_by);
  return rc;
}
