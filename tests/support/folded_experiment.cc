#include "folded_experiment.h"

#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "format/host_writer.h"
#include "symbols/symbols.h"

namespace erkit::testing {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}

}  // namespace

std::string temp_path(const std::string& stem) {
  static std::atomic<int> counter{0};
  return fmt::format("/tmp/erkit_{}_{}_{}", stem, getpid(), counter++);
}

std::string write_folded_experiment(const std::string& dir, const std::vector<std::string>& folded,
                                    const FoldedOptions& opts) {
  struct Line {
    std::vector<std::string> frames;  // root first
    long count;
  };
  std::vector<Line> lines;
  std::set<std::string> names;
  for (const auto& l : folded) {
    size_t sp = l.rfind(' ');
    if (sp == std::string::npos) return "bad folded line: " + l;
    Line line{split(l.substr(0, sp), ';'), std::atol(l.c_str() + sp + 1)};
    for (const auto& f : line.frames)
      if (f != "?") names.insert(f);  // "?": a PC in no load object (<Unknown>)
    lines.push_back(line);
  }
  std::string objdir = dir + ".src";
  std::filesystem::create_directories(objdir);
  std::string src = objdir + "/funcs.c", so = objdir + "/funcs.so";
  {
    std::ofstream out(src);
    // Bodies with a little code so that addr+1 and addr+2 lie inside each function.
    for (const auto& n : names) out << "int " << n << "(int x) { return x * 3 + 1; }\n";
  }
  std::string cmd = fmt::format("cc -shared -fPIC -O0 -fno-builtin -w -o {} {} 2>&1", so, src);
  if (std::system(cmd.c_str()) != 0) return "cannot compile " + src;
  std::string err;
  auto syms = symbols::ObjectSymbols::open(so, "", &err);
  if (!syms) return "cannot read " + so + ": " + err;
  std::map<std::string, uint64_t> addr;
  for (const auto& f : syms->functions()) addr[f.name] = f.addr;

  format::HostExperimentWriter w(dir);
  if (!w.ok()) return w.error();
  w.log_line("0 start pid=1000 ppid=1 exe=\"synthetic\" clock_interval_ns=10000000");
  w.log_line("0 setting name=clock interval_ns=10000000");
  w.load_object(so, 0, 0, uint64_t(1) << 40);
  uint64_t t = 0;
  for (const auto& l : lines) {
    std::vector<uint64_t> pcs;
    for (size_t i = l.frames.size(); i-- > 0;) {
      if (l.frames[i] == "?") {
        pcs.push_back(uint64_t(3) << 40);  // beyond the object's mapping
        continue;
      }
      auto it = addr.find(l.frames[i]);
      if (it == addr.end()) return "function not found in test object: " + l.frames[i];
      pcs.push_back(it->second + (pcs.empty() ? 1 : 2));  // return addresses: pc-1 is inside
    }
    uint64_t id = w.stack(pcs);
    for (long c = 0; c < l.count; ++c) {
      format::ClockSampleRecord r{};
      r.tid = opts.tid;
      r.tstamp_ns = (t += opts.ns_per_sample);
      r.stack_id = id;
      r.cpu = 0;
      r.ns[opts.metric] = opts.ns_per_sample;
      w.clock_sample(r);
    }
  }
  w.log_line(fmt::format("{} exit how=exit", t));
  w.finish();
  return "";
}

std::string write_pc_experiment(const std::string& dir, const std::string& object,
                                const std::vector<std::vector<uint64_t>>& stacks) {
  format::HostExperimentWriter w(dir);
  if (!w.ok()) return w.error();
  w.log_line("0 start pid=1000 ppid=1 exe=\"synthetic\" clock_interval_ns=10000000");
  w.log_line("0 setting name=clock interval_ns=10000000");
  w.load_object(object, 0, 0, uint64_t(1) << 40);
  uint64_t t = 0;
  for (const auto& pcs : stacks) {
    format::ClockSampleRecord r{};
    r.tid = 1;
    r.tstamp_ns = (t += 10000000);
    r.stack_id = w.stack(pcs);
    r.ns[0] = 10000000;
    w.clock_sample(r);
  }
  w.log_line(fmt::format("{} exit how=exit", t));
  w.finish();
  return "";
}

}  // namespace erkit::testing
