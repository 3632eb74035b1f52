// File writing shared by the fuzz harnesses that build experiment directories in a scratch folder.
// A failure aborts: the scratch directory is the harness's own, so failing there is its bug, not
// a finding.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "format/experiment_format.h"
#include "format/record_descriptors.h"

namespace erkit::fuzz {

// Writes n bytes to path, opened with O_WRONLY|O_CREAT|O_CLOEXEC plus extra_flags (O_APPEND or
// O_TRUNC).
inline void write_scratch_file(const std::string& path, const void* data, size_t n, int extra_flags) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | extra_flags, 0644);
  if (fd < 0) abort();
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w <= 0) abort();
    p += w, n -= size_t(w);
  }
  close(fd);
}

// A valid data-file header of the given kind, as the writer makes it.
inline format::FileHeader data_file_header(int kind) { return format::make_file_header(format::DataKind(kind)); }

}  // namespace erkit::fuzz
