#include "reader/jitdump.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>

namespace erkit::reader {
namespace {

constexpr uint32_t kMagic = 0x4A695444;         // "JiTD" as the JIT's byte order wrote it
constexpr uint32_t kMagicSwapped = 0x4454694A;  // another byte order: not read
constexpr uint32_t kCodeLoad = 0, kCodeMove = 1, kCodeDebugInfo = 2, kCodeClose = 3;

struct Cursor {
  const char* p;
  const char* end;
  template <typename T>
  bool get(T* v) {
    if (size_t(end - p) < sizeof(T)) return false;
    std::memcpy(v, p, sizeof(T));
    p += sizeof(T);
    return true;
  }
  bool str(std::string* s) {
    const void* nul = std::memchr(p, 0, size_t(end - p));
    if (!nul) return false;
    s->assign(p, static_cast<const char*>(nul));
    p = static_cast<const char*>(nul) + 1;
    return true;
  }
};

struct DebugInfo {
  std::string file;
  std::vector<std::pair<uint64_t, uint32_t>> lines;  // (address, line)
};

}  // namespace

size_t read_jitdump(Experiment& e, const std::vector<char>& data, const std::string& file) {
  auto damaged = [&](size_t off, const char* what) {
    e.problems.push_back({file, fmt::format("damaged at offset {}: {}; the rest is skipped", off, what)});
  };
  Cursor c{data.data(), data.data() + data.size()};
  uint32_t magic = 0, version = 0, header_size = 0;
  if (!c.get(&magic) || !c.get(&version) || !c.get(&header_size)) {
    if (!data.empty()) damaged(0, "shorter than its header");
    return 0;
  }
  if (magic != kMagic) {
    damaged(0, magic == kMagicSwapped ? "written in another byte order" : "not a jitdump file");
    return 0;
  }
  if (header_size < 40 || header_size > data.size()) {
    damaged(0, "bad header size");
    return 0;
  }
  size_t off = header_size;
  size_t added = 0;
  std::map<uint64_t, DebugInfo> debug;  // code address -> the line table given before its load
  while (off + 16 <= data.size()) {
    Cursor r{data.data() + off, data.data() + data.size()};
    uint32_t id = 0, total = 0;
    uint64_t tstamp = 0;
    r.get(&id), r.get(&total), r.get(&tstamp);
    if (total < 16 || total > data.size() - off) {
      damaged(off, "record size beyond the end");
      break;
    }
    r.end = data.data() + off + total;
    if (id == kCodeLoad) {
      uint32_t pid = 0, tid = 0;
      uint64_t vma = 0, code_addr = 0, code_size = 0, index = 0;
      DynamicFunction f;
      if (!r.get(&pid) || !r.get(&tid) || !r.get(&vma) || !r.get(&code_addr) || !r.get(&code_size) ||
          !r.get(&index) || !r.str(&f.name) || code_size > uint64_t(r.end - r.p)) {
        damaged(off, "truncated JIT_CODE_LOAD");
        break;
      }
      f.vaddr = code_addr;
      f.size = code_size;
      f.code.assign(reinterpret_cast<const uint8_t*>(r.p), reinterpret_cast<const uint8_t*>(r.p) + code_size);
      f.from_jit_map = true;  // named by the JIT, not by collector_func_load
      if (auto d = debug.find(code_addr); d != debug.end()) {
        f.source = d->second.file;
        for (const auto& [addr, line] : d->second.lines)
          if (addr >= code_addr && addr - code_addr < code_size) f.lines.emplace_back(uint32_t(addr - code_addr), line);
        std::sort(f.lines.begin(), f.lines.end());
        debug.erase(d);
      }
      if (f.name.empty()) f.name = fmt::format("<jit>@{:#x}", code_addr);
      e.dynamic_functions.push_back(std::move(f));
      ++added;
    } else if (id == kCodeMove) {
      uint32_t pid = 0, tid = 0;
      uint64_t vma = 0, old_addr = 0, new_addr = 0, size = 0, index = 0;
      if (r.get(&pid) && r.get(&tid) && r.get(&vma) && r.get(&old_addr) && r.get(&new_addr) && r.get(&size) &&
          r.get(&index))
        for (auto& f : e.dynamic_functions)
          if (f.from_jit_map && f.vaddr == old_addr && !f.code.empty()) f.vaddr = new_addr;
    } else if (id == kCodeDebugInfo) {
      uint64_t addr = 0, n = 0;
      if (!r.get(&addr) || !r.get(&n)) {
        damaged(off, "truncated JIT_CODE_DEBUG_INFO");
        break;
      }
      DebugInfo d;
      for (uint64_t i = 0; i < n; ++i) {
        uint64_t a = 0;
        int32_t line = 0, discrim = 0;
        std::string name;
        if (!r.get(&a) || !r.get(&line) || !r.get(&discrim) || !r.str(&name)) break;
        // A name of one byte 0xff repeats the previous entry's file.
        if (!(name.size() == 1 && uint8_t(name[0]) == 0xff) && d.file.empty()) d.file = name;
        if (line > 0) d.lines.emplace_back(a, uint32_t(line));
      }
      debug[addr] = std::move(d);
    } else if (id == kCodeClose) {
      break;
    }
    off += total;
  }
  return added;
}

}  // namespace erkit::reader
