// Every DWARF line-table row of one object, read once: which addresses each source line
// generated, which lines of a file have code at all (blank vs "0." in annotated source),
// and the compilation units with their producers (compiler version commentary).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace erkit::disasm {

struct LineRange {
  uint64_t lo = 0, hi = 0;  // [lo, hi)
  uint32_t file = 0;        // index into files()
  uint32_t line = 0;
  uint32_t cu = 0;          // index into cus()
};

struct CompileUnit {
  std::string name;      // DW_AT_name, joined with comp_dir when relative
  std::string comp_dir;
  std::string producer;  // DW_AT_producer: compiler and options
  uint64_t lo = 0, hi = 0;  // covering address range (0,0 if unknown)
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // the CU's address ranges [lo, hi)
};

// True when `path` is `want` or ends with "/" + want (so "x.c" finds "/src/x.c").
bool path_matches(const std::string& path, const std::string& want);

class LineTable {
 public:
  // Reads `path`, or `debug_path` (a separate debug file) when given and readable.
  // An object without DWARF gives an empty table, not an error; unreadable files are errors.
  static std::unique_ptr<LineTable> open(const std::string& path, const std::string& debug_path,
                                         std::string* error);

  const std::vector<std::string>& files() const { return files_; }
  const std::vector<CompileUnit>& cus() const { return cus_; }
  // All ranges, sorted by address (ranges of different CUs never overlap).
  const std::vector<LineRange>& ranges() const { return ranges_; }
  // The range covering addr, or null.
  const LineRange* at(uint64_t addr) const;
  // Indexes of files() matching `want` (see path_matches).
  std::vector<uint32_t> files_matching(const std::string& want) const;
  // For the given file indexes: line -> its address ranges.
  std::map<uint32_t, std::vector<LineRange>> lines_of(const std::vector<uint32_t>& files) const;
  // The CU covering addr, or null.
  const CompileUnit* cu_at(uint64_t addr) const;

 private:
  std::vector<std::string> files_;
  std::vector<CompileUnit> cus_;
  std::vector<LineRange> ranges_;
};

}  // namespace erkit::disasm
