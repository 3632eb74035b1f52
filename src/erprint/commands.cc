#include "erprint/commands.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/version.h"
#include "erprint/info_commands.h"
#include "erprint/source_commands.h"
#include "erprint/trace_commands.h"

namespace erkit::erprint {
namespace {

CommandResult ok() { return {}; }
CommandResult err(std::string m) { return {false, false, std::move(m)}; }

CommandResult print(Session& s, const std::string& text) {
  fmt::print(s.out, "{}", text);
  std::fflush(s.out);
  return ok();
}

CommandResult set_metrics(Session& s, const std::string& spec, bool callers) {
  auto avail = s.available();
  auto kind = callers ? metricspec::ListKind::CallersCallees : metricspec::ListKind::Functions;
  auto r = metricspec::resolve_metrics(spec, kind, avail);
  if (auto* e = std::get_if<metricspec::SpecError>(&r))
    return err(fmt::format("{} (at offset {} of '{}'); metrics unchanged", e->message, e->offset, spec));
  auto& res = std::get<metricspec::Resolved<metricspec::MetricList>>(r);
  for (const auto& w : res.warnings) fmt::print(s.out, "Warning: {}\n", w);
  if (callers) {
    s.cmetrics = res.value;
  } else {
    s.metrics = res.value;
    s.cmetrics = metricspec::derive_callers_callees(s.metrics, avail);
  }
  fmt::print(s.out, "{}\n", (callers ? s.cmetrics : s.metrics).confirmation());
  return ok();
}

CommandResult set_sort(Session& s, const std::string& spec, bool callers) {
  auto avail = s.available();
  auto kind = callers ? metricspec::ListKind::CallersCallees : metricspec::ListKind::Functions;
  auto r = metricspec::resolve_sort(spec, kind, callers ? s.cmetrics : s.metrics, avail);
  if (auto* e = std::get_if<metricspec::SpecError>(&r))
    return err(fmt::format("{} (in '{}'); sort unchanged", e->message, spec));
  auto& res = std::get<metricspec::Resolved<metricspec::SortKey>>(r);
  (callers ? s.csort_key : s.sort_key) = res.value;
  if (!callers) s.csort_key = metricspec::derive_callers_callees_sort(s.sort_key, avail);
  fmt::print(s.out, "current sort: {}\n", res.value.to_string());
  return ok();
}

std::vector<Command> build_table() {
  std::vector<Command> t;
  t.push_back({"functions", {}, 0, 0, "", "Show the function list with the current metrics",
               [](Session& s, const auto&) {
                 return print(s, views::render_function_list(s.profile(), s.function_columns(), s.sort(), s.limit,
                                                             s.names));
               }});
  t.push_back({"callers-callees", {}, 0, 0, "", "Show callers and callees of each function in the list",
               [](Session& s, const auto&) {
                 return print(s, views::render_callers_callees(s.profile(), s.callers_callees_columns(), s.sort(),
                                                               s.csort(), s.limit, s.names));
               }});
  t.push_back({"metrics", {}, 1, 1, "metric_spec", "Set the function-list metrics",
               [](Session& s, const auto& a) { return set_metrics(s, a[0], false); }});
  t.push_back({"cmetrics", {}, 1, 1, "metric_spec", "Set the callers-callees metrics",
               [](Session& s, const auto& a) { return set_metrics(s, a[0], true); }});
  t.push_back({"sort", {}, 1, 1, "metric_spec", "Sort the function list by a metric (-metric reverses)",
               [](Session& s, const auto& a) { return set_sort(s, a[0], false); }});
  t.push_back({"csort", {}, 1, 1, "metric_spec", "Sort callers and callees by a metric",
               [](Session& s, const auto& a) { return set_sort(s, a[0], true); }});
  t.push_back({"limit", {}, 1, 1, "n", "Print only the first n entries of lists (0 = all)",
               [](Session& s, const auto& a) {
                 try {
                   size_t n = std::stoul(a[0]);
                   s.limit = n;
                   return ok();
                 } catch (...) {
                   return err(fmt::format("limit: '{}' is not a number", a[0]));
                 }
               }});
  t.push_back({"name", {}, 1, 1, "long|short|mangled[:soname|:no_soname]", "Choose how function names are shown",
               [](Session& s, const auto& a) {
                 std::string v = a[0];
                 std::string style = v.substr(0, v.find(':'));
                 std::string so = v.find(':') == std::string::npos ? "" : v.substr(v.find(':') + 1);
                 if (style != "long" && style != "short" && style != "mangled")
                   return err(fmt::format("name: unknown style '{}' (long, short or mangled)", style));
                 if (!so.empty() && so != "soname" && so != "no_soname" && so != "shared_object_name" &&
                     so != "no_shared_object_name")
                   return err(fmt::format("name: unknown qualifier '{}'", so));
                 s.names.short_names = style == "short";
                 s.names.mangled = style == "mangled";
                 s.names.show_object = so == "soname" || so == "shared_object_name";
                 return ok();
               }});
  add_info_commands(t);
  add_trace_commands(t);   // heap, sync, I/O lists
  add_source_commands(t);  // source, disasm, lines, pcs
  t.push_back({"version", {}, 0, 0, "", "Print the version",
               [](Session& s, const auto&) { return print(s, fmt::format("er_print: erkit {}\n", ERKIT_VERSION)); }});
  t.push_back({"quit", {"exit"}, 0, 0, "", "Leave er_print", [](Session&, const auto&) {
                 CommandResult r;
                 r.quit = true;
                 return r;
               }});
  t.push_back({"help", {}, 0, 0, "", "List the commands", [](Session& s, const auto&) {
                 std::string out;
                 for (const auto& c : command_table())
                   out += fmt::format("  {:<18} {:<26} {}\n", c.name, c.args_help, c.help);
                 return print(s, out);
               }});
  return t;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    prev.swap(cur);
  }
  return prev[b.size()];
}

}  // namespace

const std::vector<Command>& command_table() {
  static const std::vector<Command> t = build_table();
  return t;
}

const Command* find_command(const std::string& name, std::string* error) {
  const auto& t = command_table();
  for (const auto& c : t) {
    if (c.name == name) return &c;
    for (const auto& a : c.aliases)
      if (a == name) return &c;
  }
  std::vector<const Command*> matches;
  for (const auto& c : t)
    if (c.name.rfind(name, 0) == 0) matches.push_back(&c);
  if (matches.size() == 1) return matches[0];
  if (matches.size() > 1) {
    std::string names;
    for (auto* m : matches) names += " " + m->name;
    *error = fmt::format("ambiguous command '{}':{}", name, names);
    return nullptr;
  }
  const Command* best = nullptr;
  size_t best_d = 4;
  for (const auto& c : t) {
    size_t d = edit_distance(name, c.name);
    if (d < best_d) {
      best_d = d;
      best = &c;
    }
  }
  *error = best ? fmt::format("unknown command '{}'; did you mean '{}'?", name, best->name)
                : fmt::format("unknown command '{}' (try 'help')", name);
  return nullptr;
}

std::vector<std::string> split_command_line(const std::string& line, std::string* error) {
  std::vector<std::string> words;
  std::string cur;
  bool in_word = false, quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"') quoted = false;
      else cur += c;
      continue;
    }
    if (c == '"') {
      quoted = in_word = true;
    } else if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(cur);
      cur.clear();
      in_word = false;
    } else if (c == '#' && !in_word) {
      break;  // comment
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (quoted) *error = "unterminated double quote";
  if (in_word) words.push_back(cur);
  return words;
}

CommandResult run_command_line(Session& s, const std::string& line) {
  std::string error;
  auto words = split_command_line(line, &error);
  if (!error.empty()) return err(error);
  if (words.empty()) return ok();
  const Command* c = find_command(words[0], &error);
  if (!c) return err(error);
  std::vector<std::string> args(words.begin() + 1, words.end());
  if (int(args.size()) < c->min_args || int(args.size()) > c->max_args)
    return err(fmt::format("{}: expects {} ({})", c->name,
                           c->max_args == 0 ? "no arguments" : c->args_help, c->help));
  return c->run(s, args);
}

}  // namespace erkit::erprint
