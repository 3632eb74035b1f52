#include "views/source_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace erkit::views {
namespace {

std::string base_name(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::string dir_name(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? "." : p.substr(0, s);
}

bool in_names(const std::set<std::string>& names, const std::string& f) {
  if (f.empty()) return false;
  if (names.count(f)) return true;
  for (const auto& n : names)
    if (disasm::path_matches(n, f) || disasm::path_matches(f, n)) return true;
  return false;
}

struct IndexLine {
  std::string text;
  std::optional<ExclIncl> v;
};

}  // namespace

std::string index_name(const symbols::FunctionInfo& f, uint32_t first_line) {
  const std::string& n = f.name;
  size_t cold = n.find(".cold");
  if (cold != std::string::npos && cold > 0) {
    std::string from = first_line ? fmt::format(" from line {}", first_line) : "";
    return fmt::format("{} -- outline code{} [{}]", n.substr(0, cold), from, n);
  }
  symbols::Names d = symbols::demangle(f.mangled.empty() ? f.name : f.mangled);
  if (!d.original_long.empty() && d.original_long != n) return fmt::format("{} -- clone of {}", n, d.original_long);
  return n;
}

void load_commentary(ObjectCodeIndex& obj, const std::vector<symbols::FunctionInfo>& fns, const SourceOptions& o,
                     commentary::Commentary* c) {
  std::set<const disasm::CompileUnit*> cus;
  for (const auto& f : fns)
    if (const auto* cu = obj.lines().cu_at(f.addr)) cus.insert(cu);
  for (const auto* cu : cus) {
    std::vector<std::string> dirs = {dir_name(obj.path())};
    if (!cu->comp_dir.empty()) dirs.push_back(cu->comp_dir);
    FoundSource src = find_source(o.paths, cu->name, cu->comp_dir);
    if (!src.path.empty()) dirs.push_back(dir_name(src.path));
    dirs.push_back(dir_name(cu->name));
    for (const auto& d : o.paths.search)
      if (d == "$expts") dirs.insert(dirs.end(), o.paths.experiments.begin(), o.paths.experiments.end());
      else dirs.push_back(d);
    for (const auto& f : commentary::find_record_files(dirs, cu->name, obj.path())) c->add_file(f);
  }
}

bool render_source(ObjectCodeIndex& obj, const std::string& file, const AnnotationMetrics& m, const SourceOptions& o,
                   std::string* out, std::string* error, json::Value* json_out) {
  const auto& lt = obj.lines();
  std::vector<uint32_t> files = lt.files_matching(file);
  if (files.empty()) {
    *error = fmt::format("no code from source file {} in {}", file, obj.path());
    return false;
  }
  std::set<std::string> names;
  for (uint32_t f : files) names.insert(lt.files()[f]);
  const std::string& dwarf_name = lt.files()[files[0]];
  auto has_code = lt.lines_of(files);
  auto fns = obj.functions_for_file(files);

  std::map<uint32_t, std::vector<IndexLine>> after, before;
  std::vector<IndexLine> top;
  std::map<std::string, uint32_t> index_at;  // function -> line of its index line
  std::set<std::string> entry_placed;        // placed at an out-of-line copy's first instruction
  const std::string& objpath = obj.path();
  for (const auto& f : fns) {
    const FunctionCode& fc = obj.function(f);
    std::map<std::string, ExclIncl> foreign;  // other file -> metrics of those instructions
    std::map<std::string, uint32_t> inner_min;  // innermost function -> min line here
    ExclIncl no_lines;
    bool any_no_line = false;
    for (const auto& ci : fc.instrs) {
      auto v = m.instr_values(objpath, ci.ins.addr, ci.ins.size);
      if (ci.line() == 0) {
        any_no_line = true;
        if (v) no_lines.add(*v);
      } else if (in_names(names, ci.file())) {
        const std::string& g = ci.frames.front().name;
        auto [it, fresh] = inner_min.try_emplace(g, ci.line());
        if (!fresh) it->second = std::min(it->second, ci.line());
      } else {
        auto& acc = foreign[ci.file()];
        if (v) acc.add(*v);
      }
    }
    bool home = in_names(names, fc.default_file);
    const disasm::CompileUnit* cu = lt.cu_at(f.addr);
    bool compiled_here = cu && in_names(names, cu->name);
    std::string shown = index_name(f, fc.entry_line);
    if (home && fc.entry_line) {
      index_at[f.name] = fc.entry_line;
      entry_placed.insert(f.name);
      after[fc.entry_line].push_back({fmt::format("<Function: {}>", shown), std::nullopt});
      for (const auto& [g, v] : foreign)
        before[fc.entry_line].push_back(
            {fmt::format("<Function: {}, instructions from source file {}>", shown, base_name(g)), v});
    } else if (compiled_here && !fc.default_file.empty()) {
      ExclIncl v;
      for (const auto& [g, x] : foreign) v.add(x);
      top.push_back({fmt::format("<Function: {}, instructions from source file {}>", shown, base_name(fc.default_file)), v});
    }
    if (any_no_line && (home || compiled_here))
      top.push_back({fmt::format("<Function: {}, instructions without line numbers>", shown), no_lines});
    for (const auto& [g, line] : inner_min) {
      if (entry_placed.count(g)) continue;
      auto [it, fresh] = index_at.try_emplace(g, line);
      if (!fresh && line >= it->second) continue;
      it->second = line;
    }
  }
  for (const auto& [g, line] : index_at)
    if (!entry_placed.count(g)) after[line].push_back({fmt::format("<Function: {}>", g), std::nullopt});

  FoundSource src = find_source(o.paths, dwarf_name, "", objpath);
  std::vector<std::string> text;
  bool have_text = !src.path.empty() && read_lines(src.path, &text);
  uint32_t nlines = uint32_t(text.size());
  if (!have_text) {
    if (!has_code.empty()) nlines = std::max(nlines, has_code.rbegin()->first);
    for (const auto& [name, lines] : m.lines)
      if (in_names(names, name) && !lines.empty()) nlines = std::max(nlines, lines.rbegin()->first);
  }
  commentary::Commentary com;
  if (o.scc.classes) load_commentary(obj, fns, o, &com);

  const size_t w = std::max<size_t>(4, fmt::format("{}", nlines).size());
  const std::string indent(w + 2, ' ');
  AnnotatedListing l(m.cols, m.totals);
  auto kind = [](const char* k) { return json::Value::object().set("kind", k); };
  if (o.scc.classes & commentary::kVersion) {
    const auto* cu = fns.empty() ? nullptr : lt.cu_at(fns.front().addr);
    for (const auto& v : commentary::version_lines(src.path, cu ? cu->producer : ""))
      l.add_text(std::string(w + 2, ' ') + v, kind("commentary"));
  }
  for (const auto& t : top) l.add(t.v, indent + t.text, false, kind("index"));
  for (uint32_t n = 1; n <= nlines; ++n) {
    for (const auto& b : before[n]) l.add(b.v, indent + b.text, false, kind("index"));
    for (const auto* r : com.for_line(dwarf_name, n, o.scc.classes))
      l.add_text(indent + r->text, kind("commentary").set("line", n));
    auto v = m.line_values(dwarf_name, n);
    if (!v && has_code.count(n)) v = ExclIncl{};
    if (!have_text && !v && !after.count(n) && before[n].empty()) continue;
    std::string body = have_text && n <= text.size() ? text[n - 1] : std::string();
    l.add(v, fmt::format("{:>{}}. {}", n, w, body), true, kind("source").set("line", n).set("source", body));
    if (auto it = after.find(n); it != after.end())
      for (const auto& a : it->second) l.add(a.v, indent + a.text, false, kind("index"));
  }
  const std::string shown_file = have_text ? src.path : dwarf_name;
  std::vector<std::string> messages;
  if (!src.message.empty()) messages.push_back(src.message);
  if (!have_text && src.path.empty()) messages.push_back("Only the lines with code are known; their text is not shown.");
  for (const auto& p : com.problems()) messages.push_back("Warning: commentary: " + p);
  std::string head = fmt::format("Source file: {}\nObject file: {}\nLoad Object: {}\n", shown_file, objpath, objpath);
  for (const auto& msg : messages) head += msg + "\n";
  *out = head + "\n" + l.render(o.sthresh);
  if (json_out) {
    json::Value msgs = json::Value::array();
    for (const auto& msg : messages) msgs.push(msg);
    json::Value listing = l.to_json(o.sthresh);
    *json_out = json::Value::object()
                .set("source_file", shown_file)
                .set("object_file", objpath)
                .set("load_object", objpath)
                .set("messages", std::move(msgs))
                .set("columns", listing["columns"])
                .set("threshold", o.sthresh)
                .set("rows", listing["rows"]);
  }
  return true;
}

}  // namespace erkit::views
