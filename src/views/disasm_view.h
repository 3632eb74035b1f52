// Annotated disassembly (seed-spec §7.6 `disasm`, §10.5, §14.8): every instruction of the
// functions of a module with its metrics, the source line in brackets ([ ?] when unknown),
// optional instruction bytes, call targets by name (PLT entries as name@plt), '>' before
// instructions that a branch of the listing jumps to, and source (or annotated source)
// interleaved with commentary.
#pragma once
#include <string>
#include <vector>

#include "views/source_view.h"

namespace erkit::views {

// Lists `fns` (by address) of `obj`. Source interleaving and commentary follow o.dcc.
// json_out: also the listing as {"load_object","source_file"?,"messages":[...],"columns",
// "threshold","rows"} (AnnotatedListing::to_json); rows of kind "instruction" ({"function",
// "address","line" (null: unknown),"branch_target","bytes"?,"mnemonic","operands"}),
// "source" ({"file","line","source"}), "index" ({"function"}), "commentary" or "text".
std::string render_disasm(ObjectCodeIndex& obj, const std::vector<symbols::FunctionInfo>& fns,
                          const AnnotationMetrics& m, const SourceOptions& o, json::Value* json_out = nullptr);

}  // namespace erkit::views
