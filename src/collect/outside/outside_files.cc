#include "collect/outside/outside_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>

#include "format/outside_sampler.h"
#include "format/record_descriptors.h"
#include "format/stack_id.h"

namespace erkit::collect::outside {
namespace {
int create(const std::string& path, format::DataKind kind) {
  // A new file in the experiment collect made: never one a symlink or earlier file stands for.
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  format::FileHeader h = format::make_file_header(kind);
  if (pwrite(fd, &h, sizeof h, 0) != ssize_t(sizeof h)) {
    close(fd);
    return -1;
  }
  return fd;
}
}  // namespace

OutsideFiles::OutsideFiles(const std::string& experiment, const char* suffix) {
  std::string base = experiment + "/";
  stacks_.fd = create(base + format::kDataFileNames[uint32_t(format::DataKind::kStacks)] + suffix,
                      format::DataKind::kStacks);
  profile_.fd = create(base + format::kDataFileNames[uint32_t(format::DataKind::kProfile)] + suffix,
                       format::DataKind::kProfile);
  overview_path_ = base + format::kDataFileNames[uint32_t(format::DataKind::kOverview)] + suffix;
  ok_ = stacks_.fd >= 0 && profile_.fd >= 0;
  stacks_.block.assign(format::kBlockSize, 0);
  profile_.block.assign(format::kBlockSize, 0);
}

OutsideFiles::~OutsideFiles() {
  flush();
  for (File* f : {&stacks_, &profile_, &overview_})
    if (f->fd >= 0) close(f->fd);
}

// The whole block the first time (its zeros included: a reader sees a complete block with
// unused space), then only what was appended since (a flush every look would otherwise copy
// the block's 64 KiB each time: a tenth of collect's sampling cost, measured with perf).
void OutsideFiles::write_block(File& f) {
  if (f.fd < 0) return;
  const uint32_t from = f.on_disk ? f.on_disk : 0;
  const uint32_t to = f.on_disk ? f.used : uint32_t(f.block.size());
  if (to <= from) return;
  off_t off = off_t(format::kHeaderSize + f.index * format::kBlockSize + from);
  if (pwrite(f.fd, f.block.data() + from, to - from, off) != ssize_t(to - from)) ok_ = false;
  f.on_disk = f.used ? f.used : 1;
}

void OutsideFiles::append(File& f, uint32_t rec_kind, const void* rec, uint32_t size) {
  if (f.fd < 0 || size > format::kBlockSize) return;
  if (f.used + size > format::kBlockSize) {
    write_block(f);
    std::fill(f.block.begin(), f.block.end(), 0);
    f.used = 0;
    f.on_disk = 0;
    ++f.index;
  }
  char* dst = f.block.data() + f.used;
  std::memcpy(dst, rec, size);
  uint32_t word = format::make_record_word(rec_kind, size);
  std::memcpy(dst, &word, 4);
  f.used += size;
}

uint64_t OutsideFiles::stack(const std::vector<uint64_t>& pcs, bool truncated) {
  uint64_t id = format::stack_id(pcs.data(), pcs.size(), truncated);
  if (!written_.insert(id).second) return id;
  std::vector<char> buf(sizeof(format::StackRecord) + pcs.size() * 8, 0);
  format::StackRecord h{};
  h.nframes = uint32_t(pcs.size());
  h.id = id;
  std::memcpy(buf.data(), &h, sizeof h);
  std::memcpy(buf.data() + sizeof h, pcs.data(), pcs.size() * 8);
  append(stacks_, format::kRecStack, buf.data(), uint32_t(buf.size()));
  return id;
}

void OutsideFiles::clock_sample(const format::ClockSampleRecord& r) {
  append(profile_, format::kRecClockSample, &r, sizeof r);
}

void OutsideFiles::overview_sample(const format::OverviewSampleRecord& r) {
  if (overview_.fd < 0) {
    if (overview_path_.empty()) return;
    overview_.fd = create(overview_path_, format::DataKind::kOverview);
    overview_path_.clear();  // one try
    if (overview_.fd < 0) {
      ok_ = false;
      return;
    }
    overview_.block.assign(format::kBlockSize, 0);
  }
  append(overview_, format::kRecOverviewSample, &r, sizeof r);
}

void OutsideFiles::flush() {
  // Stacks first: a sample never refers to a stack not yet on disk.
  if (stacks_.used) write_block(stacks_);
  if (profile_.used) write_block(profile_);
  if (overview_.used) write_block(overview_);
}

}  // namespace erkit::collect::outside
