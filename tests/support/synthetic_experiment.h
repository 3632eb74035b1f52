// Test support (header-only, for the er_print session tests in src/erprint/*_test.cc):
// synthetic experiments richer than folded_experiment.h — several threads, CPUs, microstates,
// overview samples, heap, I/O and sync events — and a Session runner that captures output.
#pragma once
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <stdio.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
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
  // "main;grow COUNT size=N [freed=K] [tid=T]": COUNT allocations of N bytes, the first K freed.
  // The io and sync lines take tid=T as well (default: the process).
  std::vector<std::string> heap;
  // "main;rd COUNT op=read|write|open bytes=N ns=D file=PATH [fd=F]": COUNT I/O calls.
  std::vector<std::string> io;
  // "main;lock COUNT ns=D object=ADDR": COUNT mutex waits of D ns on the lock at ADDR (hex).
  std::vector<std::string> sync;
  // "main;spin COUNT counter=NAME value=N [tid=T]": COUNT counter overflows of N events each
  // (collect -h records) of the counter NAME (a name of the metric catalog: cycles, insts...).
  std::vector<std::string> hwc;
  // The CPUs' clock rate the log records ("cpu_clock khz=": cycles shown as time); 0: none.
  uint64_t cpu_khz = 0;
  // Overview sample points (ns since the start) with cumulative user CPU (ns) at each.
  std::vector<std::pair<uint64_t, int64_t>> samples;
  int pid = 1000;
  int exit_status = 0;
  bool debug = false;  // compile the functions with -g: line information for lines, source
};

inline std::vector<std::string> split_on(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}

// One line of a Synthetic list: frames (root first), a count and name=value options.
struct SyntheticLine {
  std::vector<std::string> frames;
  long count = 0;
  std::map<std::string, std::string> opts;
  uint64_t num(const std::string& k, uint64_t dflt = 0) const {
    auto it = opts.find(k);
    return it == opts.end() ? dflt : std::strtoull(it->second.c_str(), nullptr, 0);
  }
};

inline std::string parse_synthetic(const std::vector<std::string>& in, std::vector<SyntheticLine>* out,
                                   std::set<std::string>* names) {
  for (const auto& l : in) {
    auto words = split_on(l, ' ');
    if (words.size() < 2) return "bad line: " + l;
    SyntheticLine line{split_on(words[0], ';'), std::atol(words[1].c_str()), {}};
    for (size_t i = 2; i < words.size(); ++i) {
      auto kv = split_on(words[i], '=');
      if (kv.size() != 2) return "bad option: " + words[i];
      line.opts[kv[0]] = kv[1];
    }
    for (const auto& f : line.frames) names->insert(f);
    out->push_back(line);
  }
  return "";
}

// Writes the experiment to `dir` (must not exist); returns "" or an error.
inline std::string write_synthetic(const std::string& dir, const Synthetic& spec) {
  std::vector<SyntheticLine> clock, heap, io, sync, hwc;
  std::set<std::string> names;
  for (auto [from, to] : {std::pair{&spec.clock, &clock}, {&spec.heap, &heap}, {&spec.io, &io}, {&spec.sync, &sync},
                          {&spec.hwc, &hwc}})
    if (auto e = parse_synthetic(*from, to, &names); !e.empty()) return e;
  for (const auto& l : clock)
    for (const auto& [k, v] : l.opts)
      if (k != "tid" && k != "cpu" && k != "state") return "bad option: " + k;
  const std::string objdir = dir + ".src";
  std::filesystem::create_directories(objdir);
  const std::string src = objdir + "/funcs.c", so = objdir + "/libsynth.so";
  {
    std::ofstream out(src);
    for (const auto& n : names) out << "int " << n << "(int x) { return x * 3 + 1; }\n";
  }
  // Without CET's endbr64 the sampled address+1 is the second instruction (after pushq %rbp).
  const char* flags = spec.debug ? "-g -fcf-protection=none " : "";
  if (std::system(fmt::format("cc -shared -fPIC -O0 {}-fno-builtin -w -o {} {} 2>&1", flags, so, src).c_str()) != 0)
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
  if (!sync.empty()) w.log_line("0 setting name=sync_threshold ns=1000 mode=fixed");
  w.load_object(so, 0, 0, uint64_t(1) << 40);
  std::string error;
  auto stack = [&](const SyntheticLine& l) -> uint64_t {
    std::vector<uint64_t> pcs;
    for (size_t i = l.frames.size(); i-- > 0;) {
      auto it = addr.find(l.frames[i]);
      if (it == addr.end()) {
        error = "function not found: " + l.frames[i];
        return 0;
      }
      pcs.push_back(it->second + (pcs.empty() ? 1 : 2));
    }
    return w.stack(pcs);
  };
  const uint32_t main_tid = uint32_t(spec.pid);
  std::map<uint32_t, uint64_t> first_sample;  // thread -> its first sample's time
  uint64_t t = 0;
  for (const auto& l : clock) {
    uint64_t id = stack(l);
    for (long c = 0; c < l.count; ++c) {
      format::ClockSampleRecord r{};
      r.tid = uint32_t(l.num("tid", main_tid));
      first_sample.emplace(r.tid, t + 10000000);
      r.tstamp_ns = (t += 10000000);
      r.stack_id = id;
      r.cpu = int(l.num("cpu"));
      if (r.tid == main_tid) r.flags = format::kClockFlagMainThread;
      r.ns[l.num("state")] = 10000000;
      w.clock_sample(r);
    }
  }
  // The thread of a heap, io or sync line's event at time `at` (logged as started by then).
  auto thread_of = [&](const SyntheticLine& l, uint64_t at) {
    uint32_t tid = uint32_t(l.num("tid", main_tid));
    first_sample.emplace(tid, at);
    return tid;
  };
  uint64_t next_addr = 0x100000;
  for (const auto& l : heap) {
    uint64_t id = stack(l);
    std::vector<uint64_t> blocks;
    for (long c = 0; c < l.count; ++c) {
      format::HeapEvent h{};
      h.tid = thread_of(l, t + 1000);
      h.tstamp_ns = (t += 1000);
      h.stack_id = id;
      h.op = format::kHeapMalloc;
      h.size = l.num("size", 16);
      h.address = next_addr += 0x1000;
      blocks.push_back(h.address);
      w.heap_event(h);
    }
    for (uint64_t c = 0; c < l.num("freed") && c < blocks.size(); ++c) {
      format::HeapEvent h{};
      h.tid = thread_of(l, t + 1000);
      h.tstamp_ns = (t += 1000);
      h.stack_id = id;
      h.op = format::kHeapFree;
      h.address = blocks[c];
      w.heap_event(h);
    }
  }
  std::map<std::string, uint32_t> files;
  for (const auto& l : io) {
    uint64_t id = stack(l);
    const std::string path = l.opts.count("file") ? l.opts.at("file") : "/tmp/synthetic.dat";
    auto [it, fresh] = files.try_emplace(path, uint32_t(files.size() + 1));
    const int fd = int(l.num("fd", 2 + it->second));
    if (fresh) w.log_line(fmt::format("0 file id={} fd={} path=\"{}\" how=open", it->second, fd, path));
    const std::string op = l.opts.count("op") ? l.opts.at("op") : "read";
    for (long c = 0; c < l.count; ++c) {
      format::IoEventRecord r{};
      r.tid = thread_of(l, t + 1000);
      r.tstamp_ns = (t += 1000);
      r.stack_id = id;
      r.op = op == "read" ? format::kIoRead : op == "write" ? format::kIoWrite : format::kIoOpen;
      r.fd = fd;
      r.duration_ns = l.num("ns", 1000);
      r.bytes = int64_t(l.num("bytes"));
      r.file_id = it->second;
      w.io_event(r);
    }
  }
  for (const auto& l : sync) {
    uint64_t id = stack(l);
    for (long c = 0; c < l.count; ++c) {
      format::SyncEventRecord r{};
      r.tid = thread_of(l, t + 1000);
      r.tstamp_ns = (t += 1000);
      r.stack_id = id;
      r.op = format::kSyncMutex;
      r.wait_ns = l.num("ns", 1000);
      r.object = l.num("object", 0x5000);
      w.sync_event(r);
    }
  }
  if (spec.cpu_khz) w.log_line(fmt::format("0 cpu_clock khz={} source=cpuinfo cpus={}", spec.cpu_khz, spec.cpu_khz));
  std::map<std::string, uint32_t> counters;  // name -> index of its "hwc" line
  for (const auto& l : hwc) {
    uint64_t id = stack(l);
    const std::string name = l.opts.count("counter") ? l.opts.at("counter") : "cycles";
    auto [it, fresh] = counters.try_emplace(name, uint32_t(counters.size()));
    if (fresh)
      w.log_line(fmt::format("0 hwc index={} name={} perf={} description=\"{}\" interval={} unit=- memory=- "
                             "dataspace=0",
                             it->second, name, name, name, l.num("value", 1)));
    for (long c = 0; c < l.count; ++c) {
      format::HwcEventRecord r{};
      r.tid = thread_of(l, t + 1000);
      r.tstamp_ns = (t += 1000);
      r.stack_id = id;
      r.counter = it->second;
      r.value = l.num("value", 1);
      r.cpu = -1;
      w.hwc_event(r);
    }
  }
  if (!error.empty()) return error;
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
  // The threads besides the process's own, as the collector logs them (the reader drops the
  // records of threads unknown to a log that describes the threads).
  for (const auto& [tid, first] : first_sample)
    if (tid != main_tid) w.log_line(fmt::format("{} thread_start tid={}", first, tid));
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
