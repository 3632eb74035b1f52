// Reading one binary data file: header validation, then every record of every block. Damage
// (truncation, flipped bytes, a writer killed mid-record) is reported as problems and skipped;
// what is intact is still delivered.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "format/experiment_format.h"

namespace erkit::reader {

struct DataFileStats {
  uint64_t records = 0;
  uint64_t incomplete = 0;
  bool present = false;
  int open_error = 0;  // errno when the file could not be opened (ENOENT: absent)
};

// Calls `on_record(kind, bytes, size)` for each complete record. Problems are appended to
// `problems` as plain messages (the caller adds the file name).
// `on_break(block_start)`, when given, is called where the records that follow do not continue
// the ones before: at the start of every block (true) and after a record that is incomplete or
// corrupt (false). Readers of block-relative encodings (format/clock_compact.h) reset on it.
DataFileStats read_data_file(const std::string& path, format::DataKind expected_kind,
                             const std::function<void(uint32_t kind, const uint8_t* rec, uint32_t size)>& on_record,
                             std::vector<std::string>* problems,
                             const std::function<void(bool block_start)>& on_break = {});

}  // namespace erkit::reader
