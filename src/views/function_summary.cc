#include "views/function_summary.h"

#include <fmt/format.h>

#include <algorithm>

namespace erkit::views {

using model::FuncId;

namespace {

struct Field {
  std::string label, value;
};

std::vector<FuncId> aliases_of(const model::FunctionTable& ft, FuncId f) {
  std::vector<FuncId> out;
  const auto& e = ft.at(f);
  if (e.pseudo || e.addr == 0) return out;
  for (FuncId g = 0; g < ft.size(); ++g)
    if (g != f && !ft.at(g).pseudo && ft.at(g).object == e.object && ft.at(g).addr == e.addr) out.push_back(g);
  return out;
}

std::string object_path(const model::FunctionTable& ft, FuncId f) {
  const auto& e = ft.at(f);
  if (e.object == model::kNoObject) return "<pseudo>";
  return ft.object(e.object).path;
}

}  // namespace

std::string render_function_summary(const model::Profile& p, FuncId f, const std::vector<uint32_t>& metrics,
                                    const NameOptions& names) {
  const auto& ft = p.functions();
  const auto& e = ft.at(f);
  const auto& totals = p.totals();
  std::vector<Field> fields;
  for (uint32_t m : metrics) {
    const auto& d = model::metric_def(m);
    for (char fl : {'e', 'i'}) {
      int64_t v = function_value(p, f, fl, m);
      fields.push_back({fmt::format("{} {}", fl == 'e' ? "Exclusive" : "Inclusive", d.display),
                        fmt::format("{} ({:5.1f}%)", format_value(m, v), percent_of(v, totals[m]))});
    }
  }
  fields.push_back({"Size", fmt::format("{}", e.size)});
  fields.push_back({"PC Address", fmt::format("{}:0x{:08x}", e.object, e.addr)});
  fields.push_back({"Source File", e.source_file.empty() ? "(unknown)" : e.source_file});
  fields.push_back({"Object File", e.pseudo ? "(unknown)" : object_path(ft, f)});
  fields.push_back({"Load Object", object_path(ft, f)});
  fields.push_back({"Mangled Name", e.mangled == e.name ? "" : e.mangled});
  // A compiler clone (.constprop, .isra, .part, .cold) names the function it was made from.
  if (!e.original.empty()) fields.push_back({"Clone of", e.original});
  std::string aliases;
  for (FuncId g : aliases_of(ft, f)) aliases += (aliases.empty() ? "" : ", ") + ft.at(g).name;
  fields.push_back({"Aliases", aliases});
  fields.push_back({"Function ID", fmt::format("{}", f)});
  size_t w = 0;
  for (const auto& x : fields) w = std::max(w, x.label.size());
  std::string out = function_display_name(ft, f, names) + "\n";
  for (const auto& x : fields) {
    std::string line = fmt::format("        {:>{}}:  {}", x.label, w, x.value);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

json::Value function_summary_json(const model::Profile& p, FuncId f, const std::vector<uint32_t>& metrics,
                                  const NameOptions& names) {
  const auto& ft = p.functions();
  const auto& e = ft.at(f);
  const auto& totals = p.totals();
  json::Value ms = json::Value::array();
  for (uint32_t m : metrics) {
    int64_t ex = function_value(p, f, 'e', m), in = function_value(p, f, 'i', m);
    ms.push(json::Value::object()
                .set("metric", model::metric_def(m).name)
                .set("title", model::metric_def(m).display)
                .set("unit", unit_name(m))
                .set("exclusive", ex)
                .set("exclusive_percent", percent_of(ex, totals[m]))
                .set("inclusive", in)
                .set("inclusive_percent", percent_of(in, totals[m])));
  }
  json::Value aliases = json::Value::array();
  for (FuncId g : aliases_of(ft, f)) aliases.push(ft.at(g).name);
  json::Value v = json::Value::object();
  v.set("id", f)
      .set("name", function_display_name(ft, f, names))
      .set("metrics", std::move(ms))
      .set("size", e.size)
      .set("object_index", e.object)
      .set("address", e.addr)
      .set("source_file", e.source_file)
      .set("load_object", object_path(ft, f))
      .set("mangled_name", e.mangled)
      .set("aliases", std::move(aliases))
      .set("pseudo", e.pseudo);
  if (!e.original.empty()) v.set("clone_of", e.original);
  return v;
}

}  // namespace erkit::views
