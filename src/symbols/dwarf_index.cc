// Builds DwarfIndex (CU address ranges, eagerly) and CuData (lines + scope tree, lazily).
#include "symbols/dwarf_index.h"

#include <dwarf.h>

#include <algorithm>
#include <unordered_map>

namespace erkit::symbols {
namespace {

// Calls fn(lo, hi) for each non-empty range of a DIE, in DWARF addresses. Ranges at 0
// belong to functions the linker discarded (--gc-sections) and would shadow nothing
// real, but they would overlap each other, so they are dropped.
template <typename Fn>
void for_each_range(Dwarf_Die* die, Fn fn) {
  Dwarf_Addr base = 0, lo = 0, hi = 0;
  for (ptrdiff_t off = 0; (off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0;) {
    if (hi > lo && lo != 0) fn(lo, hi);
  }
}

const char* attr_string(Dwarf_Die* die, int name) {
  Dwarf_Attribute a;
  return dwarf_attr_integrate(die, name, &a) ? dwarf_formstring(&a) : nullptr;
}

uint32_t attr_udata(Dwarf_Die* die, int name) {
  Dwarf_Attribute a;
  Dwarf_Word w = 0;
  if (!dwarf_attr(die, name, &a) || dwarf_formudata(&a, &w) != 0) return 0;
  return static_cast<uint32_t>(w);
}

class CuBuilder {
 public:
  CuBuilder(Dwarf_Die* cudie, uint64_t bias) : cudie_(cudie), bias_(bias) {
    d_ = std::make_unique<CuData>();
    d_->strings.emplace_back();
    if (dwarf_getsrcfiles(cudie, &files_, &nfiles_) != 0) files_ = nullptr;
  }

  std::unique_ptr<CuData> run() {
    read_lines();
    Dwarf_Die child;
    if (dwarf_child(cudie_, &child) == 0) walk(&child, -1);
    flatten();
    return std::move(d_);
  }

 private:
  uint32_t intern(const char* s) {
    if (!s || !*s) return 0;
    auto [it, inserted] = ids_.try_emplace(s, static_cast<uint32_t>(d_->strings.size()));
    if (inserted) d_->strings.emplace_back(s);
    return it->second;
  }

  void read_lines() {
    Dwarf_Lines* lines = nullptr;
    size_t n = 0;
    if (dwarf_getsrclines(cudie_, &lines, &n) != 0) return;
    d_->lines.reserve(n);
    // dwarf_linesrc returns the same pointer for the same file: cache by pointer.
    std::unordered_map<const char*, uint32_t> by_ptr;
    for (size_t i = 0; i < n; ++i) {
      Dwarf_Line* l = dwarf_onesrcline(lines, i);
      LineRow r;
      Dwarf_Addr a = 0;
      int lineno = 0;
      bool end = false;
      if (!l || dwarf_lineaddr(l, &a) != 0) continue;
      dwarf_lineno(l, &lineno);
      dwarf_lineendsequence(l, &end);
      const char* f = dwarf_linesrc(l, nullptr, nullptr);
      auto [it, inserted] = by_ptr.try_emplace(f, 0);
      if (inserted) it->second = intern(f);
      r.addr = a + bias_;
      r.file = it->second;
      r.line = static_cast<uint32_t>(lineno);
      r.end_sequence = end;
      d_->lines.push_back(r);
    }
    // libdw already sorts like this (end of one sequence before the start of the next
    // at the same address); only sort if a future libdw stops doing so.
    auto before = [](const LineRow& a, const LineRow& b) {
      return a.addr != b.addr ? a.addr < b.addr : a.end_sequence > b.end_sequence;
    };
    if (!std::is_sorted(d_->lines.begin(), d_->lines.end(), before)) {
      std::stable_sort(d_->lines.begin(), d_->lines.end(), before);
    }
  }

  uint32_t file_index(uint32_t idx) {
    if (!files_ || idx >= nfiles_) return 0;
    return intern(dwarf_filesrc(files_, idx, nullptr, nullptr));
  }

  uint32_t add_node(Dwarf_Die* die, bool inlined) {
    ScopeNode n;
    const char* name = attr_string(die, DW_AT_linkage_name);
    if (!name) name = attr_string(die, DW_AT_MIPS_linkage_name);
    if (!name) name = attr_string(die, DW_AT_name);
    n.name = intern(name);
    n.inlined = inlined;
    if (inlined) {
      n.call_file = file_index(attr_udata(die, DW_AT_call_file));
      n.call_line = attr_udata(die, DW_AT_call_line);
      const char* decl = dwarf_decl_file(die);  // through DW_AT_abstract_origin
      if (decl) n.decl_file = intern(decl);
    } else {
      n.decl_file = intern(dwarf_decl_file(die));
    }
    d_->nodes.push_back(n);
    kids_.emplace_back();
    return static_cast<uint32_t>(d_->nodes.size() - 1);
  }

  // parent: node that inlined calls found here belong to, -1 outside any function.
  void walk(Dwarf_Die* die, int parent) {
    do {
      int tag = dwarf_tag(die);
      Dwarf_Die child;
      switch (tag) {
        case DW_TAG_subprogram: {
          if (!dwarf_hasattr(die, DW_AT_low_pc) && !dwarf_hasattr(die, DW_AT_ranges)) break;
          uint32_t node = add_node(die, false);
          for_each_range(die, [&](uint64_t lo, uint64_t hi) {
            d_->roots.push_back({lo + bias_, hi + bias_, node});
          });
          if (dwarf_child(die, &child) == 0) walk(&child, static_cast<int>(node));
          break;
        }
        case DW_TAG_inlined_subroutine: {
          if (parent < 0) break;
          uint32_t node = add_node(die, true);
          for_each_range(die, [&](uint64_t lo, uint64_t hi) {
            kids_[parent].push_back({lo + bias_, hi + bias_, node});
          });
          if (dwarf_child(die, &child) == 0) walk(&child, static_cast<int>(node));
          break;
        }
        case DW_TAG_lexical_block:
        case DW_TAG_try_block:
        case DW_TAG_catch_block:
          if (parent >= 0 && dwarf_child(die, &child) == 0) walk(&child, parent);
          break;
        case DW_TAG_namespace:
        case DW_TAG_module:
          // Concrete functions live at CU or namespace level; class bodies only
          // declare methods, so they are not descended into.
          if (dwarf_child(die, &child) == 0) walk(&child, -1);
          break;
        default:
          break;
      }
    } while (dwarf_siblingof(die, die) == 0);
  }

  void flatten() {
    auto by_lo = [](const Interval& a, const Interval& b) { return a.lo < b.lo; };
    std::sort(d_->roots.begin(), d_->roots.end(), by_lo);
    for (size_t i = 0; i < d_->nodes.size(); ++i) {
      std::sort(kids_[i].begin(), kids_[i].end(), by_lo);
      d_->nodes[i].child_begin = static_cast<uint32_t>(d_->children.size());
      d_->children.insert(d_->children.end(), kids_[i].begin(), kids_[i].end());
      d_->nodes[i].child_end = static_cast<uint32_t>(d_->children.size());
    }
  }

  Dwarf_Die* cudie_;
  uint64_t bias_;
  Dwarf_Files* files_ = nullptr;
  size_t nfiles_ = 0;
  std::unique_ptr<CuData> d_;
  std::vector<std::vector<Interval>> kids_;
  std::unordered_map<std::string, uint32_t> ids_;
};

// Index of the interval containing vaddr among [first, last) sorted by lo. Intervals
// may nest or (rarely, in broken DWARF) overlap, so a few earlier ones are tried too.
const Interval* find_interval(const Interval* first, const Interval* last, uint64_t vaddr) {
  const Interval* it = std::upper_bound(first, last, vaddr, [](uint64_t v, const Interval& i) { return v < i.lo; });
  for (int tries = 0; it != first && tries < 8; ++tries) {
    --it;
    if (vaddr < it->hi) return it;
  }
  return nullptr;
}

}  // namespace

const LineRow* CuData::line_at(uint64_t vaddr) const {
  auto it = std::upper_bound(lines.begin(), lines.end(), vaddr, [](uint64_t v, const LineRow& r) { return v < r.addr; });
  if (it == lines.begin()) return nullptr;
  --it;
  return it->end_sequence ? nullptr : &*it;
}

const Interval* CuData::root_at(uint64_t vaddr) const {
  return find_interval(roots.data(), roots.data() + roots.size(), vaddr);
}

void CuData::scope_chain(uint64_t vaddr, std::vector<uint32_t>* chain) const {
  chain->clear();
  const Interval* iv = find_interval(roots.data(), roots.data() + roots.size(), vaddr);
  while (iv) {
    chain->push_back(iv->node);
    const ScopeNode& n = nodes[iv->node];
    iv = find_interval(children.data() + n.child_begin, children.data() + n.child_end, vaddr);
  }
}

DwarfIndex::DwarfIndex(Dwarf* dw, uint64_t bias) : dw_(dw), bias_(bias) {
  Dwarf_CU* cu = nullptr;
  Dwarf_CU* next = nullptr;
  Dwarf_Half version = 0;
  uint8_t unit_type = 0;
  Dwarf_Die cudie;
  for (; dwarf_get_units(dw, cu, &next, &version, &unit_type, &cudie, nullptr) == 0; cu = next) {
    if (dwarf_tag(&cudie) != DW_TAG_compile_unit) continue;  // type and partial units hold no code
    auto slot = std::make_unique<CuSlot>();
    slot->die_offset = dwarf_dieoffset(&cudie);
    const char* name = dwarf_diename(&cudie);
    slot->name = name ? name : "";
    uint32_t idx = static_cast<uint32_t>(cus_.size());
    for_each_range(&cudie, [&](uint64_t lo, uint64_t hi) { ranges_.push_back({lo + bias, hi + bias, idx}); });
    cus_.push_back(std::move(slot));
  }
  std::sort(ranges_.begin(), ranges_.end(), [](const Interval& a, const Interval& b) { return a.lo < b.lo; });
}

int DwarfIndex::cu_for(uint64_t vaddr) const {
  const Interval* iv = find_interval(ranges_.data(), ranges_.data() + ranges_.size(), vaddr);
  return iv ? static_cast<int>(iv->node) : -1;
}

const CuData& DwarfIndex::cu_data(int cu) const {
  CuSlot& slot = *cus_[cu];
  std::call_once(slot.once, [&] { slot.data = build(slot); });
  return *slot.data;
}

std::unique_ptr<CuData> DwarfIndex::build(const CuSlot& slot) const {
  std::lock_guard<std::mutex> lock(dwarf_mutex_);
  Dwarf_Die cudie;
  if (!dwarf_offdie(dw_, slot.die_offset, &cudie)) {
    auto empty = std::make_unique<CuData>();
    empty->strings.emplace_back();
    return empty;
  }
  return CuBuilder(&cudie, bias_).run();
}

}  // namespace erkit::symbols
