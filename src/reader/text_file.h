// Reading an experiment's text files (log, map, notes, archive entries, a JIT's symbol file)
// line by line, in bounded memory and time (issue 10): a 100 GiB sparse log or a map without
// a single newline must be reported as damaged, not read whole (std::bad_alloc after 20 s).
// Holes of a sparse file are skipped without reading them (SEEK_DATA); a line longer than
// kMaxTextLine is skipped; reading stops after kMaxTextBytes.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace erkit::reader {

// No erkit text line comes near this (the longest are a descendant's command line, bounded by
// the kernel's 2 MiB argument limit, quoted): longer ones are damage.
inline constexpr uint64_t kMaxTextLine = uint64_t(8) << 20;
// A million threads or JIT functions make logs and maps of a few hundred MB: more than 4 GiB
// of text is damage, and reading it all would take minutes.
inline constexpr uint64_t kMaxTextBytes = uint64_t(4) << 30;

struct TextFileResult {
  bool opened = false;   // a regular file that could be opened
  int error = 0;         // when not opened: errno of open/stat, or -1 for "not a regular file"
  uint64_t size = 0;     // st_size
  uint64_t lines = 0;    // complete lines delivered or skipped
  uint64_t long_lines = 0, first_long_line = 0;  // over kMaxTextLine, skipped
  uint64_t hole_bytes = 0;  // zero-filled holes skipped without reading
  bool cut = false;         // stopped at the byte limit
  uint64_t limit = 0;       // that limit
  // Why the file could not be opened ("missing", "permission denied", ...), for messages.
  std::string open_problem() const;
  // The damage found while reading (holes, overlong lines, the byte limit), "" if none.
  std::string damage() const;
};

// Calls fn(line, lineno) for each complete line (newline-terminated; the newline is not
// passed). An unterminated last line is dropped: the writer was interrupted. Only regular files
// are read (a FIFO in a damaged experiment would block for ever).
TextFileResult read_text_lines(const std::string& path, const std::function<void(std::string_view, uint64_t)>& fn,
                               uint64_t max_bytes = kMaxTextBytes);

}  // namespace erkit::reader
