#include "views/java_source.h"

#include <fmt/format.h>

#include <vector>

#include "views/source_files.h"

namespace erkit::views {

bool render_java_source(const std::string& file, const std::string& method, const AnnotationMetrics& m,
                        const SourceOptions& o, std::string* out, std::string* error, json::Value* json_out) {
  FoundSource src = find_source(o.paths, file);
  std::vector<std::string> text;
  bool have_text = !src.path.empty() && read_lines(src.path, &text);
  uint32_t nlines = uint32_t(text.size());
  auto known = m.lines.find(file);
  if (!have_text && known != m.lines.end() && !known->second.empty()) nlines = known->second.rbegin()->first;
  if (!have_text && nlines == 0) {
    *error = fmt::format("{}: {}", file, src.message.empty() ? "not found on the source search path" : src.message);
    return false;
  }
  const size_t w = std::max<size_t>(4, fmt::format("{}", nlines).size());
  AnnotatedListing l(m.cols, m.totals);
  l.add_text(std::string(w + 2, ' ') + fmt::format("<Function: {}>", method),
             json::Value::object().set("kind", "index"));
  for (uint32_t n = 1; n <= nlines; ++n) {
    auto v = m.line_values(file, n);
    if (!have_text && !v) continue;
    std::string body = have_text ? text[n - 1] : std::string();
    l.add(v, fmt::format("{:>{}}. {}", n, w, body), true,
          json::Value::object().set("kind", "source").set("line", n).set("source", body));
  }
  const std::string shown = have_text ? src.path : file;
  std::string head = fmt::format("Source file: {}\nObject file: <JAVA_CLASSES>\nLoad Object: <JAVA_CLASSES>\n", shown);
  if (!have_text) head += "Only the lines with code are known; their text is not shown.\n";
  *out = head + "\n" + l.render(o.sthresh);
  if (json_out) {
    json::Value listing = l.to_json(o.sthresh);
    *json_out = json::Value::object()
                    .set("source_file", shown)
                    .set("object_file", "<JAVA_CLASSES>")
                    .set("load_object", "<JAVA_CLASSES>")
                    .set("messages", json::Value::array())
                    .set("columns", listing["columns"])
                    .set("threshold", o.sthresh)
                    .set("rows", listing["rows"]);
  }
  return true;
}

}  // namespace erkit::views
