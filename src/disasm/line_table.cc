#include "disasm/line_table.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_map>

#include "symbols/relocatable.h"

namespace erkit::disasm {

bool path_matches(const std::string& path, const std::string& want) {
  if (want.empty() || path.size() < want.size()) return false;
  if (path == want) return true;
  return path.compare(path.size() - want.size(), want.size(), want) == 0 &&
         (want[0] == '/' || path[path.size() - want.size() - 1] == '/');
}

namespace {

std::string attr_string(Dwarf_Die* die, int name) {
  Dwarf_Attribute a;
  const char* s = dwarf_attr_integrate(die, name, &a) ? dwarf_formstring(&a) : nullptr;
  return s ? s : "";
}

struct DwarfFile {
  int fd = -1;
  Dwarf* dw = nullptr;
  explicit DwarfFile(const std::string& path) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) dw = dwarf_begin(fd, DWARF_C_READ);
  }
  ~DwarfFile() {
    if (dw) dwarf_end(dw);
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::unique_ptr<LineTable> LineTable::open(const std::string& path, const std::string& debug_path,
                                           std::string* error) {
  auto t = std::unique_ptr<LineTable>(new LineTable);
  t->files_.push_back("");
  std::unique_ptr<DwarfFile> f;
  std::unique_ptr<symbols::RelocatableObject> rel;
  Dwarf* dw = nullptr;
  if (!debug_path.empty()) {
    f = std::make_unique<DwarfFile>(debug_path);
    if (!f->dw) f.reset();
  }
  if (!f && symbols::is_relocatable(path)) {
    // A .o: its DWARF is only right with its relocations applied, in the section layout the
    // symbols and the code use (symbols/relocatable.h; issue 15 item 8).
    std::string rerr;
    rel = symbols::RelocatableObject::open(path, &rerr);
    dw = rel ? rel->dwarf() : nullptr;
    if (!dw) return t;  // no DWARF: no lines
  }
  if (!f && !dw) {
    f = std::make_unique<DwarfFile>(path);
    if (f->fd < 0) {
      *error = path + ": " + std::strerror(errno);
      return nullptr;
    }
    if (!f->dw) return t;  // no DWARF: no lines
  }
  if (!dw) dw = f->dw;
  std::unordered_map<std::string, uint32_t> file_ids;
  std::string comp_dir;
  auto intern = [&](const char* s) -> uint32_t {
    if (!s || !*s) return 0;
    // Relative names (DWARF 5 line tables of `gcc dir/x.c`) are relative to the CU's directory.
    std::string name = s[0] != '/' && !comp_dir.empty() ? comp_dir + "/" + s : s;
    auto [it, fresh] = file_ids.try_emplace(name, uint32_t(t->files_.size()));
    if (fresh) t->files_.push_back(name);
    return it->second;
  };
  Dwarf_Off off = 0, next = 0;
  size_t hsize = 0;
  while (dwarf_nextcu(dw, off, &next, &hsize, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cudie;
    Dwarf_Off die_off = off + hsize;
    off = next;
    if (!dwarf_offdie(dw, die_off, &cudie)) continue;
    CompileUnit cu;
    cu.comp_dir = attr_string(&cudie, DW_AT_comp_dir);
    cu.name = attr_string(&cudie, DW_AT_name);
    if (!cu.name.empty() && cu.name[0] != '/' && !cu.comp_dir.empty()) cu.name = cu.comp_dir + "/" + cu.name;
    cu.producer = attr_string(&cudie, DW_AT_producer);
    Dwarf_Addr base, lo, hi;
    ptrdiff_t ro = 0;
    bool first = true;
    while ((ro = dwarf_ranges(&cudie, ro, &base, &lo, &hi)) > 0) {
      cu.ranges.emplace_back(lo, hi);
      if (first || lo < cu.lo) cu.lo = lo;
      if (first || hi > cu.hi) cu.hi = hi;
      first = false;
    }
    comp_dir = cu.comp_dir;
    uint32_t cu_id = uint32_t(t->cus_.size());
    t->cus_.push_back(std::move(cu));
    Dwarf_Lines* lines = nullptr;
    size_t n = 0;
    if (dwarf_getsrclines(&cudie, &lines, &n) != 0) continue;
    for (size_t i = 0; i + 1 < n; ++i) {
      Dwarf_Line* l = dwarf_onesrcline(lines, i);
      Dwarf_Line* nx = dwarf_onesrcline(lines, i + 1);
      bool end = false;
      dwarf_lineendsequence(l, &end);
      if (end) continue;
      Dwarf_Addr a = 0, b = 0;
      dwarf_lineaddr(l, &a);
      dwarf_lineaddr(nx, &b);
      if (b <= a) continue;
      int line = 0;
      dwarf_lineno(l, &line);
      LineRange r;
      r.lo = a;
      r.hi = b;
      r.file = intern(dwarf_linesrc(l, nullptr, nullptr));
      r.line = uint32_t(std::max(line, 0));
      r.cu = cu_id;
      t->ranges_.push_back(r);
    }
  }
  std::stable_sort(t->ranges_.begin(), t->ranges_.end(),
                   [](const LineRange& a, const LineRange& b) { return a.lo < b.lo; });
  return t;
}

const LineRange* LineTable::at(uint64_t addr) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), addr,
                             [](uint64_t a, const LineRange& r) { return a < r.lo; });
  if (it == ranges_.begin()) return nullptr;
  --it;
  return addr < it->hi ? &*it : nullptr;
}

std::vector<uint32_t> LineTable::files_matching(const std::string& want) const {
  std::vector<uint32_t> out;
  for (uint32_t i = 1; i < files_.size(); ++i)
    if (path_matches(files_[i], want)) out.push_back(i);
  return out;
}

std::map<uint32_t, std::vector<LineRange>> LineTable::lines_of(const std::vector<uint32_t>& files) const {
  std::map<uint32_t, std::vector<LineRange>> out;
  for (const auto& r : ranges_)
    if (std::find(files.begin(), files.end(), r.file) != files.end()) out[r.line].push_back(r);
  return out;
}

const CompileUnit* LineTable::cu_at(uint64_t addr) const {
  if (const LineRange* r = at(addr)) return &cus_[r->cu];
  // Code without line rows (hand-written assembly, padding) inside one of a CU's ranges.
  for (const auto& c : cus_)
    for (const auto& [lo, hi] : c.ranges)
      if (addr >= lo && addr < hi) return &c;
  return nullptr;
}

}  // namespace erkit::disasm
