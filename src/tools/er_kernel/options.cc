#include "tools/er_kernel/options.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "collect/options.h"
#include "common/cli.h"

namespace erkit::er_kernel {

namespace {
std::optional<double> seconds(const std::string& v) {
  char* end = nullptr;
  double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end || !std::isfinite(x) || x < 0 || x > 86400 * 365) return std::nullopt;
  return x;
}

std::optional<uint32_t> id(const std::string& v) {
  char* end = nullptr;
  unsigned long x = std::strtoul(v.c_str(), &end, 10);
  if (v.empty() || *end || v[0] == '-' || x > 0x7fffffff) return std::nullopt;
  return uint32_t(x);
}
}  // namespace

const char* const kUsage =
    "Usage: er_kernel -p on|hi|lo|<interval> [-t secs] [-q secs] [-T pid/tid ...]\n"
    "                 [-o name.er] [-d dir] [-g group.erg] [-n] [-v] [--] [load [args]]\n"
    "       er_kernel [options] collect [collect-options] load [args]\n"
    "Records the kernel's clock profile of every CPU (KCPU Cycles, kernel call stacks) into\n"
    "ktest.N.er; with a load, runs it between two quiet periods; with `collect load`, also\n"
    "records the load's user experiment (test.N.er) on the same clock.\n\n"
    "  -p on|hi|lo|<ms>  sampling interval (on about 10 ms, hi 1 ms, lo 100 ms; <ms>[m|u])\n"
    "  -t <secs>         stop after this many seconds (default: Ctrl-C, or the load's end)\n"
    "  -q <secs>         quiet period before and after the load (default 1)\n"
    "  -T <pid>/<tid>    also record Kthr Time of this thread (0/<tid>: a kernel thread),\n"
    "                    on the CPU or not: <SLEEPING>, <STALLED>; repeatable\n"
    "  -o <name>.er      experiment name (default ktest.1.er, the next free number)\n"
    "  -d <dir>          directory for the experiment\n"
    "  -g <group>.erg    add the experiment to a group\n"
    "  -n                dry run: say what would be recorded, record nothing\n"
    "  -v                verbose\n"
    "  -V, --version     print the version\n"
    "  -h, --help        this text\n"
    "  --                ends the options: the load follows\n"
    "Privileges: root, or CAP_PERFMON and CAP_SYSLOG, or kernel.perf_event_paranoid <= 0\n"
    "with kernel.kptr_restrict 0 (see docs/er_kernel.md).\n";

const std::vector<std::string> kOptions = {"-p", "-t", "-q", "-T", "-o", "-d", "-g", "-n", "-v", "-V", "-h"};

void print_usage(FILE* out) { fmt::print(out, "{}", kUsage); }

ParseResult parse_options(const std::vector<std::string>& args) {
  Options o;
  auto fail = [](std::string msg) { return ParseResult{std::nullopt, std::move(msg), {}}; };
  ParseResult r;
  bool p_given = false;
  size_t i = 0;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-') break;
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "-h" || a == "--help") {
      o.help = true;
      continue;
    }
    if (a == "-V" || a == "--version") {
      o.version = true;
      continue;
    }
    if (a == "-n") {
      o.dry_run = true;
      continue;
    }
    if (a == "-v") {
      o.verbose = true;
      continue;
    }
    static const std::string with_value = "-p -t -q -T -o -d -g";
    if (a.size() != 2 || with_value.find(a) == std::string::npos)
      return fail(common::unknown_option(a, kOptions));
    if (i + 1 >= args.size()) return fail(fmt::format("{} needs a value", a));
    const std::string& v = args[++i];
    switch (a[1]) {
      case 'p': {
        std::string warning;
        if (v == "off") return fail("-p off: er_kernel records the kernel's clock profile; there is nothing else to record");
        auto ns = collect::parse_clock_interval(v, 1000, &warning);
        if (!ns || *ns == 0) return fail(fmt::format("bad -p value '{}': use on, hi, lo or an interval in ms", v));
        o.interval_ns = *ns;
        r.warning = warning;
        p_given = true;
        break;
      }
      case 't':
      case 'q': {
        auto s = seconds(v);
        if (!s) return fail(fmt::format("bad {} value '{}': use seconds", a, v));
        (a[1] == 't' ? o.duration_s : o.quiet_s) = *s;
        break;
      }
      case 'T': {
        size_t slash = v.find('/');
        auto pid = slash == std::string::npos ? std::nullopt : id(v.substr(0, slash));
        auto tid = slash == std::string::npos ? std::nullopt : id(v.substr(slash + 1));
        if (!pid || !tid || *tid == 0) return fail(fmt::format("bad -T value '{}': use pid/tid (0/tid for a kernel thread)", v));
        o.threads.emplace_back(*pid, *tid);
        break;
      }
      case 'o':
        if (v.size() < 4 || v.substr(v.size() - 3) != ".er") return fail(fmt::format("experiment name '{}' must end in .er", v));
        o.output = v;
        break;
      case 'd': o.directory = v; break;
      case 'g':
        if (v.size() < 5 || v.substr(v.size() - 4) != ".erg") return fail(fmt::format("group name '{}' must end in .erg", v));
        o.group = v;
        break;
    }
  }
  o.load.assign(args.begin() + long(i), args.end());
  o.with_collect = !o.load.empty() && o.load[0] == "collect";
  if (o.with_collect && o.load.size() < 2) return fail("collect needs a load: er_kernel collect [collect-options] load");
  if (!p_given && !o.help && !o.version && o.load.empty() && o.threads.empty() && !o.dry_run)
    return fail("nothing to do: give -p on (and a load, -t or -T), or --help");
  r.options = std::move(o);
  return r;
}

}  // namespace erkit::er_kernel
