// er_print's source views (seed-spec §7.6): source, disasm, lines, lsummary, pcs, psummary,
// and their settings scc, sthresh, dcc, dthresh, setpath, addpath, pathmap.
#include "erprint/source_commands.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>

#include "erprint/command_groups.h"
#include "erprint/function_lookup.h"
#include "erprint/recorded_code.h"
#include "erprint/source_settings.h"
#include "views/disasm_view.h"
#include "views/java_disasm.h"
#include "views/java_source.h"
#include "views/line_views.h"
#include "views/source_view.h"

namespace erkit::erprint {
namespace {

// The session's source settings, with $expts standing for the experiments loaded now.
SourceSettings& state(Session& s) {
  SourceSettings& st = s.source_settings();
  auto& exps = st.opts.paths.experiments;
  exps.clear();
  for (const auto& e : s.profile().experiments()) exps.push_back(e.path);
  return st;
}

CommandResult ok() { return command_ok(); }
CommandResult err(std::string m) { return command_error(std::move(m)); }

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
  SourceSettings& st = state(s);
  const auto& ft = s.profile().functions();
  std::vector<model::FuncId> funcs;  // in the order N counts them
  for (model::FuncId f : find_functions(s, name)) {
    const auto& e = ft.at(f);
    // Java methods as Java frames have no machine code (their bytecodes: run_java_disasm).
    if (e.pseudo || e.object == model::kNoObject) continue;
    const std::string& obj = ft.object(e.object).name;
    if (obj != "<JAVA_CLASSES>" && obj != "<JAVA_COMPILED_METHODS>") funcs.push_back(f);
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

// A Java method (user and expert modes; docs/java.md): its .java file, line metrics of Java frames.
std::optional<CommandResult> run_java_source(Session& s, const std::vector<std::string>& a) {
  const auto& ft = s.profile().functions();
  for (model::FuncId f : find_functions(s, a[0])) {
    const auto& e = ft.at(f);
    if (e.object == model::kNoObject || ft.object(e.object).name != "<JAVA_CLASSES>" || e.source_file.empty())
      continue;
    views::AnnotationMetrics m = views::build_annotation_metrics(s.profile(), s.function_columns());
    std::string out, error;
    json::Value data;
    if (!views::render_java_source(e.source_file, e.name, m, state(s).opts, &out, &error,
                                   s.format == OutputFormat::Json ? &data : nullptr))
      return err("source: " + error);
    return emit_report(s, "source", out, std::move(data));
  }
  return std::nullopt;
}

CommandResult run_source(Session& s, const std::vector<std::string>& a) {
  if (auto java = run_java_source(s, a)) return *java;
  Target t;
  std::string error;
  if (!resolve_target(s, a, &t, &error)) return err("source: " + error);
  SourceSettings& st = state(s);
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
  json::Value data;
  if (!views::render_source(*t.obj, file, m, st.opts, &out, &error, s.format == OutputFormat::Json ? &data : nullptr))
    return err("source: " + error);
  return emit_report(s, "source", out, std::move(data));
}

// A Java method in user and expert modes (docs/java.md): its bytecodes with per-bytecode metrics.
// Machine mode: the compiled instances' generated code instead.
std::optional<CommandResult> run_java_disasm(Session& s, const std::vector<std::string>& a) {
  const auto& ft = s.profile().functions();
  for (model::FuncId f : find_functions(s, a[0])) {
    const auto& e = ft.at(f);
    if (e.object == model::kNoObject || ft.object(e.object).name != "<JAVA_CLASSES>") continue;
    if (s.profile().view_mode() == model::ViewMode::kMachine) {
      std::vector<views::CompiledInstance> instances;
      std::string arch;
      for (const auto& x : s.profile().experiments())
        for (const auto& df : x.dynamic_functions)
          if (df.name == e.name) instances.push_back({df.vaddr, df.size, &df.code, &df.lines}), arch = x.log.arch;
      views::AnnotationMetrics metrics = views::build_annotation_metrics(s.profile(), s.function_columns());
      std::string out, error;
      json::Value data;
      if (!views::render_compiled_disasm(e.name, instances, arch, metrics, state(s).opts, &out, &error,
                                         s.format == OutputFormat::Json ? &data : nullptr))
        return err("disasm: " + error);
      return emit_report(s, "disasm", out, std::move(data));
    }
    for (const auto& x : s.profile().experiments()) {
      model::JavaInfo info = model::load_java_info(x.path);
      const model::JavaMethod* m = model::find_java_method_code(info, e.name);
      if (!m) continue;
      views::AnnotationMetrics metrics = views::build_annotation_metrics(s.profile(), s.function_columns());
      json::Value data;
      std::string out = views::render_java_disasm(*m, e.addr, metrics, state(s).opts,
                                                  s.format == OutputFormat::Json ? &data : nullptr);
      return emit_report(s, "disasm", out, std::move(data));
    }
    return err(fmt::format("disasm: no bytecodes of {} were recorded (a native or abstract method, or an "
                           "experiment of an older agent)", e.name));
  }
  return std::nullopt;
}

CommandResult run_disasm(Session& s, const std::vector<std::string>& a) {
  if (auto java = run_java_disasm(s, a)) return *java;
  if (auto recorded = run_recorded_disasm(s, a)) return *recorded;  // code without a file
  Target t;
  std::string error;
  if (!resolve_target(s, a, &t, &error)) return err("disasm: " + error);
  SourceSettings& st = state(s);
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
  json::Value data;
  std::string out = views::render_disasm(*t.obj, fns, m, st.opts, s.format == OutputFormat::Json ? &data : nullptr);
  return emit_report(s, "disasm", out, std::move(data));
}

// lines, lsummary, pcs, psummary; collapsed load objects (object_select) are one row each.
CommandResult line_report(Session& s, const char* cmd, bool pcs, bool summaries) {
  auto& p = s.profile();
  const auto cols = s.function_columns();
  const auto o = views::line_view_options(p);
  if (s.format == OutputFormat::Json) {
    json::Value data = summaries ? (pcs ? views::pc_summaries_json(p, cols, s.sort(), s.limit, s.names, o)
                                        : views::line_summaries_json(p, cols, s.sort(), s.limit, s.names, o))
                                 : (pcs ? views::pcs_json(p, cols, s.sort(), s.limit, s.names, o)
                                        : views::lines_json(p, cols, s.sort(), s.limit, s.names, o));
    return emit_report(s, cmd, "", std::move(data));
  }
  std::string text = summaries ? (pcs ? views::render_pc_summaries(p, cols, s.sort(), s.limit, s.names, o)
                                      : views::render_line_summaries(p, cols, s.sort(), s.limit, s.names, o))
                               : (pcs ? views::render_pcs(p, cols, s.sort(), s.limit, s.names, o)
                                      : views::render_lines(p, cols, s.sort(), s.limit, s.names, o));
  return emit_text(s, cmd, std::move(text));
}

CommandResult set_threshold(Session& s, const std::vector<std::string>& a, bool disasm) {
  const char* cmd = disasm ? "dthresh" : "sthresh";
  double& t = disasm ? state(s).opts.dthresh : state(s).opts.sthresh;
  if (a.empty())
    return emit_report(s, cmd, fmt::format("current {}: {}\n", cmd, threshold_string(t)),
                       json::Value::object().set("current", t));
  if (!parse_threshold(a[0], &t)) return err(fmt::format("{}: '{}' is not a percentage (0-100)", cmd, a[0]));
  return ok();
}

// scc / dcc: no argument prints the setting; "" is the empty list (no commentary).
CommandResult set_com_spec(Session& s, const std::vector<std::string>& a, bool disasm) {
  const char* cmd = disasm ? "dcc" : "scc";
  auto& spec = disasm ? state(s).opts.dcc : state(s).opts.scc;
  if (a.empty()) {
    const std::string cur = commentary::to_string(spec, disasm);
    json::Value v = json::Value::object().set("current", cur).set("classes", commentary::classes_to_string(spec.classes));
    if (disasm) v.set("hex", spec.hex).set("src", spec.src).set("asrc", spec.asrc);
    return emit_report(s, cmd, fmt::format("current {}: {}\n", cmd, cur), std::move(v));
  }
  std::string error;
  if (!commentary::parse_com_spec(a[0], disasm, &spec, &error)) return err(fmt::format("{}: {}", cmd, error));
  return ok();
}

CommandResult show_path(Session& s) {
  const auto& p = state(s).opts.paths;
  json::Value dirs = json::Value::array();
  for (const auto& d : p.search) dirs.push(d);
  return emit_report(s, "setpath", fmt::format("search path: {}\n", p.search_string()),
                     json::Value::object().set("current", p.search_string()).set("paths", std::move(dirs)));
}

CommandResult show_pathmaps(Session& s) {
  std::string out;
  json::Value maps = json::Value::array();
  for (const auto& [from, to] : state(s).opts.paths.pathmaps) {
    out += fmt::format("pathmap {} {}\n", from, to);
    maps.push(json::Value::object().set("from", from).set("to", to));
  }
  return emit_report(s, "pathmap", out.empty() ? "no path maps\n" : out,
                     json::Value::object().set("pathmaps", std::move(maps)));
}

}  // namespace

void add_source_commands(std::vector<Command>& t) {
  t.push_back({"source", {"src"}, 1, 2, "{file|function} [N]", "Annotated source of a file or of a function's file",
               run_source});
  t.push_back({"disasm", {}, 1, 2, "{file|function} [N]", "Annotated disassembly of a function's module or a file",
               run_disasm});
  t.push_back({"lines", {}, 0, 0, "", "Source lines with metrics, sorted by the sort metric",
               [](Session& s, const auto&) { return line_report(s, "lines", false, false); }});
  t.push_back({"lsummary", {}, 0, 0, "", "Summary panel of each source line",
               [](Session& s, const auto&) { return line_report(s, "lsummary", false, true); }});
  t.push_back({"pcs", {}, 0, 0, "", "PCs with metrics, sorted by the sort metric",
               [](Session& s, const auto&) { return line_report(s, "pcs", true, false); }});
  t.push_back({"psummary", {}, 0, 0, "", "Summary panel of each PC",
               [](Session& s, const auto&) { return line_report(s, "psummary", true, true); }});
  t.push_back({"scc", {}, 0, 1, "[com_spec]",
               "Commentary classes in annotated source (basic, inline, loop, ..., all, none); no argument: print",
               [](Session& s, const auto& a) { return set_com_spec(s, a, false); }});
  t.push_back({"dcc", {}, 0, 1, "[com_spec]", "Commentary classes and hex/src/asrc in annotated disassembly; no argument: print",
               [](Session& s, const auto& a) { return set_com_spec(s, a, true); }});
  t.push_back({"sthresh", {}, 0, 1, "[percent]", "Highlight (##) source lines at this % of the maximum; no argument: print",
               [](Session& s, const auto& a) { return set_threshold(s, a, false); }});
  t.push_back({"dthresh", {}, 0, 1, "[percent]", "Highlight (##) instructions at this % of the maximum; no argument: print",
               [](Session& s, const auto& a) { return set_threshold(s, a, true); }});
  t.push_back({"setpath", {}, 0, 1, "[path_list]",
               "Search path for sources ($expts = the experiments); no argument: print it",
               [](Session& s, const auto& a) {
                 if (a.empty()) return show_path(s);
                 state(s).opts.paths.search = views::SourcePaths::split_path_list(a[0]);
                 return ok();
               }});
  t.push_back({"addpath", {}, 1, 1, "path_list", "Append directories to the source search path",
               [](Session& s, const auto& a) {
                 auto& p = state(s).opts.paths;
                 for (auto& d : views::SourcePaths::split_path_list(a[0])) p.search.push_back(d);
                 return ok();
               }});
  t.push_back({"pathmap", {}, 0, 2, "[old-prefix new-prefix]",
               "Find sources recorded under old-prefix in new-prefix; no argument: list the maps",
               [](Session& s, const auto& a) {
                 if (a.empty()) return show_pathmaps(s);
                 if (a.size() != 2) return err("pathmap: expects old-prefix new-prefix");
                 state(s).opts.paths.pathmaps.emplace_back(a[0], a[1]);
                 return ok();
               }});
}

}  // namespace erkit::erprint
