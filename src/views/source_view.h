// Annotated source (seed-spec §7.6 `source`, §10.1-10.4, §14.7, §14.9): every line of a
// source file with its metrics, index lines for the functions whose code comes from it,
// extended index lines for code a function has from other files (headers, inlining), and
// compiler commentary above the lines it concerns.
#pragma once
#include <string>
#include <vector>

#include "commentary/com_spec.h"
#include "commentary/commentary.h"
#include "views/annotated_listing.h"
#include "views/code_index.h"
#include "views/source_files.h"

namespace erkit::views {

struct SourceOptions {
  SourcePaths paths;
  commentary::ComSpec scc;
  commentary::ComSpec dcc{commentary::kBasic, false, true, false};
  double sthresh = 75, dthresh = 75;
};

// Reads the optimisation records that belong to the compilation units of `fns` (next to the
// object, in the compilation directory, beside the source, and on the search path).
void load_commentary(ObjectCodeIndex& obj, const std::vector<symbols::FunctionInfo>& fns, const SourceOptions& o,
                     commentary::Commentary* c);

// The listing of `file` (a name as DWARF records it, or a suffix of it) from object `obj`.
// False with *error when the object has no code from that file. json_out: also the listing as
// {"source_file","object_file","load_object","messages":[...],"columns","threshold","rows"}
// (AnnotatedListing::to_json); rows of kind "source" ({"line","source"}), "index",
// "commentary" ({"line"}) or "text".
bool render_source(ObjectCodeIndex& obj, const std::string& file, const AnnotationMetrics& m, const SourceOptions& o,
                   std::string* out, std::string* error, json::Value* json_out = nullptr);

// Display name of a function's index line: clones and outlined cold parts are named as the
// manual names compiler-made bodies (seed-spec §10.7).
std::string index_name(const symbols::FunctionInfo& f, uint32_t first_line);

}  // namespace erkit::views
