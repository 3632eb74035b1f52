// Issue 16, collect -P: the load objects of a running process, from /proc/<pid>/maps, as the
// experiment's map records them ("load path= bias= lo= hi= buildid="): what the collector
// writes from dl_iterate_phdr inside a process collect started.
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace erkit::collect::outside {

struct MappedObject {
  std::string path;   // absolute, or "[vdso]"
  uint64_t lo = 0, hi = 0;
  uint64_t first_start = 0;  // start of its mapping at file offset 0 (the ELF header)
  bool first_seen = false;
};

// File-backed mappings grouped by object, in address order; anonymous mappings, the stack and
// heap, and deleted files left out. The vDSO is kept as "[vdso]".
std::vector<MappedObject> parse_proc_maps(const std::string& text);

// The load bias of an ELF object mapped with its header at `first_start`: first_start minus
// the page-aligned vaddr of its first PT_LOAD (0 for shared objects and PIE). The file is read
// through `path` (for the vDSO: an ELF image in memory, `image`).
uint64_t load_bias(const std::string& path, uint64_t first_start, const std::vector<uint8_t>* image = nullptr);

}  // namespace erkit::collect::outside
