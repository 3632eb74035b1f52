#include "reader/data_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "format/record_descriptors.h"

namespace erkit::reader {
namespace {

// A memory mapping that unmaps itself.
struct Mapping {
  const uint8_t* data = nullptr;
  size_t size = 0;
  ~Mapping() {
    if (data) munmap(const_cast<uint8_t*>(data), size);
  }
};

}  // namespace

DataFileStats read_data_file(const std::string& path, format::DataKind expected_kind,
                             const std::function<void(uint32_t, const uint8_t*, uint32_t)>& on_record,
                             std::vector<std::string>* problems,
                             const std::function<void(bool)>& on_break) {
  DataFileStats st;
  // O_NONBLOCK and the regular-file check: a FIFO or device in a damaged experiment must not
  // block or be read for ever.
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {  // absent (the kind was not recorded) or unreadable: the caller decides
    st.open_error = errno;
    return st;
  }
  st.present = true;
  struct stat sb;
  if (fstat(fd, &sb) != 0) {
    problems->push_back("cannot stat the file");
    close(fd);
    return st;
  }
  if (!S_ISREG(sb.st_mode)) {
    problems->push_back("not a regular file");
    close(fd);
    return st;
  }
  if (sb.st_size == 0) {
    // The collector writes the header when it creates the file: an empty one was cut short.
    problems->push_back("empty (no header)");
    close(fd);
    return st;
  }
  Mapping m;
  m.size = size_t(sb.st_size);
  void* p = mmap(nullptr, m.size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (p == MAP_FAILED) {
    problems->push_back("cannot map the file");
    return st;
  }
  m.data = static_cast<const uint8_t*>(p);
  if (m.size < format::kHeaderSize) {
    problems->push_back(fmt::format("truncated header ({} of {} bytes)", m.size, format::kHeaderSize));
    return st;
  }
  format::FileHeader h;
  std::memcpy(&h, m.data, sizeof h);
  if (std::memcmp(h.magic, format::kFileMagic, sizeof h.magic) != 0) {
    problems->push_back("not an erkit data file (bad magic)");
    return st;
  }
  if (h.endian_check != format::kEndianCheck) {
    problems->push_back("written with a different byte order");
    return st;
  }
  if (h.format_version != format::kFormatVersion) {
    problems->push_back(fmt::format("format version {} is not supported (this erkit reads version {})",
                                    h.format_version, format::kFormatVersion));
    return st;
  }
  if (h.data_kind != uint32_t(expected_kind) || h.header_size != format::kHeaderSize ||
      h.block_size != format::kBlockSize) {
    problems->push_back("header does not match the file's name or layout");
    return st;
  }
  if (!format::descriptor_accepted(expected_kind, h.descriptor, strnlen(h.descriptor, sizeof h.descriptor))) {
    problems->push_back("record layout differs from this erkit's (written by another version?)");
    return st;
  }
  size_t body = m.size - format::kHeaderSize;
  size_t nblocks = (body + format::kBlockSize - 1) / format::kBlockSize;
  if (body % format::kBlockSize)
    problems->push_back(fmt::format("file ends inside block {} (truncated)", nblocks - 1));
  // Read once, front to back: ask the kernel to read ahead, and give back the pages already
  // decoded every kReleaseBlocks blocks (they stay in the page cache), so that the mapping of
  // a file of 10 M events (900 MB) does not add its whole size to the reader's peak memory.
  madvise(const_cast<uint8_t*>(m.data), m.size, MADV_SEQUENTIAL);
  constexpr size_t kReleaseBlocks = 256;  // 16 MiB
  size_t released = 0;                    // bytes of the mapping given back so far
  for (size_t b = 0; b < nblocks; ++b) {
    if (b && b % kReleaseBlocks == 0) {
      size_t upto = format::kHeaderSize + b * format::kBlockSize;
      upto &= ~size_t(sysconf(_SC_PAGESIZE) - 1);
      if (upto > released) {
        madvise(const_cast<uint8_t*>(m.data) + released, upto - released, MADV_DONTNEED);
        released = upto;
      }
    }
    size_t start = format::kHeaderSize + b * format::kBlockSize;
    size_t end = std::min(m.size, start + format::kBlockSize);
    size_t off = start;
    if (on_break) on_break(true);
    while (off + 8 <= end) {
      uint32_t word;
      std::memcpy(&word, m.data + off, 4);
      if (word == 0) break;  // rest of the block unwritten
      uint32_t size = format::record_size(word);
      uint32_t kind = format::record_kind(word);
      if (off + size > end && end == m.size && size >= 8 && !(size & 7)) {
        // A record cut by the end of a truncated file (already reported above).
        break;
      }
      if (size < 8 || (size & 7) || off + size > end) {
        problems->push_back(fmt::format("corrupt record at offset {} (size {}); rest of block {} skipped", off,
                                        size, b));
        break;
      }
      if (!format::record_complete(word)) {
        st.incomplete++;
        if (on_break) on_break(false);
      } else {
        on_record(kind, m.data + off, size);
        st.records++;
      }
      off += size;
    }
  }
  return st;
}

}  // namespace erkit::reader
