// The bytecode disassembly of a Java method (er_print -disasm in user and expert modes;
// docs/java.md): each bytecode the agent recorded (JVMTI GetBytecodes), decoded by
// disasm/java_bytecode.h, with the metrics of the Java frames at its bytecode index.
#pragma once
#include <string>

#include <cstdint>
#include <utility>
#include <vector>

#include "model/viewmode/java_info.h"
#include "views/annotated_listing.h"
#include "views/json.h"
#include "views/source_view.h"

namespace erkit::views {

// `base`: the method's pseudo-address in the profile (its FunctionEntry::addr); a Java frame at
// bytecode index b has PC base + b in <JAVA_CLASSES>. json_out: {"load_object","method",
// "columns","threshold","rows"}; rows of kind "bytecode" ({"function","bci","line","mnemonic",
// "operands","branch_target"}) and "index".
std::string render_java_disasm(const model::JavaMethod& m, uint64_t base, const AnnotationMetrics& metrics,
                               const SourceOptions& o, json::Value* json_out = nullptr);

// Machine mode: the generated code of each compiled instance of a method (the code the agent
// copied at CompiledMethodLoad: dyntext), decoded with capstone for `arch` ("x86_64",
// "aarch64"), with the metrics of the samples at each instruction (object <JAVA_CLASSES>). False
// with *error if no instance has code.
struct CompiledInstance {  // one compiled instance of a method (the reader's dynamic function)
  uint64_t vaddr = 0, size = 0;
  const std::vector<uint8_t>* code = nullptr;                       // empty: not recorded
  const std::vector<std::pair<uint32_t, uint32_t>>* lines = nullptr;  // (offset, line), ascending
};
bool render_compiled_disasm(const std::string& name, const std::vector<CompiledInstance>& instances,
                            const std::string& arch, const AnnotationMetrics& metrics, const SourceOptions& o,
                            std::string* out, std::string* error, json::Value* json_out = nullptr);

}  // namespace erkit::views
