#include "collect/options.h"

#include <fmt/format.h>
#include <regex.h>

#include <signal.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <csignal>
#include <cstring>
#include <map>

#include "collect/java_launch.h"
#include "common/cli.h"
#include "common/regex_guard.h"

namespace erkit::collect {
namespace {

constexpr uint64_t kMaxIntervalNs = 1000000000ull;
// The options that take a value; the others (-n -R -V -v -x) take none.
constexpr const char* kValueOptions = "pshHmSFjJlyodgALOCiP";

bool ends_with(const std::string& s, const std::string& suf) {
  return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

std::optional<int> parse_positive_int(const std::string& v) {
  if (v.empty() || v.size() > 9) return std::nullopt;
  for (char c : v)
    if (c < '0' || c > '9') return std::nullopt;
  int n = std::stoi(v);
  return n > 0 ? std::optional<int>(n) : std::nullopt;
}

// "2", "0.2", "1.25" seconds as whole milliseconds (at least 1); digits and one '.' only, at
// most three decimals (the sampler's resolution).
std::optional<int64_t> parse_seconds_as_ms(const std::string& v) {
  size_t dot = v.find('.');
  std::string whole = v.substr(0, dot), frac = dot == std::string::npos ? "" : v.substr(dot + 1);
  if (v.empty() || whole.size() > 6 || frac.size() > 3 || (whole.empty() && frac.empty())) return std::nullopt;
  for (char c : whole + frac)
    if (c < '0' || c > '9') return std::nullopt;
  frac.resize(3, '0');
  int64_t ms = (whole.empty() ? 0 : std::stoll(whole)) * 1000 + std::stoll(frac);
  return ms > 0 ? std::optional<int64_t>(ms) : std::nullopt;
}

const std::map<std::string, int>& signal_table() {
  static const std::map<std::string, int> t = {
      {"HUP", SIGHUP},   {"INT", SIGINT},     {"QUIT", SIGQUIT}, {"ILL", SIGILL},   {"TRAP", SIGTRAP},
      {"ABRT", SIGABRT}, {"BUS", SIGBUS},     {"FPE", SIGFPE},   {"KILL", SIGKILL}, {"USR1", SIGUSR1},
      {"SEGV", SIGSEGV}, {"USR2", SIGUSR2},   {"PIPE", SIGPIPE}, {"ALRM", SIGALRM}, {"TERM", SIGTERM},
      {"CHLD", SIGCHLD}, {"CONT", SIGCONT},   {"STOP", SIGSTOP}, {"TSTP", SIGTSTP}, {"TTIN", SIGTTIN},
      {"TTOU", SIGTTOU}, {"URG", SIGURG},     {"XCPU", SIGXCPU}, {"XFSZ", SIGXFSZ}, {"VTALRM", SIGVTALRM},
      {"PROF", SIGPROF}, {"WINCH", SIGWINCH}, {"IO", SIGIO},     {"PWR", SIGPWR},   {"SYS", SIGSYS}};
  return t;
}

}  // namespace

const char* unusable_signal(int sig) {
  if (sig == SIGKILL || sig == SIGSTOP) return "this signal cannot be caught";
  if (sig == SIGPROF) return "SIGPROF is the collector's clock-profiling signal";
  return nullptr;
}

int parse_signal(const std::string& v) {
  if (v.empty()) return 0;
  if (auto n = parse_positive_int(v)) return *n < NSIG ? *n : 0;
  std::string name = v;
  for (auto& c : name) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (name.rfind("SIG", 0) == 0) name = name.substr(3);
  if (name.rfind("RTMIN", 0) == 0 || name.rfind("RTMAX", 0) == 0) {
    bool min = name[2] == 'M' && name[3] == 'I';
    int base = min ? SIGRTMIN : SIGRTMAX;
    if (name.size() == 5) return base;
    int off = std::atoi(name.c_str() + 5);
    int s = base + off;
    return s >= SIGRTMIN && s <= SIGRTMAX ? s : 0;
  }
  auto it = signal_table().find(name);
  return it == signal_table().end() ? 0 : it->second;
}

std::string signal_name(int sig) {
  for (const auto& [name, num] : signal_table())
    if (num == sig) return "SIG" + name;
  return fmt::format("signal {}", sig);
}

std::optional<uint64_t> parse_clock_interval(const std::string& v, uint64_t resolution_ns,
                                             std::string* warning) {
  if (v == "off") return 0;
  if (v == "on") return 10007000;
  if (v == "lo" || v == "low") return 100003000;
  if (v == "hi" || v == "high") return 997000;
  std::string num = v;
  double scale = 1e6;  // milliseconds by default
  if (!num.empty() && (num.back() == 'm' || num.back() == 'u')) {
    scale = num.back() == 'u' ? 1e3 : 1e6;
    num.pop_back();
  }
  if (num.empty()) return std::nullopt;
  char* end = nullptr;
  double x = std::strtod(num.c_str(), &end);
  if (!end || *end != '\0' || !std::isfinite(x) || x <= 0) return std::nullopt;
  double ns = x * scale;
  if (ns > double(kMaxIntervalNs)) return std::nullopt;
  uint64_t r = uint64_t(ns);
  r -= r % resolution_ns;
  if (r < resolution_ns) {
    if (warning)
      *warning = fmt::format("clock-profiling interval {} is below the resolution; using {:.3f} ms",
                             v, double(resolution_ns) / 1e6);
    r = resolution_ns;
  }
  return r;
}

std::vector<std::string> option_names() {
  std::vector<std::string> out;
  for (const char* p = "nRVvx"; *p; ++p) out.push_back(std::string("-") + *p);
  for (const char* p = kValueOptions; *p; ++p) out.push_back(std::string("-") + *p);
  out.push_back("--help");
  out.push_back("--version");
  return out;
}

const std::vector<OptionValues>& options_with_values() {
  static const std::vector<OptionValues> t = {
      {'p', {"off", "on", "lo", "low", "hi", "high"}}, {'h', {}}, {'s', {"on", "off", "calibrate", "all"}},
      {'H', {"on", "off"}}, {'m', {"on", "off"}}, {'i', {"on", "off"}}, {'S', {"on", "off"}},
      {'F', {"off", "on", "all"}}, {'j', {"on", "off"}}, {'J', {}}, {'l', {}}, {'y', {}}, {'o', {}},
      {'d', {}}, {'g', {}}, {'A', {"off", "on", "copy"}}, {'L', {"unlimited", "none"}}, {'O', {}}, {'C', {}}, {'P', {}}};
  return t;
}

// collect -P <pid> (issue 16): attaching to a running process is refused, naming what is
// missing (docs/collect.md, *Attaching to a running process*).
static std::string attach_refusal(const std::string& v) {
  char* end = nullptr;
  long pid = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || pid <= 0) return fmt::format("-P needs a process id, not '{}'", v);
  std::string why = ::kill(pid_t(pid), 0) == 0 || errno == EPERM
                        ? fmt::format("process {} exists, but", pid)
                        : fmt::format("there is no process {}, and", pid);
  return fmt::format("-P {}: {} attaching to a running process is not implemented: it needs the collector "
                     "loaded into the process (ptrace: stop every thread, call dlopen in it, resume) and "
                     "clock profiling started on its existing threads; start the program under collect instead "
                     "(docs/collect.md)",
                     pid, why);
}

ParseResult parse_options(const std::vector<std::string>& args) {
  Options o;
  auto fail = [](std::string msg) { return ParseResult{std::nullopt, std::move(msg)}; };
  size_t i = 0;
  bool hwc_given = false;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.size() < 2 || a[0] != '-') break;  // first non-option is the target program
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "--help") {
      o.help = true;
      continue;
    }
    if (a == "--version") {
      o.version_only = true;
      continue;
    }
    static const std::string kNoArg = "nRVvx";
    if (a.size() != 2 || (kNoArg.find(a[1]) == std::string::npos &&
                          std::string(kValueOptions).find(a[1]) == std::string::npos))
      return fail(fmt::format("{} (run 'collect --help' for usage)", erkit::common::unknown_option(a, option_names())));
    if (kNoArg.find(a[1]) != std::string::npos) {
      if (a == "-n") o.dry_run = true;
      if (a == "-R") o.print_readme = true;
      if (a == "-V") o.version_only = true;
      if (a == "-v") o.verbose = true;
      if (a == "-x") o.stop_after_exec = true;
      continue;
    }
    if (i + 1 >= args.size()) return fail(fmt::format("option {} needs an argument", a));
    const std::string v = args[++i];
    switch (a[1]) {
      case 'p': {
        std::string warning;
        // "-p on,+" (or "+on"): clock profiling also records data addresses (seed-spec §2.2:
        // 12.2 allows backtracking with clock profiling; docs/dataspace.md).
        std::string pv = v;
        if (pv.size() > 2 && pv.compare(pv.size() - 2, 2, ",+") == 0) {
          pv.resize(pv.size() - 2);
          o.clock_dataspace = true;
        } else if (pv.size() > 1 && pv[0] == '+') {
          pv.erase(0, 1);
          o.clock_dataspace = true;
        }
        if (pv == "+") pv = "on", o.clock_dataspace = true;
        auto ns = parse_clock_interval(pv, 1000, &warning);
        if (!ns)
          return fail(fmt::format(
              "bad clock-profiling interval '{}': use off, on, lo[w], hi[gh] or a value in ms "
              "(suffix m) or us (suffix u), at most 1 s",
              v));
        if (!warning.empty()) o.warnings.push_back(warning);
        o.clock_interval_ns = *ns;
        o.clock_explicit = true;
        break;
      }
      case 'h':
        hwc_given = true;
        if (v != "off") {
          std::string err;
          if (!parse_hwc_spec(v, &o.hwc, &err)) return fail(err);
          o.hwc_counters.push_back(v);
        }
        break;
      case 's':
        if (v != "on" && v != "off" && v != "calibrate" && v != "all" && !parse_positive_int(v))
          return fail(fmt::format("bad -s value '{}': use on, off, calibrate, all or a threshold in ms", v));
        o.sync_trace = v;
        break;
      case 'H':
      case 'm':
      case 'i': {
        if (v != "on" && v != "off") return fail(fmt::format("bad {} value '{}': use on or off", a, v));
        bool on = v == "on";
        (a[1] == 'H' ? o.heap_trace : a[1] == 'm' ? o.mpi_trace : o.io_trace) = on;
        break;
      }
      case 'S':
        if (v == "off") o.sample_interval_ms = 0;
        else if (v == "on") o.sample_interval_ms = 1000;
        // At most a day: n * 1000 ms must fit an int (-S 10000100 overflowed: fuzz_collect_options).
        else if (auto ms = parse_seconds_as_ms(v); ms && *ms <= 86400 * 1000) o.sample_interval_ms = int(*ms);
        else return fail(fmt::format("bad -S value '{}': use on, off or a number of seconds from 0.001 to 86400", v));
        break;
      case 'F':
        o.follow_explicit = true;
        if (v == "off") o.follow = 0;
        else if (v == "on") o.follow = 1;
        else if (v == "all") o.follow = 2;
        else if (v.size() > 1 && v[0] == '=') {
          // The collector matches with POSIX extended expressions: check with the same engine.
          // Nested repetitions would make regcomp exhaust memory here and in every descendant.
          if (erkit::common::regex_too_complex(v.substr(1)))
            return fail(fmt::format("bad -F regular expression '{}': {}", v.substr(1), erkit::common::kRegexTooComplex));
          regex_t re;
          int rc = regcomp(&re, v.c_str() + 1, REG_EXTENDED | REG_NOSUB);
          if (rc != 0) {
            char msg[256];
            regerror(rc, &re, msg, sizeof msg);
            return fail(fmt::format("bad -F regular expression '{}': {}", v.substr(1), msg));
          }
          regfree(&re);
          o.follow = 2;
          o.follow_regex = v.substr(1);
        }
        else return fail(fmt::format("bad -F value '{}': use off, on, all or =<regex>", v));
        break;
      case 'j': o.java = v; break;
      case 'J': o.java_args = v; break;
      case 'l':
        if (!(o.sample_signal = parse_signal(v))) return fail(fmt::format("unknown signal '{}' for -l", v));
        if (auto why = unusable_signal(o.sample_signal)) return fail(fmt::format("-l {}: {}", v, why));
        break;
      case 'y': {
        std::string sig = v;
        if (ends_with(sig, ",r")) {
          o.pause_signal_resume = true;
          sig.resize(sig.size() - 2);
        }
        if (!(o.pause_signal = parse_signal(sig))) return fail(fmt::format("unknown signal '{}' for -y", sig));
        if (auto why = unusable_signal(o.pause_signal)) return fail(fmt::format("-y {}: {}", sig, why));
        break;
      }
      case 'o':
        if (!ends_with(v, ".er") || v.size() <= 3)
          return fail(fmt::format("experiment name '{}' must end in .er", v));
        o.experiment_name = v;
        break;
      case 'd': o.directory = v; break;
      case 'g':
        if (!ends_with(v, ".erg") || v.size() <= 4)
          return fail(fmt::format("experiment group name '{}' must end in .erg", v));
        o.group = v;
        break;
      case 'A':
        if (v != "on" && v != "off" && v != "copy") return fail(fmt::format("bad -A value '{}': use on, off or copy", v));
        o.archive = v;
        break;
      case 'L':
        if (v == "unlimited" || v == "none") o.size_limit_mb = 0;
        else if (auto n = parse_positive_int(v)) o.size_limit_mb = uint64_t(*n);
        else return fail(fmt::format("bad -L value '{}': use a size in MB, unlimited or none", v));
        break;
      case 'O': o.output_file = v; break;
      case 'P':  // issue 16, seed-spec §3.9: attach to a running process
        return fail(attach_refusal(v));
      case 'C':
        if (o.comments.size() >= 10) return fail("at most 10 -C comments are allowed");
        o.comments.push_back(v);
        break;
    }
  }
  if (o.help || o.version_only || o.print_readme) return ParseResult{o, {}};
  if (o.sample_signal && o.sample_signal == o.pause_signal)
    return fail(fmt::format("-l and -y must use different signals (both are {})", signal_name(o.sample_signal)));
  // -h alone turns the default clock profiling off (seed-spec §3.1).
  if (hwc_given && !o.clock_explicit && !o.hwc_counters.empty()) o.clock_interval_ns = 0;
  for (; i < args.size(); ++i) o.target.push_back(args[i]);
  if (o.target.empty()) return fail("no target program given");
  // -J: options for the JVM, which needs Java profiling: -j on, or a java target (docs/java.md).
  if (!o.java_args.empty() && (o.java == "off" || (o.java == "auto" && !java_launcher(o.target[0]))))
    return fail("-J needs Java profiling (-j on, or a 'java' target)");
  if (o.clock_dataspace && o.clock_interval_ns == 0) return fail("-p off,+: data addresses need clock profiling on");
  return ParseResult{o, {}};
}

}  // namespace erkit::collect
