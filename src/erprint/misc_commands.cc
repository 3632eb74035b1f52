// mapfile (seed-spec §7.17) and the dataspace / memory-object commands (§7.7, §7.8): their
// argument checks here, their reports in dataspace_commands.cc (collect -h +counter, -p on,+).
#include <fmt/format.h>

#include <cctype>

#include "erprint/command_groups.h"
#include "erprint/dataspace_commands.h"
#include "erprint/function_lookup.h"
#include "keyword.h"
#include "views/mapfile.h"

namespace erkit::erprint {
namespace {

constexpr const char* kNoDataspace =
    "the loaded experiments hold no dataspace data (data objects and memory objects come from "
    "hardware-counter profiling with backtracking, which these experiments did not record)";

CommandResult no_data(Session& s, const std::string& cmd, const std::string& what) {
  return emit_report(s, cmd, fmt::format("{}: {}: {}\n", cmd, what, kNoDataspace),
                     json::Value::object().set("available", false).set("reason", kNoDataspace));
}

// data_metrics / data_sort: the spec must parse and use only 'd' or static metrics.
CommandResult data_spec(Session& s, const std::string& cmd, const std::vector<std::string>& a) {
  if (a.empty() && has_dataspace(s)) {  // what the data lists use now (issue 19)
    const bool sort = cmd == "data_sort";
    const std::string cur = sort ? current_data_sort(s) : current_data_metrics(s);
    return emit_report(s, cmd, fmt::format("current {}: {}\n", sort ? "data_sort" : "data_metrics", cur),
                       json::Value::object().set("current", cur).set("available", true));
  }
  if (a.empty()) {
    const std::string cur = cmd == "data_metrics" ? s.metric_state().data().to_string()
                                                  : s.metric_state().data_sort().to_string();
    return emit_report(s, cmd, fmt::format("current: {}\n{}: {}\n", cur, cmd, kNoDataspace),
                       json::Value::object().set("current", cur).set("available", false));
  }
  std::string spec = a[0];
  const bool reverse = cmd == "data_sort" && !spec.empty() && spec[0] == '-';
  if (reverse) spec.erase(0, 1);
  auto kws = metricspec::parse_keywords(spec);
  if (auto* e = std::get_if<metricspec::SpecError>(&kws))
    return command_error(fmt::format("{}: {} (at offset {} of '{}')", cmd, e->message, e->offset, a[0]));
  for (const auto& k : std::get<std::vector<metricspec::Keyword>>(kws)) {
    if (k.is_static()) continue;
    for (char f : k.flavors)
      if (f != 'd')
        return command_error(fmt::format("{}: '{}' is not a data-derived metric; use the 'd' flavor (e.g. d.%{})",
                                         cmd, spec.substr(k.offset, k.name_offset + k.name.size() - k.offset),
                                         k.name));
  }
  if (!has_dataspace(s)) return no_data(s, cmd, fmt::format("'{}' accepted but not applied", a[0]));
  if (cmd == "data_metrics") {
    std::vector<std::string> names;
    for (const auto& k : std::get<std::vector<metricspec::Keyword>>(kws)) names.push_back(k.name);
    set_data_metrics(s, names);
  } else {
    const auto& kws_list = std::get<std::vector<metricspec::Keyword>>(kws);
    if (kws_list.size() != 1)
      return command_error(fmt::format("data_sort: '{}': give one metric (e.g. d.page-faults, name)", a[0]));
    const std::string& n = kws_list[0].name;
    bool known = kws_list[0].is_static() ? (n == "name" || n == "size") : data_metric_known(s, n);
    if (!known)
      return command_error(fmt::format("data_sort: '{}' is not a data-derived metric of the loaded experiments", n));
    set_data_sort(s, n, reverse);
  }
  return emit_report(s, cmd, fmt::format("{}: {}\n", cmd, a[0]), json::Value::object().set("spec", a[0]));
}

bool valid_type_name(const std::string& n) {
  if (n.empty() || !std::isalpha(static_cast<unsigned char>(n[0]))) return false;
  for (char c : n)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

CommandResult define_memobj(Session& s, const std::vector<std::string>& a) {
  if (a.size() < 2) return command_error("mobj_define: needs a type name and an index expression");
  const std::string& name = a[0];
  if (!valid_type_name(name))
    return command_error(fmt::format("mobj_define: '{}' is not a valid name (a letter, then letters, digits, _)", name));
  for (const auto& [n, e] : s.memobj_types)
    if (n == name) return command_error(fmt::format("mobj_define: memory object type '{}' already exists", name));
  filter::ParseOptions po;
  for (const auto& [n, e] : s.memobj_types) po.memobj_names.push_back(n);
  auto r = filter::Expr::parse(a[1], po);
  if (auto* e = std::get_if<filter::ParseError>(&r))
    return command_error("mobj_define: bad index expression; not defined\n" + e->display());
  s.memobj_types.emplace_back(name, a[1]);
  return emit_report(s, "mobj_define", fmt::format("memory object type {} defined as {}\n", name, a[1]),
                     json::Value::object().set("name", name).set("expression", a[1]));
}

}  // namespace

void add_misc_commands(std::vector<Command>& t) {
  t.push_back({"mapfile", {}, 2, 3, "load-object {file|-} [gnu|gold|lld]",
               "Write a linker ordering file for a load object by the current sort",
               [](Session& s, const auto& a) {
                 auto& p = s.profile();
                 std::string name = a[0];
                 std::optional<model::ObjId> obj;
                 for (model::ObjId o : p.objects_in_load_order())
                   if (p.functions().object(o).path == name || p.functions().object(o).name == name) obj = o;
                 if (!obj) return command_error(fmt::format("mapfile: no load object named '{}' (see object_list)", name));
                 if (!p.object_expanded(*obj))
                   return command_error(fmt::format("mapfile: {} is collapsed; object_show it first", name));
                 views::MapfileFormat f = views::MapfileFormat::Gnu;
                 if (a.size() > 2) {
                   if (a[2] == "gnu" || a[2] == "ld") f = views::MapfileFormat::Gnu;
                   else if (a[2] == "gold") f = views::MapfileFormat::Gold;
                   else if (a[2] == "lld") f = views::MapfileFormat::Lld;
                   else return command_error(fmt::format("mapfile: unknown format '{}' (gnu, gold or lld)", a[2]));
                 }
                 std::string text = views::render_mapfile(p, *obj, s.sort(), f);
                 if (a[1] == "-") {
                   json::Value syms = json::Value::array();
                   for (auto g : views::mapfile_functions(p, *obj, s.sort())) syms.push(p.functions().at(g).name);
                   return emit_report(s, "mapfile", text, json::Value::object().set("functions", std::move(syms)));
                 }
                 FILE* out = std::fopen(a[1].c_str(), "w");
                 if (!out) return command_error(fmt::format("mapfile: cannot write '{}'", a[1]));
                 std::fputs(text.c_str(), out);
                 std::fclose(out);
                 return command_ok();
               }});
  t.push_back({"data_objects", {}, 0, 0, "", "List data objects with data-derived metrics",
               [](Session& s, const auto&) { return run_data_objects(s); }});
  t.push_back({"data_single", {}, 1, 2, "name [N]", "Summary panel of one data object",
               [](Session& s, const auto& a) { return run_data_single(s, a); }});
  t.push_back({"data_layout", {}, 0, 0, "", "Annotated layout of data objects",
               [](Session& s, const auto&) { return run_data_layout(s); }});
  t.push_back({"data_metrics", {}, 0, 1, "metric_spec", "Set the data-derived metrics",
               [](Session& s, const auto& a) { return data_spec(s, "data_metrics", a); }});
  t.push_back({"data_sort", {}, 0, 1, "metric_spec", "Sort data objects by a data-derived metric",
               [](Session& s, const auto& a) { return data_spec(s, "data_sort", a); }});
  t.push_back({"memobj", {}, 1, 1, "obj_type", "List memory objects of a type (see mobj_list)",
               [](Session& s, const auto& a) {
                 for (const auto& [n, e] : s.memobj_types)
                   if (n == a[0]) return run_memobj(s, n, e);
                 return command_error(fmt::format("memobj: unknown memory object type '{}' (see mobj_list)", a[0]));
               }});
  t.push_back({"mobj_list", {"obj_list"}, 0, 0, "", "List the memory object types",
               [](Session& s, const auto&) {
                 std::string text = "Memory object types:\n";
                 json::Value list = json::Value::array();
                 for (const auto& [n, e] : s.memobj_types) {
                   text += fmt::format("  {:<16} {}\n", n, e);
                   list.push(json::Value::object().set("name", n).set("expression", e));
                 }
                 return emit_report(s, "mobj_list", text, json::Value::object().set("types", std::move(list)));
               }});
  Command def{"mobj_define", {"obj_define"}, 2, 2, "obj_type index_exp", "Define a memory object type",
              [](Session& s, const auto& a) { return define_memobj(s, a); }};
  def.raw_after = 1;  // the index expression is the rest of the line
  t.push_back(std::move(def));
}

}  // namespace erkit::erprint
