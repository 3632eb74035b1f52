// The code of one load object as the annotated views need it: symbols, DWARF line table,
// machine code and, per function, every instruction with its inline chain. Built lazily
// per function, so listing one module of libc does not decode all of libc.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "disasm/disassembler.h"
#include "disasm/line_table.h"
#include "disasm/object_code.h"
#include "symbols/symbols.h"

namespace erkit::source {

struct CodeInstr {
  disasm::Instruction ins;
  std::vector<symbols::Frame> frames;  // innermost first; empty: no symbol covers it
  // A call (or tail jump) in a relocatable object to a function it does not define: the
  // symbol its relocation names (the instruction's own target is only the next instruction).
  std::string call_symbol;
  const std::string& file() const;     // innermost source file ("" if unknown)
  uint32_t line() const;               // innermost line (0 if unknown)
};

struct FunctionCode {
  symbols::FunctionInfo info;
  std::vector<CodeInstr> instrs;
  std::string default_file;  // file of the first instruction: the function's default source context
  uint32_t entry_line = 0;
  std::string error;  // why there are no instructions, if so
};

class ObjectCodeIndex {
 public:
  // Null with *error when the object cannot be read at all.
  static std::unique_ptr<ObjectCodeIndex> open(const std::string& path, const std::string& build_id,
                                               std::string* error);
  const symbols::ObjectSymbols& syms() const { return *syms_; }
  const disasm::LineTable& lines() const { return *lines_; }
  const disasm::ObjectCode* code() const { return code_.get(); }
  const std::string& code_error() const { return code_error_; }
  const std::string& path() const { return path_; }

  const FunctionCode& function(const symbols::FunctionInfo& f);
  // Functions of the compilation unit covering addr, by address; just the function at
  // addr when there is no DWARF ("unknown module": seed-spec §10.5).
  std::vector<symbols::FunctionInfo> module_functions(uint64_t addr) const;
  // The code from `start` to the next symbol or the end of its section, named `name`: a
  // `<static>@0x...` function of a stripped object. None when start is not in code.
  std::optional<symbols::FunctionInfo> unnamed_region(uint64_t start, const std::string& name) const;
  // Functions with code from any of the given line-table files, or compiled in a CU of that name.
  std::vector<symbols::FunctionInfo> functions_for_file(const std::vector<uint32_t>& files) const;
  // Name for a call/jump target: "puts@plt", "helper", "helper+0x10", or "".
  std::string target_name(uint64_t addr) const;
  // The address as objdump and nm show it: for a relocatable object the offset in its section
  // (the index lays a .o's sections out one after another, libdwfl's layout); else addr.
  uint64_t shown_addr(uint64_t addr) const;
  // For a relocatable object, the name of the section holding addr ("" otherwise).
  std::string section_name(uint64_t addr) const;

 private:
  std::string path_;
  std::unique_ptr<symbols::ObjectSymbols> syms_;
  std::unique_ptr<disasm::LineTable> lines_;
  std::unique_ptr<disasm::ObjectCode> code_;
  std::unique_ptr<disasm::Disassembler> dis_;
  std::string code_error_;
  std::map<uint64_t, FunctionCode> funcs_;
};

class CodeIndexCache {
 public:
  ObjectCodeIndex* get(const std::string& path, const std::string& build_id, std::string* error);

 private:
  std::map<std::string, std::unique_ptr<ObjectCodeIndex>> objs_;
  std::map<std::string, std::string> errors_;
};

}  // namespace erkit::source
