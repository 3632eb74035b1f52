// libFuzzer target: er_print's command language (split_command_line, command lookup and every
// command's argument handling) on a synthetic experiment. Each input is a script: one command
// line per input line, run on a fresh Session. Commands that write files named by their
// argument (outfile, appendfile, mapfile) or read scripts (script) are skipped so that the
// fuzzer cannot clobber files or recurse; everything else runs, its output sent to /dev/null.
//
// The experiment is written once per process with the host-side writer: clock samples, heap,
// sync and I/O events on three threads, whose stacks are PCs of real functions of a
// small shared object compiled at start-up (so symbolisation, lines and disassembly work on
// real code).
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "erprint/commands.h"
#include "erprint/session.h"
#include "format/host_writer.h"
#include "symbols/symbols.h"

namespace {

using namespace erkit;

std::string g_root, g_experiment;

// A small shared object with line information, compiled once per process: symbolising it is
// cheap (the fuzzer's own executable, with ASan and its DWARF, took 0.15 s per input).
const char* kSource =
    "int fuzz_leaf(int x) { return x * 3 + 1; }\n"
    "int fuzz_middle(int x) { return fuzz_leaf(x) + 2; }\n"
    "int fuzz_root(int x) { return fuzz_middle(x) * 5; }\n";

void write_experiment(const std::string& dir) {
  std::string src = g_root + "/funcs.c", so = g_root + "/libfuncs.so";
  std::ofstream(src) << kSource;
  if (std::system(("cc -shared -fPIC -g -O0 -o " + so + " " + src).c_str()) != 0) abort();
  std::string err;
  auto syms = symbols::ObjectSymbols::open(so, "", &err);
  if (!syms) abort();
  std::map<std::string, uint64_t> addr;
  for (const auto& f : syms->functions()) addr[f.name] = f.addr;
  format::HostExperimentWriter w(dir);
  if (!w.ok()) abort();
  w.log_line("0 start pid=1000 ppid=1 exe=\"fuzz\" ncpus=2 pagesize=4096 clock_interval_ns=1000000");
  w.log_line("0 setting name=clock interval_ns=1000000");
  w.log_line("0 setting name=heap on=1");
  w.log_line("0 setting name=sync value=all");
  w.log_line("0 setting name=io on=1");
  for (uint32_t tid : {1000u, 1001u, 1002u}) w.log_line(std::to_string(tid) + " thread_start tid=" + std::to_string(tid));
  w.load_object(so, 0, 0, uint64_t(1) << 40);
  uint64_t leaf = addr["fuzz_leaf"] + 4, mid = addr["fuzz_middle"] + 4, root = addr["fuzz_root"] + 4;
  uint64_t stacks[] = {w.stack({leaf, mid, root}), w.stack({mid, root}), w.stack({root}),
                       w.stack({leaf, root}), w.stack({0x10, leaf, mid, root})};  // one unknown PC
  uint64_t t = 0;
  for (int i = 0; i < 300; ++i) {
    t += 1000000;
    format::ClockSampleRecord r{};
    r.tid = 1000 + uint32_t(i % 3);
    r.tstamp_ns = t;
    r.stack_id = stacks[i % 5];
    r.cpu = i % 2;
    r.ns[i % format::kMsCount] = 1000000;
    w.clock_sample(r);
    if (i % 10 == 0) {
      format::HeapEvent h{};
      h.tid = r.tid, h.tstamp_ns = t, h.stack_id = stacks[i % 4];
      h.op = i % 20 ? format::kHeapMalloc : format::kHeapFree;
      h.size = uint64_t(i) * 16, h.address = 0x100000 + uint64_t(i / 20) * 64;
      w.heap_event(h);
      format::SyncEventRecord s{};
      s.tid = r.tid, s.tstamp_ns = t, s.stack_id = stacks[i % 3], s.op = format::kSyncMutex;
      s.wait_ns = uint64_t(i) * 1000, s.object = 0x2000;
      w.sync_event(s);
      format::IoEventRecord io{};
      io.tid = r.tid, io.tstamp_ns = t, io.stack_id = stacks[i % 3], io.op = i % 20 ? format::kIoRead : format::kIoWrite;
      io.fd = 3, io.duration_ns = 5000, io.bytes = 4096, io.file_id = 1;
      w.io_event(io);
    }
  }
  w.log_line(std::to_string(t) + " file id=1 path=\"/tmp/data.txt\" fd=3 how=open");
  w.log_line(std::to_string(t) + " exit how=exit");
  w.log_line("0 end how=exit status=0");
  w.finish();
}

bool skipped(const std::string& line) {
  static const std::set<std::string> kUnsafe = {"outfile", "appendfile", "mapfile", "script"};
  std::string error;
  auto words = erprint::split_command_line(line, &error);
  if (words.empty()) return false;
  std::string name = words[0];
  if (!name.empty() && name[0] == '-') name.erase(0, 1);
  const erprint::Command* c = erprint::find_command(name, &error);
  return c && kUnsafe.count(c->name);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char tmpl[] = "/tmp/erkit_erprint_fuzz_XXXXXX";
  if (!mkdtemp(tmpl)) abort();
  g_root = tmpl;
  g_experiment = g_root + "/test.1.er";
  write_experiment(g_experiment);
  std::atexit([] { std::filesystem::remove_all(g_root); });
  if (chdir(g_root.c_str()) != 0) abort();  // relative paths in commands land in the scratch dir
  int fd = open("/dev/null", O_WRONLY);
  dup2(fd, 1);  // reports go to stdout; sanitizer reports and libFuzzer's own go to stderr
  close(fd);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return -1;  // scripts, not novels: keeps every input fast
  erprint::Session s;
  std::string error;
  if (!s.load(g_experiment, &error)) abort();
  s.finish_loading();
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::string line;
  int n = 0;
  while (std::getline(in, line) && n++ < 32) {
    if (skipped(line)) continue;
    erprint::CommandResult r = erprint::run_command_line(s, line);
    if (r.quit) break;
  }
  return 0;
}
