// Interned functions and load objects. A function is identified by its name and load object,
// so the same static name in two libraries stays two functions, and every inlined instance of
// a function merges into one.
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
  FuncId intern(FunctionEntry e);  // keyed by (name, object)
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

 private:
  std::vector<FunctionEntry> funcs_;
  std::unordered_map<std::string, FuncId> by_key_;
  std::vector<LoadObjectInfo> objects_;
  std::unordered_map<std::string, ObjId> objects_by_key_;
  std::unordered_map<std::string, uint32_t> name_counts_;
};

}  // namespace erkit::model
