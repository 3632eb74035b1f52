// libFuzzer target: flipped bytes in a real experiment never give totals beyond the run's
// bounds (issue 14, item 11: 1 099 s of CPU in a 0.4 s run). The base is a real recording
// (fuzz/record_bounds_base.seed: trace_mutex under collect -p hi -s all -i on -H on, in the
// archive format of reader_fuzz.cc, made by make_reader_seed.py); each input is a list of byte
// changes applied to its data files' records:
//   [u8 file][u8 op][u16 offset, little-endian][u8 value]   (5 bytes each)
//   file % 6: profile, synctrace, iotrace, heaptrace, overview, stacks
//   op bit 0: set the byte to value instead of xor-ing it with value; op bits 1-3: the byte is
//   that many bytes further (reaches the high bytes of 64-bit fields from one offset).
// The log and map are not changed: they are what the run's bounds come from. After reading
// and aggregating (model::Profile), every time metric must be at most (threads the log knows)
// x (the run's end plus the reader's slack), I/O bytes at most what that many calls can move,
// and counts at most the records the files hold.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "format/experiment_format.h"
#include "format/record_descriptors.h"
#include "model/metric_defs.h"
#include "model/profile.h"
#include "reader/experiment.h"
#include "reader/record_bounds.h"
#include "scratch_files.h"

namespace {

using namespace erkit;

std::string g_dir;
std::string g_log;                             // the base's log (its first line included)
std::map<int, std::vector<uint8_t>> g_bodies;  // data kind -> records (after the header)

const format::DataKind kFlippable[] = {format::DataKind::kProfile, format::DataKind::kSync, format::DataKind::kIo,
                                       format::DataKind::kHeap,    format::DataKind::kOverview,
                                       format::DataKind::kStacks};

void write_file(const std::string& path, const void* data, size_t n) {
  fuzz::write_scratch_file(path, data, n, O_TRUNC);
}

std::vector<uint8_t> data_file(int kind, const std::vector<uint8_t>& body) {
  format::FileHeader h = fuzz::data_file_header(kind);
  std::vector<uint8_t> out(reinterpret_cast<uint8_t*>(&h), reinterpret_cast<uint8_t*>(&h) + sizeof h);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

// Reads the base seed (see reader_fuzz.cc for the archive format).
void load_base(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> a((std::istreambuf_iterator<char>(in)), {});
  if (a.empty()) {
    std::fprintf(stderr, "record_bounds_fuzz: cannot read %s\n", path.c_str());
    abort();
  }
  g_log = std::string(format::kLogMagic) + " " + std::to_string(format::kFormatVersion) + "\n";
  for (size_t off = 0; off + 4 <= a.size();) {
    int id = a[off] % 10;
    size_t len = std::min(size_t(a[off + 2]) | size_t(a[off + 3]) << 8, a.size() - off - 4);
    const uint8_t* p = a.data() + off + 4;
    if (id == 0) g_log.append(reinterpret_cast<const char*>(p), len);
    if (id >= 3) g_bodies[id - 3].insert(g_bodies[id - 3].end(), p, p + len);
    off += 4 + len;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  load_base(ERKIT_FUZZ_BASE_SEED);
  char tmpl[] = "/tmp/erkit_bounds_fuzz_XXXXXX";
  if (!mkdtemp(tmpl)) abort();
  static std::string root = tmpl;
  g_dir = root + "/f.er";
  mkdir(g_dir.c_str(), 0755);
  std::atexit([] { std::filesystem::remove_all(root); });
  write_file(g_dir + "/" + format::kLogFile, g_log.data(), g_log.size());
  // No load objects: symbolisation has nothing to do with the bounds, and is slow.
  std::string map = std::string(format::kMapMagic) + " " + std::to_string(format::kFormatVersion) + "\n";
  write_file(g_dir + "/" + format::kMapFile, map.data(), map.size());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::map<int, std::vector<uint8_t>> bodies = g_bodies;
  for (size_t off = 0; off + 5 <= size; off += 5) {
    auto& b = bodies[int(kFlippable[data[off] % 6])];
    if (b.empty()) continue;
    size_t at = ((size_t(data[off + 2]) | size_t(data[off + 3]) << 8) + ((data[off + 1] >> 1) & 7)) % b.size();
    if (data[off + 1] & 1) b[at] = data[off + 4];
    else b[at] ^= data[off + 4];
  }
  for (int k = 0; k < int(format::DataKind::kCount); ++k) {
    auto f = data_file(k, bodies[k]);
    write_file(g_dir + "/" + format::kDataFileNames[k], f.data(), f.size());
  }

  auto r = reader::open_experiment(g_dir);
  if (!r.experiment) abort();
  const reader::Experiment& e = *r.experiment;
  // The bounds, from the (unchanged) log.
  const reader::RunLog& log = e.log;
  if (log.collector_exit.empty()) abort();  // the base must be a complete run
  const double end_ns = double(log.last_event_ns) + std::max(double(reader::kEndSlackNs), double(log.last_event_ns) / 2);
  const double threads = double(log.threads.size() + 1);
  const double io_calls = double(e.io.size());
  const double time_bound = threads * end_ns;
  const double bytes_bound = io_calls * (double(reader::kMaxRwCount) + end_ns * double(reader::kMaxBytesPerNs));
  std::map<uint32_t, double> count_bound = {
      {model::kSyncN, double(e.sync.size())},   {model::kIoReadCount, io_calls},
      {model::kIoWriteCount, io_calls},         {model::kIoOtherCount, io_calls},
      {model::kAlloc, double(e.heap.size())},   {model::kLeak, double(e.heap.size())}};

  model::Profile p;
  p.add_experiment(std::move(*r.experiment));
  const auto& totals = p.totals();
  for (uint32_t m = 0; m < model::kMetricCount; ++m) {
    const auto& def = model::metric_def(m);
    double v = double(totals[m]);
    double bound = -1;
    if (def.unit == model::MetricUnit::Nanoseconds) bound = time_bound;
    else if (m == model::kIoReadBytes || m == model::kIoWriteBytes) bound = bytes_bound;
    else if (count_bound.count(m)) bound = count_bound[m];
    if (v < 0 || (bound >= 0 && v > bound)) {
      std::fprintf(stderr, "record_bounds_fuzz: %s total %.0f outside [0, %.0f] (%.0f threads, run end %.0f ns)\n",
                   def.name.c_str(), v, bound, threads, end_ns);
      abort();
    }
  }
  for (model::FuncId f : p.functions_with_data()) (void)p.callers_callees(f);
  return 0;
}
