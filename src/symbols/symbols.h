// Symbolisation of load objects: ELF virtual address -> function, source line and
// inline chain, using elfutils (libdwfl for finding symbols and separate debug info,
// libdw for DWARF). Everything is indexed once per object; lookups are binary searches.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace erkit::symbols {

struct SourceLoc {
  std::string file;  // as recorded in DWARF (usually absolute)
  uint32_t line = 0;  // 0: unknown
  bool operator==(const SourceLoc&) const = default;
};

// One logical frame at a PC; several for a PC inside inlined code.
struct Frame {
  std::string name;      // demangled, long form (with parameters for C++)
  std::string short_name;  // demangled without parameters / return type
  std::string mangled;   // linkage name as in the object ("" for DWARF-only C names)
  std::string original;  // for compiler clones (foo.constprop.0): the original's long name
  SourceLoc loc;         // where in `name` this PC (or, for outer frames, the call) is
  bool inlined = false;  // true for all but the last (concrete) frame
};

struct FunctionInfo {
  std::string name;        // demangled long form
  std::string mangled;     // raw symbol / linkage name
  uint64_t addr = 0;       // ELF virtual address
  uint64_t size = 0;
  std::string source_file;  // DW_AT_decl_file of the subprogram, else the CU name, else ""
  std::vector<std::string> aliases;  // other symbol names at `addr` (raw)
  bool from_dwarf_only = false;       // not in any symbol table
  bool is_plt = false;                // synthesised `name@plt`
};

struct SectionInfo {
  std::string name;
  uint64_t addr = 0, size = 0;
  bool executable = false;
};

struct AddrRange {
  uint64_t lo = 0, hi = 0;  // [lo, hi)
};

// Demangled forms of a raw symbol name; for non-mangled names all equal the input.
struct Names {
  std::string long_name, short_name;
  std::string original_long;  // clone suffix removed; empty when not a clone
};
Names demangle(const std::string& raw);

// Standalone file queries that need no index (used by `collect` and the reader).
std::string read_build_id(const std::string& path, std::string* error = nullptr);
// True when the file has neither PT_INTERP nor a dynamic section (LD_PRELOAD won't work).
bool is_statically_linked(const std::string& path, std::string* error = nullptr);

class ObjectIndex;  // private implementation (object_symbols.cc)

// Immutable view of one load object. All const methods may be called from several
// threads: lazily built per-CU indexes are guarded internally.
class ObjectSymbols {
 public:
  // expected_build_id: lowercase hex or "" (no check). On failure returns null and sets *error.
  static std::unique_ptr<ObjectSymbols> open(const std::string& path,
                                             const std::string& expected_build_id,
                                             std::string* error);
  ~ObjectSymbols();
  ObjectSymbols(const ObjectSymbols&) = delete;
  ObjectSymbols& operator=(const ObjectSymbols&) = delete;

  // Innermost first; empty when no symbol and no debug info covers vaddr.
  std::vector<Frame> lookup(uint64_t vaddr) const;
  // The concrete function containing vaddr (symbol tables, PLT, then DWARF), or null.
  // Indexes only the CU of vaddr. The pointer stays valid as long as the object; it
  // is not an element of functions() (compare by addr, not by pointer).
  const FunctionInfo* function_at(uint64_t vaddr) const;
  // Every function of the object, sorted by address. The first call indexes every CU
  // and demangles every name (~100 ms for libc with debug info): for er_src/fsummary,
  // not for resolving samples.
  const std::vector<FunctionInfo>& functions() const;
  // The symbol-table function starting last at or before vaddr, whether or not it
  // contains vaddr (for naming a gap in a stripped object after its end), or null.
  const FunctionInfo* function_before(uint64_t vaddr) const;
  // The code range [*lo, *hi) of the .eh_frame FDE covering vaddr: in code without symbols,
  // one function (issue 15). False when no FDE covers it.
  bool fde_range(uint64_t vaddr, uint64_t* lo, uint64_t* hi) const;
  // The allocated section containing vaddr, or null (for "not found" reporting).
  const SectionInfo* section_at(uint64_t vaddr) const;
  // Name of the compilation unit ("module") covering vaddr, or "".
  std::string cu_name(uint64_t vaddr) const;
  // Address ranges generated for `line` of a source file. `file` matches a DWARF file
  // name exactly or as a path suffix at a '/' boundary (so "x.c" finds "/src/x.c").
  std::vector<AddrRange> line_addresses(const std::string& file, uint32_t line) const;

  const std::string& path() const;
  const std::string& build_id() const;  // lowercase hex, "" if none
  const std::string& debug_file() const;  // separate debug file used, "" if none
  bool has_dwarf() const;
  size_t symbol_count() const;  // functions from symbol tables + PLT

 private:
  explicit ObjectSymbols(std::unique_ptr<ObjectIndex> index);
  std::unique_ptr<ObjectIndex> index_;
};

// Opens each (path, build-id) once and keeps it. Thread-safe.
class SymbolCache {
 public:
  // Returns null if the object can't be opened; the failure is cached too.
  const ObjectSymbols* get(const std::string& path, const std::string& build_id,
                           std::string* error = nullptr);

 private:
  struct Entry {
    std::unique_ptr<ObjectSymbols> obj;
    std::string error;
  };
  std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace erkit::symbols
