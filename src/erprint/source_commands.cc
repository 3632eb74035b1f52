// er_print's source views (seed-spec §7.6): source, disasm, lines, lsummary, pcs, psummary,
// and their settings scc, sthresh, dcc, dthresh, setpath, addpath, pathmap.
#include "erprint/source_commands.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "erprint/commands.h"
#include "erprint/function_lookup.h"
#include "views/disasm_view.h"
#include "views/line_views.h"
#include "views/source_view.h"

namespace erkit::erprint {
namespace {

// Settings and object caches of the source views, one per session. Kept here rather than
// in Session so the views' state stays with the commands that use it.
struct SourceState {
  views::SourceOptions opts;
  views::CodeIndexCache code;
  bool dthresh_default = true;
};

SourceState& state(Session& s) {
  static std::map<const Session*, SourceState> states;
  auto [it, fresh] = states.try_emplace(&s);
  if (fresh) it->second.opts.dthresh = 50;
  auto& exps = it->second.opts.paths.experiments;
  exps.clear();
  for (const auto& e : s.profile().experiments()) exps.push_back(e.path);
  return it->second;
}

CommandResult ok() { return {}; }
CommandResult err(std::string m) { return {false, false, std::move(m)}; }
CommandResult print(Session& s, const std::string& text) {
  fmt::print(s.out, "{}", text);
  std::fflush(s.out);
  return ok();
}

// "function'file'" (also with the backslashes the shell leaves when quoting was escaped).
void split_context(const std::string& arg, std::string* name, std::string* file) {
  std::string a;
  for (size_t i = 0; i < arg.size(); ++i)
    if (!(arg[i] == '\\' && i + 1 < arg.size() && arg[i + 1] == '\'')) a += arg[i];
  size_t q = a.find('\'');
  if (q != std::string::npos && q > 0 && a.size() > q + 1 && a.back() == '\'') {
    *name = a.substr(0, q);
    *file = a.substr(q + 1, a.size() - q - 2);
  } else {
    *name = a;
    file->clear();
  }
}

struct Target {
  views::ObjectCodeIndex* obj = nullptr;
  model::FuncId func = 0;  // 0: a file was named
  std::string file;        // source file to list ("" for a function: its default context)
  std::string context;     // function'file': the named context
};

std::string base_name(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

// Resolves the argument of source/disasm to a function or a file, asking for N when the
// name is ambiguous.
bool resolve_target(Session& s, const std::vector<std::string>& a, Target* t, std::string* error) {
  std::string name, context;
  split_context(a[0], &name, &context);
  int n = 0;
  if (a.size() > 1) {
    try {
      n = std::stoi(a[1]);
    } catch (...) {
      *error = fmt::format("'{}' is not a number N", a[1]);
      return false;
    }
  }
  SourceState& st = state(s);
  const auto& ft = s.profile().functions();
  std::vector<model::FuncId> funcs;  // in the order N counts them
  for (model::FuncId f : find_functions(s, name)) {
    const auto& e = ft.at(f);
    if (!e.pseudo && e.object != model::kNoObject) funcs.push_back(f);
  }
  auto choose = [&](size_t count, const std::function<std::string(size_t)>& label) -> int {
    if (count == 1) return 0;
    if (n >= 1 && size_t(n) <= count) return n - 1;
    std::string list;
    for (size_t i = 0; i < count; ++i) list += fmt::format("  {}) {}\n", i + 1, label(i));
    *error = fmt::format("'{}' is ambiguous; give N to choose one:\n{}", name, list);
    if (!list.empty()) error->pop_back();
    return -1;
  };
  if (!funcs.empty()) {
    int k = choose(funcs.size(), [&](size_t i) {
      const auto& e = ft.at(funcs[i]);
      return fmt::format("{} ({}{}{})", e.name, ft.object(e.object).name, e.source_file.empty() ? "" : ", ",
                         base_name(e.source_file));
    });
    if (k < 0) return false;
    const auto& e = ft.at(funcs[size_t(k)]);
    const auto& lo = ft.object(e.object);
    t->obj = st.code.get(lo.code_file(), lo.build_id, error);
    if (!t->obj) return false;
    t->func = funcs[size_t(k)];
    t->context = context;
    return true;
  }
  // A file: the objects with code from it.
  std::vector<views::ObjectCodeIndex*> objs;
  std::set<model::ObjId> seen;
  for (model::FuncId f = 0; f < ft.size(); ++f) {
    model::ObjId o = ft.at(f).object;
    if (o == model::kNoObject || !seen.insert(o).second) continue;
    std::string e;
    auto* ix = st.code.get(ft.object(o).code_file(), ft.object(o).build_id, &e);
    if (ix && !ix->lines().files_matching(name).empty()) objs.push_back(ix);
  }
  if (objs.empty()) {
    *error = fmt::format("no function or source file named '{}' in the loaded experiments", name);
    return false;
  }
  int k = choose(objs.size(), [&](size_t i) { return fmt::format("{} in {}", name, objs[i]->path()); });
  if (k < 0) return false;
  t->obj = objs[size_t(k)];
  t->file = name;
  return true;
}

// The out-of-line copy of a function in its object, if any.
const symbols::FunctionInfo* function_info(views::ObjectCodeIndex& obj, const model::FunctionEntry& e) {
  if (e.size == 0 && e.addr == 0) return nullptr;
  return obj.syms().function_at(e.addr);
}

// A file holding an inlined-only function's code: the file of its lines in the profile.
std::string inline_function_file(Session& s, model::FuncId f) {
  const auto& r = s.profile().resolver();
  for (const auto& a : s.profile().aggregates())
    for (const auto& fr : a.stack->frames)
      if (fr.func == f && fr.line) return r.files()[r.lines()[fr.line].file];
  return "";
}

CommandResult run_source(Session& s, const std::vector<std::string>& a) {
  Target t;
  std::string error;
  if (!resolve_target(s, a, &t, &error)) return err("source: " + error);
  SourceState& st = state(s);
  std::function<bool(model::FuncId)> keep;
  std::string file = t.file;
  if (t.func) {
    const auto& e = s.profile().functions().at(t.func);
    if (!t.context.empty()) {
      file = t.context;
      keep = [f = t.func](model::FuncId g) { return g == f; };
    } else if (const auto* fi = function_info(*t.obj, e)) {
      file = t.obj->function(*fi).default_file;
    }
    if (file.empty()) file = inline_function_file(s, t.func);
    if (file.empty()) return err(fmt::format("source: {} has no line information (compile with -g)", e.name));
  }
  views::AnnotationMetrics m = views::build_annotation_metrics(s.profile(), s.function_columns(), keep);
  std::string out;
  if (!views::render_source(*t.obj, file, m, st.opts, &out, &error)) return err("source: " + error);
  return print(s, out);
}

CommandResult run_disasm(Session& s, const std::vector<std::string>& a) {
  Target t;
  std::string error;
  if (!resolve_target(s, a, &t, &error)) return err("disasm: " + error);
  SourceState& st = state(s);
  std::vector<symbols::FunctionInfo> fns;
  if (t.func) {
    const auto& e = s.profile().functions().at(t.func);
    if (const auto* fi = function_info(*t.obj, e)) {
      fns = t.obj->module_functions(fi->addr);
    } else if (auto region = e.addr ? t.obj->unnamed_region(e.addr, e.name) : std::nullopt) {
      fns.push_back(*region);  // <static>@0x... of a stripped object: the code up to the next symbol
    } else {
      return err(fmt::format("disasm: {} has no code of its own (inlined everywhere); list its callers", e.name));
    }
  } else {
    std::vector<uint32_t> files = t.obj->lines().files_matching(t.file);
    for (const auto& f : t.obj->functions_for_file(files)) {
      const auto* cu = t.obj->lines().cu_at(f.addr);
      if (cu && disasm::path_matches(cu->name, t.file)) fns.push_back(f);
    }
    if (fns.empty()) return err(fmt::format("disasm: no function of {} was compiled from {}", t.obj->path(), t.file));
  }
  views::AnnotationMetrics m = views::build_annotation_metrics(s.profile(), s.function_columns());
  return print(s, views::render_disasm(*t.obj, fns, m, st.opts));
}

// Load objects collapsed by object_select/object_hide: one aggregate row each in lines and pcs.
views::LineViewOptions line_options(Session& s) {
  views::LineViewOptions o;
  const auto& ft = s.profile().functions();
  for (model::ObjId obj = 1; obj < ft.object_count(); ++obj)
    if (!s.profile().object_expanded(obj)) o.collapsed.insert(obj);
  return o;
}

using LineRenderer = std::string (*)(model::Profile&, const std::vector<views::ViewColumn>&, const views::SortSpec&,
                                    size_t, const views::NameOptions&, const views::LineViewOptions&);
CommandResult run_line_view(Session& s, LineRenderer render) {
  return print(s, render(s.profile(), s.function_columns(), s.sort(), s.limit, s.names, line_options(s)));
}

CommandResult set_threshold(Session& s, const std::string& v, bool disasm) {
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end || d < 0 || d > 100)
    return err(fmt::format("{}: '{}' is not a percentage (0-100)", disasm ? "dthresh" : "sthresh", v));
  (disasm ? state(s).opts.dthresh : state(s).opts.sthresh) = d;
  return ok();
}

CommandResult set_com_spec(Session& s, const std::vector<std::string>& a, bool disasm) {
  auto& spec = disasm ? state(s).opts.dcc : state(s).opts.scc;
  std::string error;
  if (!commentary::parse_com_spec(a.empty() ? "" : a[0], disasm, &spec, &error))
    return err(fmt::format("{}: {}", disasm ? "dcc" : "scc", error));
  return ok();
}

}  // namespace

void add_source_commands(std::vector<Command>& t) {
  t.push_back({"source", {"src"}, 1, 2, "{file|function} [N]", "Annotated source of a file or of a function's file",
               run_source});
  t.push_back({"disasm", {}, 1, 2, "{file|function} [N]", "Annotated disassembly of a function's module or a file",
               run_disasm});
  t.push_back({"lines", {}, 0, 0, "", "Source lines with metrics, sorted by the sort metric",
               [](Session& s, const auto&) { return run_line_view(s, views::render_lines); }});
  t.push_back({"lsummary", {}, 0, 0, "", "Summary panel of each source line",
               [](Session& s, const auto&) { return run_line_view(s, views::render_line_summaries); }});
  t.push_back({"pcs", {}, 0, 0, "", "PCs with metrics, sorted by the sort metric",
               [](Session& s, const auto&) { return run_line_view(s, views::render_pcs); }});
  t.push_back({"psummary", {}, 0, 0, "", "Summary panel of each PC",
               [](Session& s, const auto&) { return run_line_view(s, views::render_pc_summaries); }});
  t.push_back({"scc", {}, 0, 1, "com_spec", "Commentary classes in annotated source (basic, inline, loop, ..., all, none)",
               [](Session& s, const auto& a) { return set_com_spec(s, a, false); }});
  t.push_back({"dcc", {}, 0, 1, "com_spec", "Commentary classes and hex/src/asrc in annotated disassembly",
               [](Session& s, const auto& a) { return set_com_spec(s, a, true); }});
  t.push_back({"sthresh", {}, 1, 1, "percent", "Highlight (##) source lines at this % of the maximum",
               [](Session& s, const auto& a) { return set_threshold(s, a[0], false); }});
  t.push_back({"dthresh", {}, 1, 1, "percent", "Highlight (##) instructions at this % of the maximum",
               [](Session& s, const auto& a) { return set_threshold(s, a[0], true); }});
  t.push_back({"setpath", {}, 0, 1, "path_list", "Search path for sources ($expts = the experiments); no argument: print it",
               [](Session& s, const auto& a) {
                 auto& p = state(s).opts.paths;
                 if (a.empty()) return print(s, fmt::format("search path: {}\n", p.search_string()));
                 p.search = views::SourcePaths::split_path_list(a[0]);
                 return ok();
               }});
  t.push_back({"addpath", {}, 1, 1, "path_list", "Append directories to the source search path",
               [](Session& s, const auto& a) {
                 auto& p = state(s).opts.paths;
                 for (auto& d : views::SourcePaths::split_path_list(a[0])) p.search.push_back(d);
                 return ok();
               }});
  t.push_back({"pathmap", {}, 0, 2, "old-prefix new-prefix", "Find sources recorded under old-prefix in new-prefix",
               [](Session& s, const auto& a) {
                 auto& p = state(s).opts.paths;
                 if (a.empty()) {
                   std::string out;
                   for (const auto& [f, to] : p.pathmaps) out += fmt::format("pathmap {} {}\n", f, to);
                   return print(s, out.empty() ? "no path maps\n" : out);
                 }
                 if (a.size() != 2) return err("pathmap: expects old-prefix new-prefix");
                 p.pathmaps.emplace_back(a[0], a[1]);
                 return ok();
               }});
}

}  // namespace erkit::erprint
