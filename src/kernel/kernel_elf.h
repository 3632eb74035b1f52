// A kernel load object written as a small ELF file, so the analysis side reads kernel code
// like any other object (symbols, functions, disassembly) with no special case: ET_EXEC at the
// run-time addresses (bias 0), a .text section over the object's range (its bytes when they
// could be read, e.g. from /proc/kcore, else SHT_NOBITS), .symtab with every kallsyms text
// symbol as a sized FUNC, and the kernel's GNU build-id note.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernel/kallsyms.h"

namespace erkit::kernel {

// Writes `o` to `path`; `code` is empty or exactly o.hi - o.lo bytes of text. False with
// *error set on failure.
bool write_kernel_elf(const std::string& path, const KernelObject& o, const std::vector<uint8_t>& code,
                      std::string* error);

// Reads [lo, hi) of kernel memory from /proc/kcore (an ELF core file of the kernel's address
// space; root only, and absent on some kernels). Empty when it cannot be read.
std::vector<uint8_t> read_kcore(uint64_t lo, uint64_t hi, std::string* why);

}  // namespace erkit::kernel
