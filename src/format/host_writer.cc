#include "format/host_writer.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <unordered_set>

#include "format/clock_compact.h"
#include "format/log_keys.h"
#include "format/record_descriptors.h"
#include "format/stack_id.h"

namespace erkit::format {

struct HostExperimentWriter::File {
  std::string path;
  DataKind kind;
  std::vector<char> block;  // current block
  uint32_t used = 0;
  FILE* fp = nullptr;
  ClockCompactBase clock_base{};  // the block's previous compact clock sample (clock_compact.h)
};

HostExperimentWriter::HostExperimentWriter(std::string dir) : dir_(std::move(dir)) {
  if (mkdir(dir_.c_str(), 0755) != 0) {
    ok_ = false;
    error_ = "cannot create " + dir_ + ": " + std::strerror(errno);
    return;
  }
  std::ofstream(dir_ + "/" + kLogFile) << kLogMagic << " " << kFormatVersion << "\n";
  std::ofstream(dir_ + "/" + kMapFile) << kMapMagic << " " << kFormatVersion << "\n";
  for (uint32_t k = 0; k < uint32_t(DataKind::kCount); ++k) {
    auto* f = new File;
    f->path = dir_ + "/" + kDataFileNames[k];
    f->kind = DataKind(k);
    f->block.assign(kBlockSize, 0);
    f->fp = std::fopen(f->path.c_str(), "wb");
    if (!f->fp) {
      ok_ = false;
      error_ = "cannot create " + f->path;
    } else {
      FileHeader h = make_file_header(DataKind(k));
      std::fwrite(&h, sizeof h, 1, f->fp);
    }
    files_.push_back(f);
  }
}

HostExperimentWriter::~HostExperimentWriter() {
  finish();
  for (File* f : files_) delete f;
}

void HostExperimentWriter::log_line(const std::string& line) {
  std::ofstream(dir_ + "/" + kLogFile, std::ios::app) << line << "\n";
}

void HostExperimentWriter::map_line(const std::string& line) {
  std::ofstream(dir_ + "/" + kMapFile, std::ios::app) << line << "\n";
}

void HostExperimentWriter::load_object(const std::string& path, uint64_t bias, uint64_t lo, uint64_t hi,
                                       const std::string& build_id, uint64_t tstamp_ns) {
  char buf[256];
  std::snprintf(buf, sizeof buf, " %s=0x%llx %s=0x%llx %s=0x%llx %s=%s", log_key::kBias, (unsigned long long)bias,
                log_key::kLo, (unsigned long long)lo, log_key::kHi, (unsigned long long)hi, log_key::kBuildId,
                build_id.empty() ? "-" : build_id.c_str());
  std::string quoted = "\"";
  for (char c : path) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  quoted += '"';
  map_line(std::to_string(tstamp_ns) + " " + log_event::kLoad + " " + log_key::kPath + "=" + quoted + buf);
}

void HostExperimentWriter::append(DataKind kind, uint32_t rec_kind, const void* rec, uint32_t size) {
  File* f = files_[uint32_t(kind)];
  if (!f->fp) return;
  if (f->used + size > kBlockSize) {
    std::fwrite(f->block.data(), 1, kBlockSize, f->fp);
    std::fill(f->block.begin(), f->block.end(), 0);
    f->used = 0;
    f->clock_base = ClockCompactBase{};
  }
  char* dst = f->block.data() + f->used;
  std::memcpy(dst, rec, size);
  uint32_t word = make_record_word(rec_kind, size);
  std::memcpy(dst, &word, 4);
  f->used += size;
}

uint64_t HostExperimentWriter::stack(const std::vector<uint64_t>& pcs) {
  uint64_t id = stack_id(pcs.data(), pcs.size(), false);
  if (!written_stacks_.insert(id).second) return id;
  std::vector<char> buf(sizeof(StackRecord) + pcs.size() * 8, 0);
  StackRecord h{};
  h.nframes = uint32_t(pcs.size());
  h.id = id;
  std::memcpy(buf.data(), &h, sizeof h);
  std::memcpy(buf.data() + sizeof h, pcs.data(), pcs.size() * 8);
  append(DataKind::kStacks, kRecStack, buf.data(), uint32_t(buf.size()));
  return id;
}

void HostExperimentWriter::clock_sample(const ClockSampleRecord& r) {
  append(DataKind::kProfile, kRecClockSample, &r, sizeof r);
}
void HostExperimentWriter::clock_sample_compact(const ClockSampleRecord& r) {
  File* f = files_[uint32_t(DataKind::kProfile)];
  if (!f->fp) return;
  ClockFields fields{r.tstamp_ns, r.stack_id, r.tid, r.cpu, r.flags, {}};
  std::memcpy(fields.ns, r.ns, sizeof fields.ns);
  alignas(8) uint8_t buf[kClockCompactMaxSize];
  ClockCompactBase base = f->clock_base;
  uint32_t size = encode_clock_compact(&base, fields, buf);
  if (f->used + size > kBlockSize) {  // the next block starts from the zero base
    append(DataKind::kProfile, kRecClockCompact, buf, size);  // flushes; rewritten below
    f->used -= size;
    std::memset(f->block.data() + f->used, 0, size);
    base = ClockCompactBase{};
    size = encode_clock_compact(&base, fields, buf);
  }
  append(DataKind::kProfile, kRecClockCompact, buf, size);
  f->clock_base = base;
}
void HostExperimentWriter::overview_sample(const OverviewSampleRecord& r) {
  append(DataKind::kOverview, kRecOverviewSample, &r, sizeof r);
}
void HostExperimentWriter::heap_event(const HeapEvent& e) {
  if (!heap_record_kind(e.op)) return;
  alignas(8) char rec[sizeof(HeapReallocRecord)] = {};
  encode_heap_record(e, rec);
  append(DataKind::kHeap, heap_record_kind(e.op), rec, heap_record_size(e.op));
}
void HostExperimentWriter::sync_event(const SyncEventRecord& r) { append(DataKind::kSync, kRecSyncEvent, &r, sizeof r); }
void HostExperimentWriter::io_event(const IoEventRecord& r) { append(DataKind::kIo, kRecIoEvent, &r, sizeof r); }
void HostExperimentWriter::mpi_event(const MpiEventRecord& r) { append(DataKind::kMpi, kRecMpiEvent, &r, sizeof r); }
void HostExperimentWriter::hwc_event(const HwcEventRecord& r) { append(DataKind::kHwc, kRecHwcEvent, &r, sizeof r); }

void HostExperimentWriter::finish() {
  for (File* f : files_) {
    if (!f->fp) continue;
    if (f->used) std::fwrite(f->block.data(), 1, kBlockSize, f->fp);
    std::fclose(f->fp);
    f->fp = nullptr;
    f->used = 0;
  }
}

}  // namespace erkit::format
