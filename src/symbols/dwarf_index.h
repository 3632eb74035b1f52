// Per-compilation-unit DWARF index: line table and the tree of concrete functions and
// inlined-subroutine ranges, built once per CU and then searched by binary search.
// Replaces dwarf_getscopes / dwfl_module_addrinfo, which re-walk the CU per address.
#pragma once

#include <elfutils/libdw.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace erkit::symbols {

struct LineRow {
  uint64_t addr = 0;
  uint32_t file = 0;  // index into CuData::strings
  uint32_t line = 0;
  bool end_sequence = false;
};

// A concrete function (root) or an inlined call inside one.
struct ScopeNode {
  uint32_t name = 0;       // raw linkage name, else DW_AT_name (CuData::strings)
  uint32_t decl_file = 0;  // file of the definition (inlined: of the inlined function)
  uint32_t call_file = 0;  // inlined: where the caller calls it
  uint32_t call_line = 0;
  uint32_t child_begin = 0, child_end = 0;  // into CuData::children
  bool inlined = false;
};

struct Interval {
  uint64_t lo = 0, hi = 0;  // [lo, hi), ELF virtual addresses
  uint32_t node = 0;
};

struct CuData {
  std::vector<std::string> strings;  // [0] is ""
  std::vector<LineRow> lines;        // sorted by address; end_sequence first at ties
  std::vector<ScopeNode> nodes;
  std::vector<Interval> roots;     // concrete functions, sorted by lo
  std::vector<Interval> children;  // per node, contiguous and sorted by lo

  // Last row at or before vaddr, or null when vaddr is past the end of a sequence.
  const LineRow* line_at(uint64_t vaddr) const;
  // Node indexes from the concrete function down to the innermost inlined call.
  void scope_chain(uint64_t vaddr, std::vector<uint32_t>* chain) const;
  // The range of the concrete function containing vaddr, or null.
  const Interval* root_at(uint64_t vaddr) const;
};

struct CuSlot {
  Dwarf_Off die_offset = 0;
  std::string name;  // DW_AT_name of the CU
  std::once_flag once;
  std::unique_ptr<CuData> data;
};

// All CUs of one Dwarf with their address ranges. Thread-safe: CU data is built under
// `dwarf_mutex` (libdw itself is not thread-safe) exactly once.
class DwarfIndex {
 public:
  DwarfIndex(Dwarf* dw, uint64_t bias);  // bias: DWARF address + bias = ELF vaddr
  DwarfIndex(const DwarfIndex&) = delete;
  DwarfIndex& operator=(const DwarfIndex&) = delete;

  // The CU whose ranges cover vaddr, or -1.
  int cu_for(uint64_t vaddr) const;
  const CuData& cu_data(int cu) const;
  const std::string& cu_name(int cu) const { return cus_[cu]->name; }
  size_t cu_count() const { return cus_.size(); }

 private:
  std::unique_ptr<CuData> build(const CuSlot& slot) const;

  Dwarf* dw_;
  uint64_t bias_;
  mutable std::mutex dwarf_mutex_;
  std::vector<std::unique_ptr<CuSlot>> cus_;
  std::vector<Interval> ranges_;  // node = CU index; sorted by lo
};

}  // namespace erkit::symbols
