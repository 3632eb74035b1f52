#include "kernel/kallsyms.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

namespace erkit::kernel {

namespace {

bool is_text_type(char t) { return t == 'T' || t == 't' || t == 'W' || t == 'w'; }

// Sorts, sizes each symbol up to the next higher address (or the object's end).
void finish_object(KernelObject& o) {
  auto& s = o.symbols;
  std::stable_sort(s.begin(), s.end(), [](const KernelSymbol& a, const KernelSymbol& b) { return a.addr < b.addr; });
  for (size_t i = 0; i < s.size(); ++i) {
    size_t j = i + 1;
    while (j < s.size() && s[j].addr == s[i].addr) ++j;
    uint64_t end = j < s.size() ? s[j].addr : std::max(o.hi, s[i].addr + 1);
    s[i].size = std::min<uint64_t>(end - s[i].addr, kMaxSymbolSize);
  }
}

}  // namespace

size_t KernelSymbols::symbol_count() const {
  size_t n = 0;
  for (const auto& o : objects) n += o.symbols.size();
  return n;
}

const KernelObject* KernelSymbols::object_at(uint64_t addr) const {
  for (const auto& o : objects)
    if (addr >= o.lo && addr < o.hi) return &o;
  return nullptr;
}

KernelSymbols parse_kernel_symbols(const std::string& kallsyms, const std::string& modules) {
  KernelSymbols ks;
  KernelObject vmlinux;
  vmlinux.name = "vmlinux";
  std::map<std::string, KernelObject> mods;
  // Module ranges from /proc/modules.
  std::istringstream mi(modules);
  std::string line;
  while (std::getline(mi, line)) {
    std::istringstream ls(line);
    std::string name, refs, deps, state, addr;
    uint64_t size = 0;
    if (!(ls >> name >> size >> refs >> deps >> state >> addr)) continue;
    KernelObject& m = mods[name];
    m.name = name;
    m.lo = std::strtoull(addr.c_str(), nullptr, 16);
    m.hi = m.lo + size;
  }
  std::istringstream ki(kallsyms);
  size_t total = 0, zero = 0;
  uint64_t stext = 0, etext = 0, vlo = UINT64_MAX, vhi = 0;
  while (std::getline(ki, line)) {
    char* end = nullptr;
    uint64_t addr = std::strtoull(line.c_str(), &end, 16);
    if (end == line.c_str() || *end != ' ' || end[1] == 0 || end[2] != ' ') continue;
    char type = end[1];
    std::string rest(end + 3);
    std::string module;
    size_t tab = rest.find('\t');
    if (tab != std::string::npos) {
      std::string m = rest.substr(tab + 1);
      rest.resize(tab);
      if (m.size() > 2 && m.front() == '[' && m.back() == ']') module = m.substr(1, m.size() - 2);
    }
    ++total;
    if (addr == 0) ++zero;
    if (module.empty()) {
      if (rest == "_stext") stext = addr;
      if (rest == "_etext") etext = addr;
    }
    if (!is_text_type(type) || addr == 0 || rest.empty()) continue;
    KernelSymbol s;
    s.addr = addr;
    s.name = rest;
    s.global = type == 'T' || type == 'W';
    if (module.empty()) {
      vlo = std::min(vlo, addr);
      vhi = std::max(vhi, addr);
      vmlinux.symbols.push_back(std::move(s));
    } else {
      KernelObject& m = mods[module];
      m.name = module;
      m.symbols.push_back(std::move(s));
    }
  }
  ks.addresses_hidden = total > 0 && zero == total;
  if (!vmlinux.symbols.empty()) {
    vmlinux.lo = stext && stext <= vlo ? stext : vlo;
    // Code after _etext (init text, entry trampolines) is still the kernel's: the range runs
    // to the last text symbol, plus a page for its body.
    vmlinux.hi = std::max(etext, vhi + 4096);
    finish_object(vmlinux);
    ks.objects.push_back(std::move(vmlinux));
  }
  std::vector<KernelObject> ms;
  for (auto& [name, m] : mods) {
    if (m.symbols.empty() && m.lo == 0) continue;
    if (m.lo == 0 || m.hi <= m.lo) {  // not in /proc/modules: the span of its symbols
      m.lo = UINT64_MAX;
      for (const auto& s : m.symbols) m.lo = std::min(m.lo, s.addr), m.hi = std::max(m.hi, s.addr + 4096);
    }
    finish_object(m);
    ms.push_back(std::move(m));
  }
  std::sort(ms.begin(), ms.end(), [](const KernelObject& a, const KernelObject& b) { return a.lo < b.lo; });
  for (auto& m : ms) ks.objects.push_back(std::move(m));
  return ks;
}

std::string build_id_from_notes(const std::string& bytes) {
  size_t off = 0;
  auto u32 = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
  };
  while (off + 12 <= bytes.size()) {
    uint32_t namesz = u32(off), descsz = u32(off + 4), type = u32(off + 8);
    size_t name_at = off + 12;
    size_t desc_at = name_at + ((namesz + 3) & ~3u);
    size_t next = desc_at + ((descsz + 3) & ~3u);
    if (next > bytes.size() || next <= off) break;
    if (type == 3 && namesz == 4 && std::memcmp(bytes.data() + name_at, "GNU", 4) == 0) {
      static const char* hex = "0123456789abcdef";
      std::string out;
      for (size_t i = 0; i < descsz; ++i) {
        auto c = static_cast<unsigned char>(bytes[desc_at + i]);
        out += hex[c >> 4];
        out += hex[c & 15];
      }
      return out;
    }
    off = next;
  }
  return "";
}

std::string read_text_file(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, size_t(n));
  }
  close(fd);
  return out;
}

}  // namespace erkit::kernel
