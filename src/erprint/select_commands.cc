// Filtering and selection (seed-spec §7.10) and load-object expansion (§7.11).
#include <fmt/format.h>
#include <fnmatch.h>

#include "erprint/command_groups.h"
#include "views/experiment_views.h"

namespace erkit::erprint {
namespace {

using selection::Target;

// "name=PATTERN" (thread_select): the threads whose name (Java threads; docs/java.md) matches
// the shell pattern, as the numeric spec "1:2,3+2:4"; empty if none.
std::string threads_named(const model::Profile& p, const std::string& pattern) {
  std::string spec;
  for (uint32_t x = 0; x < p.experiments().size(); ++x) {
    std::string nums;
    for (const auto& th : p.threads(x))
      if (!th.name.empty() && fnmatch(pattern.c_str(), th.name.c_str(), 0) == 0)
        nums += fmt::format("{}{}", nums.empty() ? "" : ",", th.number);
    if (!nums.empty()) spec += fmt::format("{}{}:{}", spec.empty() ? "" : "+", x + 1, nums);
  }
  return spec;
}

CommandResult select(Session& s, const std::string& cmd, Target t, const std::vector<std::string>& a) {
  if (!a.empty()) {
    std::string spec = join_args(a);
    if (t == Target::Threads && spec.rfind("name=", 0) == 0) {
      std::string named = threads_named(s.profile(), spec.substr(5));
      if (named.empty())
        return command_error(fmt::format("{}: no thread named '{}' (see thread_list); selection unchanged", cmd, spec.substr(5)));
      spec = named;
    }
    if (auto e = s.selections().apply(t, spec))
      return command_error(fmt::format("{}: {} (at offset {} of '{}'); selection unchanged", cmd, e->message,
                                       e->offset, spec));
    s.apply_event_filter();
  }
  auto& p = s.profile();
  if (s.format == OutputFormat::Json) return emit_report(s, cmd, "", views::selection_list_json(p, s.selections(), t));
  return emit_text(s, cmd, views::render_selection_list(p, s.selections(), t));
}

// Splits "a,b,\"c,d\"" on commas outside double quotes.
std::vector<std::string> split_names(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  bool q = false;
  for (char c : s) {
    if (c == '"') q = !q;
    else if (c == ',' && !q) out.push_back(cur), cur.clear();
    else cur += c;
  }
  out.push_back(cur);
  return out;
}

// The load objects a user named: full path, base name (every object with it), or "<name>".
std::vector<model::ObjId> find_objects(model::Profile& p, std::string name) {
  if (name.size() > 2 && name.front() == '<' && name.back() == '>') name = name.substr(1, name.size() - 2);
  const auto& ft = p.functions();
  std::vector<model::ObjId> out;
  for (model::ObjId o : p.objects_in_load_order())
    if (ft.object(o).path == name || ft.object(o).name == name) out.push_back(o);
  return out;
}

CommandResult object_list(Session& s, const std::string& cmd) {
  auto& p = s.profile();
  return emit_report(s, cmd, views::render_object_list(p), views::object_list_json(p));
}

// object_select (exact set), object_show / object_hide (names or all).
CommandResult set_objects(Session& s, const std::string& cmd, const std::vector<std::string>& a) {
  auto& p = s.profile();
  const std::string arg = join_args(a);
  auto all = p.objects_in_load_order();
  std::vector<model::ObjId> named;
  if (arg != "all") {
    for (const auto& n : split_names(arg)) {
      auto objs = find_objects(p, n);
      if (objs.empty())
        return command_error(fmt::format("{}: no load object named '{}' (see object_list); nothing changed", cmd, n));
      named.insert(named.end(), objs.begin(), objs.end());
    }
  } else {
    named = all;
  }
  auto is_named = [&](model::ObjId o) { return std::find(named.begin(), named.end(), o) != named.end(); };
  for (model::ObjId o : all) {
    if (cmd == "object_select") p.set_object_expanded(o, is_named(o));
    else if (is_named(o)) p.set_object_expanded(o, cmd == "object_show");
  }
  return object_list(s, cmd);
}

}  // namespace

void add_select_commands(std::vector<Command>& t) {
  Command filters{"filters", {}, 0, 1, "[filter_exp]", "Keep only events for which the expression is true (none: all)",
                  [](Session& s, const auto& a) {
                    if (!a.empty()) {
                      std::string err = s.set_filter(a[0]);
                      if (!err.empty()) return command_error("filters: bad expression; filter unchanged\n" + err);
                    }
                    const std::string cur = s.filter_text().empty() ? "1" : s.filter_text();
                    return emit_report(s, "filters", fmt::format("current filter: {}\n", cur),
                                       json::Value::object().set("current", cur));
                  }};
  filters.raw_after = 0;  // the rest of the line is the expression
  t.push_back(std::move(filters));
  t.push_back({"sample_select", {}, 0, 16, "[sample_spec]", "Select samples, e.g. 1:1-4+2:5,6 or all",
               [](Session& s, const auto& a) { return select(s, "sample_select", Target::Samples, a); }});
  t.push_back({"thread_select", {}, 0, 16, "[thread_spec|name=pattern]", "Select threads by number, or Java threads by name (see thread_list)",
               [](Session& s, const auto& a) { return select(s, "thread_select", Target::Threads, a); }});
  t.push_back({"lwp_select", {}, 0, 16, "[lwp_spec]", "Select LWPs by kernel thread id (see lwp_list)",
               [](Session& s, const auto& a) { return select(s, "lwp_select", Target::Lwps, a); }});
  t.push_back({"cpu_select", {}, 0, 16, "[cpu_spec]", "Select CPUs by number (see cpu_list)",
               [](Session& s, const auto& a) { return select(s, "cpu_select", Target::Cpus, a); }});
  t.push_back({"object_list", {}, 0, 0, "", "List load objects and whether their functions are shown",
               [](Session& s, const auto&) { return object_list(s, "object_list"); }});
  t.push_back({"object_select", {}, 1, 1, "obj1,obj2,...", "Show functions of exactly these load objects",
               [](Session& s, const auto& a) { return set_objects(s, "object_select", a); }});
  t.push_back({"object_show", {}, 1, 1, "name,...|all", "Show the functions of load objects",
               [](Session& s, const auto& a) { return set_objects(s, "object_show", a); }});
  t.push_back({"object_hide", {}, 1, 1, "name,...|all", "Collapse load objects into one line each",
               [](Session& s, const auto& a) { return set_objects(s, "object_hide", a); }});
}

}  // namespace erkit::erprint
