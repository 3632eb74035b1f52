// The running kernel's symbols as /proc/kallsyms and /proc/modules describe them: the kernel
// image and every module as a load object with its text range and function symbols (absolute
// run-time addresses, KASLR included), and the build-ids from /sys. Parsed from text so the
// same code reads the live files and the copies archived in a kernel experiment.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace erkit::kernel {

struct KernelSymbol {
  uint64_t addr = 0;
  uint64_t size = 0;  // distance to the next symbol of the object (at most kMaxSymbolSize)
  std::string name;
  bool global = false;  // 'T'/'W' (else 't'/'w')
};

struct KernelObject {
  std::string name;      // "vmlinux" or the module's name
  uint64_t lo = 0, hi = 0;  // text range [lo, hi)
  std::string build_id;  // hex, "" if unknown
  std::vector<KernelSymbol> symbols;  // sorted by address
};

struct KernelSymbols {
  std::vector<KernelObject> objects;  // vmlinux first, then modules by address
  bool addresses_hidden = false;      // every address read as 0 (kptr_restrict, no CAP_SYSLOG)
  size_t symbol_count() const;
  // The object whose range holds addr, or null.
  const KernelObject* object_at(uint64_t addr) const;
};

inline constexpr uint64_t kMaxSymbolSize = 1 << 20;

// kallsyms: "<hex addr> <type> <name>[\t[module]]" lines; modules: /proc/modules lines
// "<name> <size> <refs> <deps> <state> <hex addr>" (may be empty: a kernel without modules).
KernelSymbols parse_kernel_symbols(const std::string& kallsyms, const std::string& modules);

// The GNU build-id in an ELF note section's bytes (/sys/kernel/notes,
// /sys/module/<m>/notes/.note.gnu.build-id), hex, or "".
std::string build_id_from_notes(const std::string& bytes);

// Whole file as text ("" if unreadable; /proc files report size 0, so read until EOF).
std::string read_text_file(const std::string& path);

}  // namespace erkit::kernel
