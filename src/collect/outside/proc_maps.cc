#include "collect/outside/proc_maps.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <sstream>

namespace erkit::collect::outside {

std::vector<MappedObject> parse_proc_maps(const std::string& text) {
  std::vector<MappedObject> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    // start-end perms offset dev inode [path]
    char* end = nullptr;
    uint64_t start = std::strtoull(line.c_str(), &end, 16);
    if (!end || *end != '-') continue;
    uint64_t stop = std::strtoull(end + 1, &end, 16);
    std::istringstream f(end);
    std::string perms, offset, dev, inode;
    if (!(f >> perms >> offset >> dev >> inode)) continue;
    std::string path;
    std::getline(f, path);
    size_t b = path.find_first_not_of(' ');
    path = b == std::string::npos ? "" : path.substr(b);
    if (path.empty() || (path[0] != '/' && path != "[vdso]")) continue;
    if (path.size() > 10 && path.compare(path.size() - 10, 10, " (deleted)") == 0) continue;
    uint64_t off = std::strtoull(offset.c_str(), nullptr, 16);
    MappedObject* o = nullptr;
    for (auto it = out.rbegin(); it != out.rend(); ++it)
      if (it->path == path) {
        o = &*it;
        break;
      }
    if (!o || (off == 0 && o->first_seen)) {  // a new object, or the same file mapped again
      out.push_back({path, start, stop, 0, false});
      o = &out.back();
    }
    if (start < o->lo) o->lo = start;
    if (stop > o->hi) o->hi = stop;
    if (off == 0 && !o->first_seen) {
      o->first_start = start;
      o->first_seen = true;
    }
  }
  // An object whose header is not mapped (offset 0 never seen) cannot be placed.
  std::vector<MappedObject> kept;
  for (auto& o : out)
    if (o.first_seen) kept.push_back(std::move(o));
  return kept;
}

uint64_t load_bias(const std::string& path, uint64_t first_start, const std::vector<uint8_t>* image) {
  std::vector<uint8_t> head(4096);
  size_t got = 0;
  if (image) {
    got = std::min(image->size(), head.size());
    std::memcpy(head.data(), image->data(), got);
  } else {
    int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return first_start;
    ssize_t n = pread(fd, head.data(), head.size(), 0);
    close(fd);
    got = n > 0 ? size_t(n) : 0;
  }
  if (got < sizeof(Elf64_Ehdr) || std::memcmp(head.data(), ELFMAG, SELFMAG) != 0 || head[EI_CLASS] != ELFCLASS64)
    return first_start;
  Elf64_Ehdr eh;
  std::memcpy(&eh, head.data(), sizeof eh);
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    uint64_t at = eh.e_phoff + uint64_t(i) * eh.e_phentsize;
    if (at + sizeof(Elf64_Phdr) > got) break;
    Elf64_Phdr ph;
    std::memcpy(&ph, head.data() + at, sizeof ph);
    if (ph.p_type == PT_LOAD) {
      uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
      return first_start - (ph.p_vaddr & ~(page - 1));
    }
  }
  return first_start;
}

}  // namespace erkit::collect::outside
