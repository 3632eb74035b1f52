// Interned functions and load objects. A function with code of its own is identified by its
// load object and start address: two static functions of one name in one object (a.c's and
// b.c's `work`) stay two functions, and aliases (several symbols at one address) are one.
// A function seen only inlined (no address) is identified by its name and object and merges
// with the out-of-line copy of that name (the one from the same source file when several).
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace erkit::model {

using FuncId = uint32_t;
using ObjId = uint32_t;

inline constexpr ObjId kNoObject = 0;  // pseudo-functions

struct LoadObjectInfo {
  std::string path;
  std::string name;      // basename, e.g. libc.so.6
  std::string build_id;
  std::string file;      // where its code and symbols are read (an archived copy), "" = path
  const std::string& code_file() const { return file.empty() ? path : file; }
};

struct FunctionEntry {
  std::string name;         // display (demangled long) name
  std::string short_name;   // without parameters
  std::string mangled;
  std::string original;     // clone's original function, or ""
  ObjId object = kNoObject;
  uint64_t addr = 0, size = 0;  // ELF vaddr range (0 if unknown / inlined-only)
  std::string source_file;
  bool pseudo = false;      // <Total>, <Unknown>, ...
};

class FunctionTable {
 public:
  FunctionTable();
  ObjId intern_object(const std::string& path, const std::string& build_id, const std::string& file = "");
  // Keyed by (object, addr) when the entry has a range (addr or size non-zero), else by
  // (name, object); file_hint (the file of an inlined frame's line) picks among several
  // same-named functions of the object.
  FuncId intern(FunctionEntry e, const std::string& file_hint = "");
  // Keyed by (name, object) whatever its range: generated code, where an address may be
  // reused by another function and a function may be regenerated elsewhere.
  FuncId intern_named(FunctionEntry e);
  FuncId total() const { return 0; }
  FuncId unknown() const { return 1; }
  FuncId truncated() const { return 2; }

  size_t size() const { return funcs_.size(); }
  const FunctionEntry& at(FuncId id) const { return funcs_[id]; }
  FunctionEntry& mutable_at(FuncId id) { return funcs_[id]; }
  const LoadObjectInfo& object(ObjId id) const { return objects_[id]; }
  size_t object_count() const { return objects_.size(); }
  // Functions sharing a display name (for name disambiguation in views).
  bool name_is_unique(FuncId id) const;
  // False when another function of the same object has the same display name (static
  // functions of one name in several source files of one executable).
  bool name_is_unique_in_object(FuncId id) const;

 private:
  std::vector<FunctionEntry> funcs_;
  FuncId add(FunctionEntry e, const std::string& name_key);
  static std::string name_key(const FunctionEntry& e);
  std::unordered_map<std::string, std::vector<FuncId>> by_name_;  // (name, object) -> functions
  std::unordered_map<ObjId, std::unordered_map<uint64_t, FuncId>> by_addr_;  // object -> addr -> function
  std::vector<LoadObjectInfo> objects_;
  std::unordered_map<std::string, ObjId> objects_by_key_;
  std::unordered_map<std::string, uint32_t> name_counts_;
};

}  // namespace erkit::model
