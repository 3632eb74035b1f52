// Test support (header-only, used by the erprint_test files): synthetic experiments richer
// than tests/support/folded_experiment.h — several threads, CPUs, microstates and overview
// samples — and a Session runner that captures a command's output.
#pragma once
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdio.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "erprint/commands.h"
#include "erprint/session.h"
#include "folded_experiment.h"
#include "format/host_writer.h"
#include "symbols/symbols.h"

namespace erkit::erprint::testing {

struct Synthetic {
  // "main;solve;kernel COUNT [tid=T] [cpu=C] [state=S]": COUNT clock samples of 10 ms in
  // microstate S (0 = user) on thread T (default 1000 = the process) and CPU C (default 0).
  std::vector<std::string> clock;
  // Overview sample points (ns since the start) with cumulative user CPU (ns) at each.
  std::vector<std::pair<uint64_t, int64_t>> samples;
  int pid = 1000;
  int exit_status = 0;
};

inline std::vector<std::string> split_on(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}

// Writes the experiment to `dir` (must not exist); returns "" or an error.
inline std::string write_synthetic(const std::string& dir, const Synthetic& spec) {
  struct Line {
    std::vector<std::string> frames;  // root first
    long count = 0;
    uint32_t tid = 0;
    int cpu = 0, state = 0;
  };
  std::vector<Line> lines;
  std::set<std::string> names;
  for (const auto& l : spec.clock) {
    auto words = split_on(l, ' ');
    if (words.size() < 2) return "bad line: " + l;
    Line line{split_on(words[0], ';'), std::atol(words[1].c_str()), uint32_t(spec.pid), 0, 0};
    for (size_t i = 2; i < words.size(); ++i) {
      auto kv = split_on(words[i], '=');
      if (kv.size() != 2) return "bad option: " + words[i];
      if (kv[0] == "tid") line.tid = uint32_t(std::atol(kv[1].c_str()));
      else if (kv[0] == "cpu") line.cpu = std::atoi(kv[1].c_str());
      else if (kv[0] == "state") line.state = std::atoi(kv[1].c_str());
      else return "bad option: " + words[i];
    }
    for (const auto& f : line.frames) names.insert(f);
    lines.push_back(line);
  }
  const std::string objdir = dir + ".src";
  std::filesystem::create_directories(objdir);
  const std::string src = objdir + "/funcs.c", so = objdir + "/libsynth.so";
  {
    std::ofstream out(src);
    for (const auto& n : names) out << "int " << n << "(int x) { return x * 3 + 1; }\n";
  }
  if (std::system(fmt::format("cc -shared -fPIC -O0 -fno-builtin -w -o {} {} 2>&1", so, src).c_str()) != 0)
    return "cannot compile " + src;
  std::string err;
  auto syms = symbols::ObjectSymbols::open(so, "", &err);
  if (!syms) return "cannot read " + so + ": " + err;
  std::map<std::string, uint64_t> addr;
  for (const auto& f : syms->functions()) addr[f.name] = f.addr;

  format::HostExperimentWriter w(dir);
  if (!w.ok()) return w.error();
  w.log_line("0 collect version=test command=\"collect ./synthetic\" target=./synthetic args=\"\" cwd=/tmp");
  w.log_line(fmt::format("0 start pid={} ppid=1 exe=\"synthetic\" host=box arch=x86_64 os=6.1 ncpus=4 "
                         "pagesize=4096 clock_interval_ns=10000000",
                         spec.pid));
  w.log_line("0 setting name=clock interval_ns=10000000");
  w.load_object(so, 0, 0, uint64_t(1) << 40);
  uint64_t t = 0;
  for (const auto& l : lines) {
    std::vector<uint64_t> pcs;
    for (size_t i = l.frames.size(); i-- > 0;) {
      auto it = addr.find(l.frames[i]);
      if (it == addr.end()) return "function not found: " + l.frames[i];
      pcs.push_back(it->second + (pcs.empty() ? 1 : 2));
    }
    uint64_t id = w.stack(pcs);
    for (long c = 0; c < l.count; ++c) {
      format::ClockSampleRecord r{};
      r.tid = l.tid;
      r.tstamp_ns = (t += 10000000);
      r.stack_id = id;
      r.cpu = l.cpu;
      if (l.tid == uint32_t(spec.pid)) r.flags = format::kClockFlagMainThread;
      r.ns[l.state] = 10000000;
      w.clock_sample(r);
    }
  }
  uint32_t n = 0;
  for (const auto& [ts, utime] : spec.samples) {
    format::OverviewSampleRecord r{};
    r.reason = n == 0 ? format::kSampleStart : format::kSamplePeriodic;
    r.tstamp_ns = ts;
    r.number = ++n;
    r.utime_ns = utime;
    r.nthreads = 1;
    r.read_bytes = r.write_bytes = -1;
    w.overview_sample(r);
  }
  w.log_line(fmt::format("{} exit how=exit", t));
  w.log_line(fmt::format("0 end how=exit status={}", spec.exit_status));
  w.finish();
  return "";
}

// A session over synthetic experiments with the built-in defaults (no .er.rc files), whose
// reports are captured.
class SessionFixture : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const auto& d : dirs_) {
      std::filesystem::remove_all(d);
      std::filesystem::remove_all(d + ".src");
    }
  }
  // Adds an experiment; call open() when all are added.
  void add(const Synthetic& spec) {
    std::string d = erkit::testing::temp_path("erprint") + ".er";
    ASSERT_EQ(write_synthetic(d, spec), "");
    dirs_.push_back(d);
  }
  void add_folded(const std::vector<std::string>& folded) {
    Synthetic s;
    s.clock = folded;
    add(s);
  }
  void open() {
    s_ = std::make_unique<Session>();
    for (const auto& d : dirs_) {
      std::string error;
      ASSERT_TRUE(s_->load(d, &error)) << error;
    }
    s_->finish_loading();
  }
  // Runs command lines; returns everything written to the output, and sets last_error_.
  std::string run(const std::string& lines, InputMode mode = InputMode::Script) {
    char* buf = nullptr;
    size_t len = 0;
    FILE* mem = open_memstream(&buf, &len);
    s_->set_output(mem);
    s_->input = mode;
    last_error_.clear();
    ok_ = true;
    std::istringstream in(lines);
    std::string line;
    while (std::getline(in, line)) {
      CommandResult r = run_command_line(*s_, line);
      if (!r.ok) last_error_ += r.error + "\n", ok_ = false;
      if (r.quit) break;
    }
    s_->set_output(stdout);  // closes mem
    std::string out(buf, len);
    std::free(buf);
    return out;
  }
  std::string path(size_t i) const { return dirs_[i]; }

  std::vector<std::string> dirs_;
  std::unique_ptr<Session> s_;
  std::string last_error_;
  bool ok_ = true;
};

}  // namespace erkit::erprint::testing
