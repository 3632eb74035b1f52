// er_archive: records the identity of every load object an experiment used, and optionally a
// copy of it, in the experiment's archives/ directory (seed-spec §11, reader/load_object_archives.h).
//   er_archive [-qAF] experiment|group ...     er_archive -V
// -q: no warnings on stderr (they stay in the archives); -A: copy every load object into the
// experiment; -F: rewrite existing archives. collect archives at the end of every run;
// er_print archives an experiment whose collection was killed when it first opens it.
#include <fmt/format.h>

#include <fstream>
#include <string>
#include <vector>

#include "common/cli.h"
#include "common/version.h"
#include "expfiles/experiment_files.h"
#include "reader/load_object_archives.h"

namespace {

const char* kUsage =
    "Usage: er_archive [-qAF] experiment|group ...\n"
    "       er_archive -V\n"
    "  -q  do not print warnings (they are kept in the archives)\n"
    "  -A  also copy every load object into the experiment (for reading it elsewhere)\n"
    "  -F  rewrite the archives that exist already\n"
    "  -V  print the version\n"
    "  --  ends the options\n";
const std::vector<std::string> kOptions = {"-q", "-A", "-F", "-V"};

void usage(FILE* out) { fmt::print(out, "{}", kUsage); }

// A group (.erg) names experiments, one per line after its header.
bool expand(const std::string& arg, std::vector<std::string>* out, std::string* error) {
  if (arg.size() < 4 || arg.substr(arg.size() - 4) != ".erg") {
    out->push_back(arg);
    return true;
  }
  erkit::expfiles::GroupFile g;
  if (!erkit::expfiles::read_group(arg, &g, error)) {
    *error = fmt::format("{}: not an experiment group", arg);
    return false;
  }
  out->insert(out->end(), g.paths.begin(), g.paths.end());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bool quiet = false;
  erkit::reader::ArchiveOptions opt;
  std::vector<std::string> targets;
  if (int rc = erkit::common::handle_standard_options({"er_archive", kUsage, kOptions}, {argv + 1, argv + argc});
      rc >= 0)
    return rc;
  bool dashes = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--" && !dashes && targets.empty()) {
      dashes = true;
      continue;
    }
    if (a.size() > 2 && a[0] == '-' && a[1] == '-' && !dashes) {
      fmt::print(stderr, "er_archive: {}\n", erkit::common::unknown_option(a, kOptions));
      usage(stderr);
      return 2;
    }
    if (a.size() > 1 && a[0] == '-' && targets.empty() && !dashes) {
      for (size_t k = 1; k < a.size(); ++k) {
        switch (a[k]) {
          case 'q': quiet = true; break;
          case 'A': opt.copy = true; break;
          case 'F': opt.force = true; break;
          case 'V': fmt::print("er_archive: erkit {}\n", ERKIT_VERSION); return 0;
          default:
            fmt::print(stderr, "er_archive: unknown option '-{}' (in '{}')\n", a[k], a);
            usage(stderr);
            return 2;
        }
      }
      continue;
    }
    std::string error;
    if (!expand(a, &targets, &error)) {
      fmt::print(stderr, "er_archive: {}\n", error);
      return 1;
    }
  }
  if (targets.empty()) {
    usage(stderr);
    return 2;
  }
  int rc = 0;
  for (const auto& t : targets) {
    auto r = erkit::reader::write_archives(t, opt);
    if (!r.error.empty()) {
      fmt::print(stderr, "er_archive: {}\n", r.error);
      rc = 1;
      continue;
    }
    if (!quiet)
      for (const auto& w : r.warnings) fmt::print(stderr, "er_archive: warning: {}: {}\n", t, w);
  }
  return rc;
}
