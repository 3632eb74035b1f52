#include "source/code_index.h"

#include <elf.h>
#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace erkit::source {

const std::string& CodeInstr::file() const {
  static const std::string kNone;
  return frames.empty() ? kNone : frames.front().loc.file;
}

uint32_t CodeInstr::line() const { return frames.empty() ? 0 : frames.front().loc.line; }

namespace {

// A call or jump in a relocatable object: its displacement is 0 in the file and the relocation says
// where it goes (x86-64 PLT32/PC32: S + A - P from the end of the instruction; aarch64
// CALL26/JUMP26: S + A). A defined target becomes the call's target; an undefined one is
// named by its symbol.
void resolve_call(disasm::Arch arch, const disasm::CodeSection& sec, disasm::Instruction* ins, std::string* symbol) {
  auto it = std::lower_bound(sec.relocs.begin(), sec.relocs.end(), ins->addr,
                             [](const symbols::PlacedReloc& r, uint64_t a) { return r.at < a; });
  if (it == sec.relocs.end() || it->at >= ins->addr + ins->size) return;
  uint64_t target = 0;
  if (arch == disasm::Arch::X86_64 && (it->type == R_X86_64_PC32 || it->type == R_X86_64_PLT32)) {
    target = uint64_t(int64_t(it->value) + it->addend - int64_t(it->at)) + ins->addr + ins->size;
  } else if (arch == disasm::Arch::AArch64 && (it->type == R_AARCH64_JUMP26 || it->type == R_AARCH64_CALL26)) {
    target = uint64_t(int64_t(it->value) + it->addend);
  } else {
    return;
  }
  if (it->defined) {
    ins->target = target;
    ins->has_target = true;
  } else {
    *symbol = it->symbol;
  }
}

}  // namespace

std::unique_ptr<ObjectCodeIndex> ObjectCodeIndex::open(const std::string& path, const std::string& build_id,
                                                       std::string* error) {
  auto ix = std::unique_ptr<ObjectCodeIndex>(new ObjectCodeIndex);
  ix->path_ = path;
  ix->syms_ = symbols::ObjectSymbols::open(path, build_id, error);
  if (!ix->syms_) return nullptr;
  std::string lerr;
  ix->lines_ = disasm::LineTable::open(path, ix->syms_->debug_file(), &lerr);
  if (!ix->lines_) ix->lines_ = disasm::LineTable::open("/dev/null", "", &lerr);
  ix->code_ = disasm::ObjectCode::open(path, &ix->code_error_);
  if (ix->code_) {
    ix->dis_ = disasm::Disassembler::create(ix->code_->arch(), disasm::Syntax::Att, &ix->code_error_);
    if (!ix->dis_) ix->code_.reset();
  }
  return ix;
}

const FunctionCode& ObjectCodeIndex::function(const symbols::FunctionInfo& f) {
  auto it = funcs_.find(f.addr);
  if (it != funcs_.end()) return it->second;
  FunctionCode fc;
  fc.info = f;
  if (!code_) {
    fc.error = code_error_;
  } else {
    uint64_t size = f.size ? f.size : 16;
    auto bytes = code_->bytes(f.addr, f.addr + size);
    if (bytes.empty()) fc.error = fmt::format("no code at {:#x} in {}", f.addr, path_);
    // A .o is decoded at its section offsets, so branch operands read as objdump's; the
    // addresses are then moved back into the layout the symbols and lines use.
    const disasm::CodeSection* sec = code_->relocatable() ? code_->section_at(f.addr) : nullptr;
    const uint64_t shift = sec ? sec->addr : 0;
    for (auto& ins : dis_->decode(bytes.data(), bytes.size(), f.addr - shift)) {
      CodeInstr ci;
      ins.addr += shift;
      if (ins.has_target) ins.target += shift;
      if (sec && (ins.flow == disasm::Flow::Call || ins.flow == disasm::Flow::Jump))
        resolve_call(code_->arch(), *sec, &ins, &ci.call_symbol);
      ci.frames = syms_->lookup(ins.addr);
      ci.ins = std::move(ins);
      fc.instrs.push_back(std::move(ci));
    }
  }
  if (!fc.instrs.empty()) {
    fc.default_file = fc.instrs.front().file();
    fc.entry_line = fc.instrs.front().line();
  }
  if (fc.default_file.empty()) {
    // A function whose first instruction has no line: its first line-numbered instruction.
    for (const auto& ci : fc.instrs)
      if (ci.line()) {
        fc.default_file = ci.file();
        fc.entry_line = ci.line();
        break;
      }
  }
  return funcs_.emplace(f.addr, std::move(fc)).first->second;
}

std::vector<symbols::FunctionInfo> ObjectCodeIndex::module_functions(uint64_t addr) const {
  std::vector<symbols::FunctionInfo> out;
  const disasm::CompileUnit* cu = lines_->cu_at(addr);
  if (!cu) {
    if (const auto* f = syms_->function_at(addr)) out.push_back(*f);
    return out;
  }
  for (const auto& f : syms_->functions()) {
    if (f.is_plt) continue;
    const disasm::CompileUnit* c = lines_->cu_at(f.addr);
    if (c == cu) out.push_back(f);
  }
  return out;
}

std::optional<symbols::FunctionInfo> ObjectCodeIndex::unnamed_region(uint64_t start, const std::string& name) const {
  const symbols::SectionInfo* sec = syms_->section_at(start);
  if (!sec || !sec->executable) return std::nullopt;
  uint64_t end = sec->addr + sec->size;
  const auto& fns = syms_->functions();
  auto next = std::upper_bound(fns.begin(), fns.end(), start,
                               [](uint64_t a, const symbols::FunctionInfo& f) { return a < f.addr; });
  if (next != fns.end()) end = std::min(end, next->addr);
  symbols::FunctionInfo f;
  f.name = name;
  f.addr = start;
  f.size = end - start;
  return f;
}

std::vector<symbols::FunctionInfo> ObjectCodeIndex::functions_for_file(const std::vector<uint32_t>& files) const {
  std::set<uint64_t> addrs;
  std::vector<symbols::FunctionInfo> out;
  auto add = [&](const symbols::FunctionInfo& f) {
    if (!f.is_plt && addrs.insert(f.addr).second) out.push_back(f);
  };
  for (const auto& [line, ranges] : lines_->lines_of(files))
    for (const auto& r : ranges)
      if (const auto* f = syms_->function_at(r.lo)) add(*f);
  std::set<uint32_t> cus;
  for (uint32_t i = 0; i < lines_->cus().size(); ++i)
    for (uint32_t f : files)
      if (disasm::path_matches(lines_->cus()[i].name, lines_->files()[f])) cus.insert(i);
  if (!cus.empty()) {
    for (const auto& f : syms_->functions()) {
      const disasm::CompileUnit* c = f.is_plt ? nullptr : lines_->cu_at(f.addr);
      if (c && cus.count(uint32_t(c - lines_->cus().data()))) add(f);
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.addr < b.addr; });
  return out;
}

std::string ObjectCodeIndex::target_name(uint64_t addr) const {
  const symbols::FunctionInfo* f = syms_->function_at(addr);
  if (!f) return "";
  if (addr == f->addr) return f->name;
  return fmt::format("{}+{:#x}", f->name, addr - f->addr);
}

uint64_t ObjectCodeIndex::shown_addr(uint64_t addr) const {
  const disasm::CodeSection* sec = code_ && code_->relocatable() ? code_->section_at(addr) : nullptr;
  if (sec) return addr - sec->addr;
  const symbols::SectionInfo* s = code_ && code_->relocatable() ? syms_->section_at(addr) : nullptr;
  return s ? addr - s->addr : addr;
}

std::string ObjectCodeIndex::section_name(uint64_t addr) const {
  if (!code_ || !code_->relocatable()) return "";
  if (const disasm::CodeSection* sec = code_->section_at(addr)) return sec->name;
  const symbols::SectionInfo* s = syms_->section_at(addr);
  return s ? s->name : "";
}

ObjectCodeIndex* CodeIndexCache::get(const std::string& path, const std::string& build_id, std::string* error) {
  std::string key = path + "\n" + build_id;
  if (auto it = objs_.find(key); it != objs_.end()) return it->second.get();
  if (auto it = errors_.find(key); it != errors_.end()) {
    *error = it->second;
    return nullptr;
  }
  auto ix = ObjectCodeIndex::open(path, build_id, error);
  if (!ix) {
    errors_[key] = *error;
    return nullptr;
  }
  return (objs_[key] = std::move(ix)).get();
}

}  // namespace erkit::source
