// ObjectSymbols: opens one load object with libdwfl (which also finds separate debug
// info by build-id, .gnu_debuglink, and debuginfod when DEBUGINFOD_URLS is set) and
// answers address queries from the symbol table and the lazily built DWARF index.
#include <elfutils/libdwfl.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string_view>
#include <unordered_map>

#include "symbols/dwarf_index.h"
#include "symbols/internal.h"
#include "symbols/symtab.h"

namespace erkit::symbols {

class ObjectIndex {
 public:
  ~ObjectIndex() {
    for (size_t i = 0; i < symtab.entries.size(); ++i) {
      delete sym_slots[i].load();
      delete func_slots[i].load();
    }
    dwarf_index.reset();
    if (dwfl) dwfl_end(dwfl);
  }

  struct CachedNames {
    Names names;
    std::string mangled;
  };

  // Demangling costs microseconds, so each name is demangled once: symbol-table names
  // into a per-entry slot (no lock on the hot path), DWARF names into a locked map.
  const CachedNames& sym_names(const SymEntry& e) const {
    size_t i = static_cast<size_t>(&e - symtab.entries.data());
    if (const CachedNames* n = sym_slots[i].load(std::memory_order_acquire)) return *n;
    const std::string& raw = symtab.strings[e.name];
    auto* fresh = new CachedNames{demangle(raw), raw};
    if (e.plt) {
      fresh->names.long_name += "@plt";
      fresh->names.short_name += "@plt";
      fresh->names.original_long.clear();
      fresh->mangled += "@plt";
    }
    const CachedNames* expected = nullptr;
    if (sym_slots[i].compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) return *fresh;
    delete fresh;  // another thread won the race
    return *expected;
  }

  const CachedNames& dwarf_names(const std::string& raw) const {
    std::lock_guard<std::mutex> lock(names_mu);
    auto it = names_cache.find(raw);
    if (it == names_cache.end()) it = names_cache.emplace(raw, CachedNames{demangle(raw), raw}).first;
    return it->second;  // node-based map: the reference stays valid
  }

  static Frame make_frame(const CachedNames& c) {
    Frame f;
    f.name = c.names.long_name;
    f.short_name = c.names.short_name;
    f.original = c.names.original_long;
    f.mangled = c.mangled;
    return f;
  }

  void build_functions() const;
  FunctionInfo sym_function(const SymEntry& e) const;
  FunctionInfo dwarf_function(const DwarfIndex& dw, int cu, const Interval& iv) const;
  const FunctionInfo* function_at(uint64_t vaddr) const;
  std::string source_file_of(uint64_t vaddr) const;

  std::string path, build_id;
  Dwfl* dwfl = nullptr;
  SymbolTable symtab;
  Dwfl_Module* mod = nullptr;

  // DWARF is loaded on first need: libdw decompresses and checks every debug section up
  // front (45 ms for libc), which symbol-only users should not pay.
  const DwarfIndex* dwarf() const {
    std::call_once(dwarf_once, [this] { load_dwarf(); });
    return dwarf_index.get();
  }
  const std::string& debug_file() const {
    dwarf();
    return debug_file_name;
  }
  void load_dwarf() const;
  mutable std::once_flag dwarf_once;
  mutable std::unique_ptr<DwarfIndex> dwarf_index;
  mutable std::string debug_file_name;
  std::vector<SectionInfo> sections;

  mutable std::mutex names_mu;
  mutable std::unordered_map<std::string, CachedNames> names_cache;
  std::unique_ptr<std::atomic<const CachedNames*>[]> sym_slots;
  // function_at() results, made on demand so that it does not index every CU.
  std::unique_ptr<std::atomic<const FunctionInfo*>[]> func_slots;
  mutable std::mutex dwarf_funcs_mu;
  mutable std::map<std::pair<int, uint64_t>, std::unique_ptr<FunctionInfo>> dwarf_funcs;
  mutable std::once_flag funcs_once;
  mutable std::vector<FunctionInfo> funcs;

  // The symbol-table function one of whose names (shown or alias) is `raw`, or null: DWARF
  // names inlined code by its internal alias (glibc's __GI___libc_read), users know the public
  // name the symbol table shows (read).
  const SymEntry* entry_named(const std::string& raw) const {
    std::call_once(alias_once, [this] {
      for (uint32_t i = 0; i < symtab.entries.size(); ++i) {
        const SymEntry& e = symtab.entries[i];
        if (e.plt) continue;
        alias_map.emplace(symtab.strings[e.name], i);
        for (uint32_t a = e.alias_begin; a < e.alias_end; ++a) alias_map.emplace(symtab.strings[symtab.aliases[a]], i);
      }
    });
    auto it = alias_map.find(raw);
    return it == alias_map.end() ? nullptr : &symtab.entries[it->second];
  }
  mutable std::once_flag alias_once;
  mutable std::unordered_map<std::string_view, uint32_t> alias_map;
  // Start address of every .eh_frame FDE, sorted (from .eh_frame_hdr's search table).
  std::vector<uint64_t> fde_starts;
};

namespace {
// The FDE start addresses of .eh_frame_hdr's binary-search table, in the encodings every
// toolchain here emits (eh_frame_ptr pcrel|sdata4, fde_count udata4, table datarel|sdata4);
// empty for anything else.
std::vector<uint64_t> read_fde_starts(Elf* elf) {
  std::vector<uint64_t> out;
  size_t shstrndx = 0;
  if (elf_getshdrstrndx(elf, &shstrndx) != 0) return out;
  for (Elf_Scn* scn = nullptr; (scn = elf_nextscn(elf, scn)) != nullptr;) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS) continue;
    const char* name = elf_strptr(elf, shstrndx, sh.sh_name);
    if (!name || std::strcmp(name, ".eh_frame_hdr") != 0) continue;
    Elf_Data* d = elf_getdata(scn, nullptr);
    if (!d || !d->d_buf || d->d_size < 12) return out;
    const auto* b = static_cast<const uint8_t*>(d->d_buf);
    if (b[0] != 1 || b[1] != 0x1b || b[2] != 0x03 || b[3] != 0x3b) return out;
    uint32_t count = 0;
    std::memcpy(&count, b + 8, 4);
    if (d->d_size < 12 + uint64_t(count) * 8) return out;
    out.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
      int32_t rel = 0;
      std::memcpy(&rel, b + 12 + uint64_t(i) * 8, 4);
      out.push_back(uint64_t(int64_t(sh.sh_addr) + rel));
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  return out;
}

// Compiler intrinsics (_mm_cmpeq_epi8 from emmintrin.h, ...) are instructions, not functions:
// their inlined frames are always folded into the code that uses them.
bool is_intrinsic_header(const std::string& file) {
  const std::string_view f(file);
  return f.size() >= 8 && f.substr(f.size() - 8) == "intrin.h";
}
}  // namespace

namespace {

char* g_debuginfo_path = nullptr;  // null: libdwfl's default ":.debug:/usr/lib/debug"

const Dwfl_Callbacks kCallbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &g_debuginfo_path,
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool path_matches(const std::string& have, const std::string& want) {
  if (have.size() < want.size() || have.compare(have.size() - want.size(), want.size(), want) != 0) return false;
  return have.size() == want.size() || want[0] == '/' || have[have.size() - want.size() - 1] == '/';
}

}  // namespace

std::string ObjectIndex::source_file_of(uint64_t vaddr) const {
  const DwarfIndex* dw = dwarf();
  if (!dw) return {};
  int cu = dw->cu_for(vaddr);
  if (cu < 0) return {};
  const CuData& d = dw->cu_data(cu);
  std::vector<uint32_t> chain;
  d.scope_chain(vaddr, &chain);
  if (!chain.empty() && d.nodes[chain[0]].decl_file != 0) return d.strings[d.nodes[chain[0]].decl_file];
  return dw->cu_name(cu);
}

void ObjectIndex::load_dwarf() const {
  Dwarf_Addr dwbias = 0;
  if (Dwarf* dw = dwfl_module_getdwarf(mod, &dwbias)) dwarf_index = std::make_unique<DwarfIndex>(dw, dwbias);
  const char* mainfile = nullptr;
  const char* debugfile = nullptr;
  dwfl_module_info(mod, nullptr, nullptr, nullptr, nullptr, nullptr, &mainfile, &debugfile);
  if (debugfile && (!mainfile || std::strcmp(debugfile, mainfile) != 0)) debug_file_name = debugfile;
}

FunctionInfo ObjectIndex::sym_function(const SymEntry& e) const {
  FunctionInfo f;
  const CachedNames& c = sym_names(e);
  f.name = c.names.long_name;
  f.mangled = c.mangled;
  f.addr = e.addr;
  f.size = e.end - e.addr;
  f.is_plt = e.plt;
  if (!e.plt) f.source_file = source_file_of(e.addr);
  for (uint32_t a = e.alias_begin; a < e.alias_end; ++a) f.aliases.push_back(symtab.strings[symtab.aliases[a]]);
  return f;
}

FunctionInfo ObjectIndex::dwarf_function(const DwarfIndex& dw, int cu, const Interval& iv) const {
  const CuData& d = dw.cu_data(cu);
  const ScopeNode& n = d.nodes[iv.node];
  FunctionInfo f;
  f.mangled = d.strings[n.name];
  f.name = dwarf_names(f.mangled).names.long_name;
  f.addr = iv.lo;
  f.size = iv.hi - iv.lo;
  f.source_file = n.decl_file ? d.strings[n.decl_file] : dw.cu_name(cu);
  f.from_dwarf_only = true;
  return f;
}

const FunctionInfo* ObjectIndex::function_at(uint64_t vaddr) const {
  if (const SymEntry* e = symtab.find(vaddr)) {
    auto& slot = func_slots[static_cast<size_t>(e - symtab.entries.data())];
    if (const FunctionInfo* f = slot.load(std::memory_order_acquire)) return f;
    auto* fresh = new FunctionInfo(sym_function(*e));
    const FunctionInfo* expected = nullptr;
    if (slot.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel)) return fresh;
    delete fresh;  // another thread won the race
    return expected;
  }
  const DwarfIndex* dw = dwarf();
  int cu = dw ? dw->cu_for(vaddr) : -1;
  if (cu < 0) return nullptr;
  const Interval* iv = dw->cu_data(cu).root_at(vaddr);
  if (!iv) return nullptr;
  std::lock_guard<std::mutex> lock(dwarf_funcs_mu);
  auto& f = dwarf_funcs[{cu, iv->lo}];
  if (!f) f = std::make_unique<FunctionInfo>(dwarf_function(*dw, cu, *iv));
  return f.get();
}

void ObjectIndex::build_functions() const {
  for (const SymEntry& e : symtab.entries) funcs.push_back(sym_function(e));
  if (const DwarfIndex* dw = dwarf()) {
    // Functions that only DWARF knows (symbol table stripped but debug info kept).
    for (size_t cu = 0; cu < dw->cu_count(); ++cu) {
      for (const Interval& iv : dw->cu_data(static_cast<int>(cu)).roots) {
        if (!symtab.find(iv.lo)) funcs.push_back(dwarf_function(*dw, static_cast<int>(cu), iv));
      }
    }
  }
  std::stable_sort(funcs.begin(), funcs.end(), [](const FunctionInfo& a, const FunctionInfo& b) { return a.addr < b.addr; });
}

ObjectSymbols::ObjectSymbols(std::unique_ptr<ObjectIndex> index) : index_(std::move(index)) {}
ObjectSymbols::~ObjectSymbols() = default;

std::unique_ptr<ObjectSymbols> ObjectSymbols::open(const std::string& path, const std::string& expected_build_id,
                                                   std::string* error) {
  auto fail = [&](const std::string& msg) {
    if (error) *error = path + ": " + msg;
    return nullptr;
  };
  // Reliability (issue 11): an experiment's map may name a FIFO or device; opening a FIFO
  // blocks for ever and reading a device never ends. Only regular files are objects.
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return fail(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return fail("not a regular file");
  elf_version(EV_CURRENT);
  auto ix = std::make_unique<ObjectIndex>();
  ix->path = path;
  ix->dwfl = dwfl_begin(&kCallbacks);
  if (!ix->dwfl) return fail(dwfl_errmsg(-1));
  // Module addresses are the file's own virtual addresses (a .o: libdwfl's section layout,
  // shared with the code and line readers through relocatable.h).
  Dwfl_Module* mod = report_at_file_addresses(ix->dwfl, path);
  if (!mod) return fail(dwfl_errmsg(-1));

  const unsigned char* bits = nullptr;
  GElf_Addr id_vaddr = 0;
  int len = dwfl_module_build_id(mod, &bits, &id_vaddr);
  for (int i = 0; i < len; ++i) {
    static constexpr char kHex[] = "0123456789abcdef";
    ix->build_id += kHex[bits[i] >> 4];
    ix->build_id += kHex[bits[i] & 15];
  }
  if (!expected_build_id.empty() && lower(expected_build_id) != ix->build_id) {
    return fail("build-id " + ix->build_id + " differs from the expected " + expected_build_id);
  }

  Dwarf_Addr bias = 0;
  Elf* main_elf = dwfl_module_getelf(mod, &bias);
  if (!main_elf) return fail(dwfl_errmsg(-1));
  if (bias != 0) return fail("unexpected load bias");  // cannot happen with base 0 (see above)
  ix->sections = alloc_sections(main_elf);
  ix->fde_starts = read_fde_starts(main_elf);
  ix->symtab = build_symbol_table(mod, main_elf);
  ix->sym_slots = std::make_unique<std::atomic<const ObjectIndex::CachedNames*>[]>(ix->symtab.entries.size());
  ix->func_slots = std::make_unique<std::atomic<const FunctionInfo*>[]>(ix->symtab.entries.size());
  ix->mod = mod;
  return std::unique_ptr<ObjectSymbols>(new ObjectSymbols(std::move(ix)));
}

std::vector<Frame> ObjectSymbols::lookup(uint64_t vaddr) const {
  const ObjectIndex& ix = *index_;
  std::vector<Frame> frames;
  const SymEntry* sym = ix.symtab.find(vaddr);
  const CuData* cu = nullptr;
  std::vector<uint32_t> chain;
  SourceLoc here;
  const DwarfIndex* dw = sym && sym->plt ? nullptr : ix.dwarf();
  if (dw) {
    if (int c = dw->cu_for(vaddr); c >= 0) {
      cu = &dw->cu_data(c);
      cu->scope_chain(vaddr, &chain);
      if (const LineRow* r = cu->line_at(vaddr)) here = {cu->strings[r->file], r->line};
    }
  }
  auto public_name = [&](const std::string& raw) {
    const SymEntry* e = ix.entry_named(raw);
    return e ? ix.sym_names(*e).names.long_name : ix.dwarf_names(raw).names.long_name;
  };
  // chain[0] is the concrete function, chain[k>0] inlined calls; frames go innermost first.
  for (size_t k = chain.size(); k-- > 1;) {
    const ScopeNode& n = cu->nodes[chain[k]];
    if (is_intrinsic_header(cu->strings[n.decl_file])) continue;
    const std::string& raw = cu->strings[n.name];
    const SymEntry* alias = ix.entry_named(raw);
    Frame f = ix.make_frame(alias ? ix.sym_names(*alias) : ix.dwarf_names(raw));
    // An alias of the function it sits in (glibc inlines __GI___libc_read into read): the same
    // function, not a callee.
    const std::string around = k == 1 && sym ? ix.sym_names(*sym).names.long_name
                                             : public_name(cu->strings[cu->nodes[chain[k - 1]].name]);
    if (f.name == around) continue;
    f.inlined = true;
    if (k + 1 == chain.size()) {
      f.loc = here;
    } else {
      const ScopeNode& callee = cu->nodes[chain[k + 1]];
      f.loc = {cu->strings[callee.call_file], callee.call_line};
    }
    frames.push_back(std::move(f));
  }
  Frame top;
  if (sym) {
    // The symbol, not DWARF, names the concrete function: only it distinguishes a clone
    // (foo.constprop.0) or a split part (foo.cold) from the original.
    top = ix.make_frame(ix.sym_names(*sym));
  } else if (!chain.empty()) {
    top = ix.make_frame(ix.dwarf_names(cu->strings[cu->nodes[chain[0]].name]));
  } else if (here.line == 0) {
    return frames;
  }
  if (chain.size() > 1) {
    const ScopeNode& callee = cu->nodes[chain[1]];
    top.loc = {cu->strings[callee.call_file], callee.call_line};
  } else {
    top.loc = here;
  }
  frames.push_back(std::move(top));
  return frames;
}

const std::vector<FunctionInfo>& ObjectSymbols::functions() const {
  std::call_once(index_->funcs_once, [this] { index_->build_functions(); });
  return index_->funcs;
}

const FunctionInfo* ObjectSymbols::function_at(uint64_t vaddr) const { return index_->function_at(vaddr); }

const FunctionInfo* ObjectSymbols::function_before(uint64_t vaddr) const {
  const auto& es = index_->symtab.entries;
  auto it = std::upper_bound(es.begin(), es.end(), vaddr, [](uint64_t v, const SymEntry& e) { return v < e.addr; });
  return it == es.begin() ? nullptr : index_->function_at(std::prev(it)->addr);
}

bool ObjectSymbols::fde_range(uint64_t vaddr, uint64_t* lo, uint64_t* hi) const {
  // libdw is not thread-safe; the DWARF index's users serialise the same way.
  std::lock_guard<std::mutex> lock(index_->names_mu);
  Dwarf_Addr bias = 0;
  Dwarf_CFI* cfi = dwfl_module_eh_cfi(index_->mod, &bias);
  if (!cfi) cfi = dwfl_module_dwarf_cfi(index_->mod, &bias);
  if (!cfi || vaddr < bias) return false;
  Dwarf_Frame* frame = nullptr;
  if (dwarf_cfi_addrframe(cfi, vaddr - bias, &frame) != 0 || !frame) return false;
  Dwarf_Addr start = 0, end = 0;
  bool signal_frame = false;
  bool ok = dwarf_frame_info(frame, &start, &end, &signal_frame) >= 0 && end > start;
  free(frame);
  if (!ok || vaddr < start + bias || vaddr >= end + bias) return false;
  // The row's range is part of the FDE's; the FDE starts at the last FDE start at or before it.
  *lo = start + bias;
  *hi = end + bias;
  const auto& f = index_->fde_starts;
  auto it = std::upper_bound(f.begin(), f.end(), vaddr);
  if (it != f.begin()) {
    *lo = std::min<uint64_t>(*lo, *std::prev(it));
    if (it != f.end()) *hi = std::max<uint64_t>(*hi, *it);
  }
  return true;
}

const SectionInfo* ObjectSymbols::section_at(uint64_t vaddr) const {
  const auto& s = index_->sections;
  auto it = std::upper_bound(s.begin(), s.end(), vaddr, [](uint64_t v, const SectionInfo& x) { return v < x.addr; });
  if (it == s.begin()) return nullptr;
  --it;
  return vaddr < it->addr + it->size ? &*it : nullptr;
}

std::string ObjectSymbols::cu_name(uint64_t vaddr) const {
  const DwarfIndex* dw = index_->dwarf();
  if (!dw) return {};
  int cu = dw->cu_for(vaddr);
  return cu < 0 ? std::string() : dw->cu_name(cu);
}

std::vector<AddrRange> ObjectSymbols::line_addresses(const std::string& file, uint32_t line) const {
  std::vector<AddrRange> out;
  const DwarfIndex* dw = index_->dwarf();
  if (!dw || file.empty()) return out;
  for (size_t c = 0; c < dw->cu_count(); ++c) {
    const CuData& d = dw->cu_data(static_cast<int>(c));
    std::vector<bool> match(d.strings.size());
    bool any = false;
    for (size_t i = 1; i < d.strings.size(); ++i) any |= (match[i] = path_matches(d.strings[i], file));
    if (!any) continue;
    for (size_t i = 0; i + 1 < d.lines.size(); ++i) {
      const LineRow& r = d.lines[i];
      if (r.end_sequence || r.line != line || !match[r.file] || d.lines[i + 1].addr <= r.addr) continue;
      out.push_back({r.addr, d.lines[i + 1].addr});
    }
  }
  std::sort(out.begin(), out.end(), [](const AddrRange& a, const AddrRange& b) { return a.lo < b.lo; });
  std::vector<AddrRange> merged;
  for (const AddrRange& r : out) {
    if (!merged.empty() && r.lo <= merged.back().hi) merged.back().hi = std::max(merged.back().hi, r.hi);
    else merged.push_back(r);
  }
  return merged;
}

const std::string& ObjectSymbols::path() const { return index_->path; }
const std::string& ObjectSymbols::build_id() const { return index_->build_id; }
const std::string& ObjectSymbols::debug_file() const { return index_->debug_file(); }
bool ObjectSymbols::has_dwarf() const { return index_->dwarf() != nullptr; }
size_t ObjectSymbols::symbol_count() const { return index_->symtab.entries.size(); }

const ObjectSymbols* SymbolCache::get(const std::string& path, const std::string& build_id, std::string* error) {
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, inserted] = entries_.try_emplace(path + '\0' + lower(build_id));
  if (inserted) it->second.obj = ObjectSymbols::open(path, build_id, &it->second.error);
  if (!it->second.obj && error) *error = it->second.error;
  return it->second.obj.get();
}

}  // namespace erkit::symbols
