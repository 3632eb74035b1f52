// erkit-synth: writes a large synthetic clock-profiling experiment, for timing the analysis side
// (er_print) at sizes that collection would take hours to reach on a 2-core machine.
//
//   erkit-synth --out DIR --events N [--stacks M] [--depth D] [--functions F] [--threads T]
//               [--seed S] [--interval-ns I] [--records compact|full]
//
// The F functions are real functions of a shared object compiled for the purpose (DIR.src/),
// so stacks are symbolised by the same elfutils path as real experiments. Each of the M stacks is
// `synth_root` followed by D-1 frames picked at random from the F functions: with the defaults
// (F = 1000, D = 100) nearly every stack node is unique, the worst case for analysis. The N
// events use the stacks round-robin-shuffled (every stack occurs; N/M samples each on average)
// and are spread over T threads. Samples are written as the collector writes them, in the compact
// encoding (format/clock_compact.h); `--records full` writes the 88-byte records of before.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "format/host_writer.h"
#include "symbols/symbols.h"

namespace {

struct Options {
  std::string out;
  uint64_t events = 0;
  uint64_t stacks = 0;  // 0: min(events, 100000)
  uint32_t depth = 100;
  uint32_t functions = 1000;
  uint32_t threads = 4;
  uint64_t seed = 1;
  uint64_t interval_ns = 10000000;
  bool full_records = false;
};

[[noreturn]] void usage(const std::string& problem) {
  if (!problem.empty()) fmt::print(stderr, "erkit-synth: {}\n", problem);
  fmt::print(stderr,
             "usage: erkit-synth --out DIR --events N [--stacks M] [--depth D] [--functions F]\n"
             "                   [--threads T] [--seed S] [--interval-ns I] [--records compact|full]\n");
  std::exit(2);
}

uint64_t parse_count(const char* flag, const char* v) {
  char* end = nullptr;
  errno = 0;
  unsigned long long n = std::strtoull(v, &end, 10);
  if (errno || !end || *end || n == 0) usage(fmt::format("{} needs a positive integer, not '{}'", flag, v));
  return n;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc) usage("missing value after " + a);
    const char* v = argv[++i];
    if (a == "--out") o.out = v;
    else if (a == "--events") o.events = parse_count(argv[i - 1], v);
    else if (a == "--stacks") o.stacks = parse_count(argv[i - 1], v);
    else if (a == "--depth") o.depth = uint32_t(parse_count(argv[i - 1], v));
    else if (a == "--functions") o.functions = uint32_t(parse_count(argv[i - 1], v));
    else if (a == "--threads") o.threads = uint32_t(parse_count(argv[i - 1], v));
    else if (a == "--seed") o.seed = parse_count(argv[i - 1], v);
    else if (a == "--interval-ns") o.interval_ns = parse_count(argv[i - 1], v);
    else if (a == "--records" && (std::strcmp(v, "compact") == 0 || std::strcmp(v, "full") == 0))
      o.full_records = std::strcmp(v, "full") == 0;
    else if (a == "--records") usage(fmt::format("--records is compact or full, not '{}'", v));
    else usage("unknown option " + a);
  }
  if (o.out.empty() || o.events == 0) usage("--out and --events are required");
  if (o.stacks == 0) o.stacks = std::min<uint64_t>(o.events, 100000);
  if (o.depth > erkit::format::kMaxStackFrames) usage(fmt::format("--depth is at most {}", erkit::format::kMaxStackFrames));
  return o;
}

// Compiles the functions into DIR.src/synth.so and returns each one's address (index F is the root).
std::vector<uint64_t> build_object(const Options& o, std::string* so_path) {
  // Absolute, because the map is read from wherever er_print runs.
  std::string objdir = std::filesystem::absolute(o.out).string() + ".src";
  std::filesystem::create_directories(objdir);
  std::string src = objdir + "/synth.c";
  *so_path = objdir + "/synth.so";
  {
    std::ofstream out(src);
    for (uint32_t i = 0; i < o.functions; ++i) out << fmt::format("int synth_fn_{}(int x) {{ return x * 3 + {}; }}\n", i, i);
    out << "int synth_root(int x) { return x + 1; }\n";
  }
  std::string cmd = fmt::format("cc -shared -fPIC -O0 -g -w -o '{}' '{}'", *so_path, src);
  if (std::system(cmd.c_str()) != 0) {
    fmt::print(stderr, "erkit-synth: cannot compile {}\n", src);
    std::exit(1);
  }
  std::string err;
  auto syms = erkit::symbols::ObjectSymbols::open(*so_path, "", &err);
  if (!syms) {
    fmt::print(stderr, "erkit-synth: cannot read {}: {}\n", *so_path, err);
    std::exit(1);
  }
  std::vector<uint64_t> addr(o.functions + 1, 0);
  for (const auto& f : syms->functions()) {
    if (f.name == "synth_root") addr[o.functions] = f.addr;
    else if (f.name.rfind("synth_fn_", 0) == 0) {
      unsigned long idx = std::strtoul(f.name.c_str() + 9, nullptr, 10);
      if (idx < o.functions) addr[idx] = f.addr;
    }
  }
  for (uint64_t a : addr)
    if (a == 0) {
      fmt::print(stderr, "erkit-synth: a generated function is missing from {}\n", *so_path);
      std::exit(1);
    }
  return addr;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse(argc, argv);
  std::string so;
  std::vector<uint64_t> addr = build_object(o, &so);

  erkit::format::HostExperimentWriter w(o.out);
  if (!w.ok()) {
    fmt::print(stderr, "erkit-synth: {}\n", w.error());
    return 1;
  }
  w.log_line(fmt::format("0 start pid=1000 ppid=1 exe=\"erkit-synth\" clock_interval_ns={}", o.interval_ns));
  w.log_line(fmt::format("0 setting name=clock interval_ns={}", o.interval_ns));
  for (uint32_t t = 0; t < o.threads; ++t) w.log_line(fmt::format("0 thread_start tid={}", 2000 + t));
  w.load_object(so, 0, 0, uint64_t(1) << 40);

  std::mt19937_64 rng(o.seed);
  std::vector<uint64_t> ids(o.stacks);
  std::vector<uint64_t> pcs;
  for (uint64_t s = 0; s < o.stacks; ++s) {
    pcs.clear();
    // Leaf first; +1 for the leaf PC and +2 for return addresses, so pc-1 lies inside.
    for (uint32_t d = 0; d + 1 < o.depth; ++d) pcs.push_back(addr[rng() % o.functions] + (d == 0 ? 1 : 2));
    pcs.push_back(addr[o.functions] + 2);
    ids[s] = w.stack(pcs);
  }
  std::vector<uint64_t> tstamp(o.threads, 0);
  for (uint64_t e = 0; e < o.events; ++e) {
    erkit::format::ClockSampleRecord r{};
    uint32_t t = uint32_t(e % o.threads);
    r.tid = 2000 + t;
    r.tstamp_ns = (tstamp[t] += o.interval_ns);
    // Every stack once, then random ones: the distinct-stack count is exactly min(N, M).
    r.stack_id = ids[e < o.stacks ? e : rng() % o.stacks];
    r.cpu = int32_t(t % 2);
    r.flags = t == 0 ? erkit::format::kClockFlagMainThread : 0;
    r.ns[erkit::format::kMsUser] = o.interval_ns;
    if (o.full_records) w.clock_sample(r);
    else w.clock_sample_compact(r);
  }
  uint64_t end = 0;
  for (uint64_t t : tstamp) end = std::max(end, t);
  for (uint32_t t = 0; t < o.threads; ++t) w.log_line(fmt::format("{} thread_end tid={}", end, 2000 + t));
  w.log_line(fmt::format("{} exit how=exit", end));
  w.finish();
  fmt::print("{}: {} clock samples over {} stacks of depth {} ({} functions, {} threads)\n", o.out, o.events,
             o.stacks, o.depth, o.functions, o.threads);
  return 0;
}
