// The source view of a Java method (docs/java.md): its .java file (found on the source search
// path like any source) annotated with the per-line metrics of the Java frames.
#pragma once
#include <string>

#include "views/annotated_listing.h"
#include "views/json.h"
#include "views/source_view.h"

namespace erkit::views {

// `file` as the class records it ("Ratio.java"); `method` is named in the header. False with
// *error when neither the file nor any line with metrics is known.
bool render_java_source(const std::string& file, const std::string& method, const AnnotationMetrics& m,
                        const SourceOptions& o, std::string* out, std::string* error, json::Value* json_out);

}  // namespace erkit::views
