// Data objects of one ELF object from its DWARF (seed-spec §6.14): global and static variables
// (DW_TAG_variable with a DW_OP_addr location), their types as the manual's descriptors
// ({int i}, {const+pointer+int p}, {structure:foo_t -}), and every aggregate type's members
// by DW_TAG_member offset, so an address maps to a variable and, inside an aggregate (or an
// array of aggregates), to the element it falls in.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace erkit::dataspace {

struct Member {
  uint64_t offset = 0, size = 0;
  std::string descriptor;  // "{int a}"
};

struct Aggregate {
  std::string name;  // "structure:rec_t", "union:u"
  uint64_t size = 0;
  std::vector<Member> members;  // in offset order
};

struct Variable {
  std::string name;        // "g_recs"
  std::string descriptor;  // "{array:structure:rec_t g_recs}"
  uint64_t addr = 0, size = 0;  // link-time address
  // The aggregate its elements belong to (a struct variable, or an array of structs), or "".
  std::string aggregate;
  uint64_t element_size = 0;  // the aggregate's size (arrays repeat it)
};

class DataObjectTable {
 public:
  // Reads the DWARF of `path` (its .debug_info, or nothing: an empty table). *error is set
  // when the file cannot be read at all.
  static DataObjectTable load(const std::string& path, std::string* error);
  // The variable covering a link-time address, or nullptr.
  const Variable* find(uint64_t addr) const;
  // The aggregate element at `offset` of an aggregate, or nullptr.
  const Member* member_at(const std::string& aggregate, uint64_t offset) const;
  const Aggregate* aggregate(const std::string& name) const;
  bool has_dwarf() const { return has_dwarf_; }
  size_t size() const { return vars_.size(); }

  // For tests and for building tables by hand.
  void add_variable(Variable v);
  void add_aggregate(Aggregate a);

 private:
  bool has_dwarf_ = false;
  std::map<uint64_t, Variable> vars_;  // by address
  std::map<std::string, Aggregate> aggs_;
};

// The manual's descriptor of a type name and an object name: spaces become '_', an unnamed
// object is '-': descriptor("long int", "n") == "{long_int n}".
std::string descriptor(const std::string& type, const std::string& name);

}  // namespace erkit::dataspace
