#include "reader/text_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace erkit::reader {

std::string TextFileResult::open_problem() const {
  if (opened) return "";
  if (error == ENOENT) return "missing";
  if (error == EACCES || error == EPERM) return "cannot be read: permission denied";
  if (error == -1) return "not a regular file";
  return fmt::format("cannot be read: {}", std::strerror(error));
}

std::string TextFileResult::damage() const {
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
  if (hole_bytes)
    add(fmt::format("damaged: {} bytes of zeros (a hole in a sparse file) were skipped", hole_bytes));
  if (long_lines == 1) add(fmt::format("line {} is longer than {} MiB and was skipped", first_long_line, kMaxTextLine >> 20));
  if (long_lines > 1)
    add(fmt::format("{} lines longer than {} MiB were skipped (the first is line {})", long_lines,
                    kMaxTextLine >> 20, first_long_line));
  if (cut) add(fmt::format("damaged: {} bytes, more than any real experiment writes; only the first {} bytes were read",
                           size, limit));
  return out;
}

TextFileResult read_text_lines(const std::string& path, const std::function<void(std::string_view, uint64_t)>& fn,
                               uint64_t max_bytes) {
  TextFileResult r;
  r.limit = max_bytes;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    r.error = errno;
    return r;
  }
  struct stat sb;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
    r.error = -1;
    close(fd);
    return r;
  }
  r.opened = true;
  r.size = uint64_t(sb.st_size);
  std::vector<char> buf(1 << 20);
  std::string line;        // the line being assembled across reads
  bool skipping = false;   // inside an overlong line: drop bytes up to the next newline
  uint64_t pos = 0, read_bytes = 0;
  auto end_line = [&] {
    ++r.lines;
    if (!skipping) fn(line, r.lines);
    skipping = false;
    line.clear();
  };
  auto overlong = [&] {
    if (!skipping) {
      if (r.long_lines++ == 0) r.first_long_line = r.lines + 1;
      skipping = true;
      line.clear();
    }
  };
  auto in_hole = [&] {  // the line a hole falls in is damaged (reported as the hole)
    skipping = true;
    line.clear();
  };
  while (true) {
    // A hole reads as zeros, which no text line holds: skip it without reading it, and count
    // the line it falls in as damaged. ENXIO: only holes up to the end. File systems without
    // SEEK_DATA (EINVAL) are read as they are.
    off_t data = lseek(fd, off_t(pos), SEEK_DATA);
    if (data < 0 && errno == ENXIO) {
      if (pos < r.size) r.hole_bytes += r.size - pos, in_hole();
      break;
    }
    if (data > off_t(pos)) {
      r.hole_bytes += uint64_t(data) - pos;
      in_hole();
      pos = uint64_t(data);
    }
    if (read_bytes >= max_bytes) {
      r.cut = true;
      break;
    }
    uint64_t want = std::min<uint64_t>(buf.size(), max_bytes - read_bytes);
    off_t hole = lseek(fd, off_t(pos), SEEK_HOLE);  // read no further than the next hole
    if (hole > off_t(pos)) want = std::min<uint64_t>(want, uint64_t(hole) - pos);
    ssize_t n = pread(fd, buf.data(), size_t(want), off_t(pos));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pos += uint64_t(n);
    read_bytes += uint64_t(n);
    const char* p = buf.data();
    const char* end = p + n;
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
      const char* stop = nl ? nl : end;
      if (!skipping) {
        if (line.size() + size_t(stop - p) > kMaxTextLine) overlong();
        else line.append(p, stop);
      }
      if (!nl) break;
      end_line();
      p = nl + 1;
    }
  }
  close(fd);
  return r;
}

}  // namespace erkit::reader
