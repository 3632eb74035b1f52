// Output and presentation settings (seed-spec §7.13), the defaults commands (§7.15, §7.16)
// and the metric listings (§7.12).
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "catalog.h"
#include "common/progress.h"
#include "erprint/command_groups.h"
#include "common/terminal_text.h"
#include "views/table.h"

namespace erkit::erprint {
namespace {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p - start));
    if (p == std::string::npos) break;
    start = p + 1;
  }
  return out;
}

// `word` abbreviates `keyword` if it is a prefix at least as long as the required part.
bool abbreviates(const std::string& word, const std::string& keyword, size_t required) {
  return word.size() >= required && word.size() <= keyword.size() && keyword.compare(0, word.size(), word) == 0;
}

std::string name_setting(const views::NameOptions& n) {
  return fmt::format("{}:{}", n.mangled ? "mangled" : n.short_names ? "short" : "long",
                     n.show_object ? "shared_object_name" : "no_shared_object_name");
}

CommandResult set_name(Session& s, const std::vector<std::string>& a) {
  if (a.empty()) return emit_report(s, "name", "current name format: " + name_setting(s.names) + "\n",
                                    json::Value::object().set("current", name_setting(s.names)));
  const std::string& v = a[0];
  const size_t colon = v.find(':');
  const std::string style = v.substr(0, colon);
  const std::string so = colon == std::string::npos ? "" : v.substr(colon + 1);
  if (style != "long" && style != "short" && style != "mangled")
    return command_error(fmt::format("name: unknown style '{}' (long, short or mangled)", style));
  if (!so.empty() && so != "soname" && so != "no_soname" && so != "shared_object_name" && so != "no_shared_object_name")
    return command_error(fmt::format("name: unknown qualifier '{}' (shared_object_name or no_shared_object_name)", so));
  s.names.short_names = style == "short";
  s.names.mangled = style == "mangled";
  if (!so.empty()) s.names.show_object = so == "soname" || so == "shared_object_name";
  s.apply_event_filter();  // FNAME() matches names in the current format
  return emit_report(s, "name", "current name format: " + name_setting(s.names) + "\n",
                     json::Value::object().set("current", name_setting(s.names)));
}

CommandResult open_output(Session& s, const std::string& cmd, const std::string& path, const char* mode) {
  FILE* f = path == "-" && cmd == "outfile" ? stdout : path == "--" && cmd == "outfile" ? stderr
                                                                                        : std::fopen(path.c_str(), mode);
  if (!f) return command_error(fmt::format("{}: cannot open '{}': {}", cmd, path, std::strerror(errno)));
  s.set_output(f);
  return command_ok();
}

// tabs / tlmode / tldata only configure the Analyzer GUI; er_print checks and keeps them.
struct Keyword {
  const char* name;
  size_t required;
};

CommandResult gui_setting(Session& s, const std::string& cmd, const std::vector<std::string>& a,
                          std::vector<Keyword> words, bool allow_depth) {
  if (a.empty()) {
    auto cur = s.rc.get(cmd);
    return emit_report(s, cmd, fmt::format("current {}: {}\n", cmd, cur.value_or("(not set)")),
                       json::Value::object().set("current", cur.value_or("")));
  }
  std::string spec = join_args(a);
  std::vector<std::string> canon;
  for (auto item : split(spec, ':')) {
    while (!item.empty() && item.front() == ' ') item.erase(0, 1);
    while (!item.empty() && item.back() == ' ') item.pop_back();
    std::string word = item.substr(0, item.find(' '));
    bool ok = false;
    for (const auto& k : words)
      if (abbreviates(word, k.name, k.required)) {
        ok = true;
        if (allow_depth && std::string(k.name) == "depth") {
          std::string n = item.find(' ') == std::string::npos ? "" : item.substr(item.find(' ') + 1);
          char* end = nullptr;
          long d = std::strtol(n.c_str(), &end, 10);
          if (n.empty() || *end || d < 1)
            return command_error(fmt::format("{}: 'depth' needs a positive number, not '{}'", cmd, n));
          canon.push_back(fmt::format("depth {}", d));
        } else {
          canon.push_back(k.name);
        }
        break;
      }
    if (!ok) {
      std::string valid;
      for (const auto& k : words) valid += std::string(valid.empty() ? "" : ", ") + k.name;
      return command_error(fmt::format("{}: unknown entry '{}' (valid: {})", cmd, item, valid));
    }
  }
  std::string value;
  for (const auto& c : canon) value += (value.empty() ? "" : ":") + c;
  s.rc.settings[cmd] = value;
  return emit_report(s, cmd, fmt::format("current {}: {} (used by the Analyzer GUI; er_print reports are unaffected)\n",
                                         cmd, value),
                     json::Value::object().set("current", value));
}

// The table of metric_list / cmetric_list / data_metric_list.
CommandResult metric_listing(Session& s, const std::string& cmd) {
  const bool callers = cmd == "cmetric_list", data = cmd == "data_metric_list";
  auto& ms = s.metric_state();
  const auto& current = data ? ms.data() : callers ? ms.callers_callees() : ms.functions();
  const auto& sort = data ? ms.data_sort() : callers ? ms.csort() : ms.sort();
  std::string sort_title = "Name";
  if (sort.flavor) {
    uint32_t m = model::metric_index(sort.name);
    const char* fl = sort.flavor == 'e' ? "Exclusive" : sort.flavor == 'i' ? "Inclusive" : sort.flavor == 'a' ? "Attributed" : "Data-derived";
    sort_title = fmt::format("{} {}", fl, m < model::kMetricCount ? model::metric_def(m).display : sort.name);
  }
  std::string text = fmt::format("Current metrics: {}\nCurrent Sort Metric: {} ( {} )\nAvailable metrics:\n",
                                 current.to_string(), sort_title, sort.to_string());
  json::Value avail = json::Value::array();
  std::vector<std::pair<std::string, std::string>> rows;
  if (!data) {
    for (const auto& m : s.available()) {
      std::string v = m.kind == metricspec::ValueKind::Count ? "+" : ".";
      std::vector<char> flavors = callers ? std::vector<char>{'a', 'e', 'i'} : std::vector<char>{'e', 'i'};
      const std::string& title = m.display_name;  // the one catalog's (model/metric_defs.h)
      for (char f : flavors) {
        const char* word = f == 'e' ? "Exclusive" : f == 'i' ? "Inclusive" : "Attributed";
        std::string kw = fmt::format("{}{}{} {}%{}", f, v, m.name, f, m.name);
        rows.push_back({fmt::format("{} {}", word, title), kw});
        avail.push(json::Value::object()
                       .set("flavor", std::string(1, f))
                       .set("metric", m.name)
                       .set("title", title)
                       .set("keywords", json::Value::array().push(fmt::format("{}{}{}", f, v, m.name)).push(
                                            fmt::format("{}%{}", f, m.name))));
      }
    }
  }
  for (const char* st : {"size", "address", "name"}) {
    const char* title = std::string(st) == "size" ? "Size" : std::string(st) == "address" ? "PC Address" : "Name";
    rows.push_back({title, st});
    avail.push(json::Value::object().set("flavor", "static").set("metric", st).set("title", title).set(
        "keywords", json::Value::array().push(st)));
  }
  size_t w = 0;
  for (const auto& r : rows) w = std::max(w, r.first.size());
  for (const auto& r : rows) text += fmt::format("  {:>{}}: {}\n", r.first, w, r.second);
  if (data)
    text += "(no data-derived metrics: the experiments hold no dataspace (hardware-counter backtracking) data)\n";
  return emit_report(s, cmd, text,
                     json::Value::object()
                         .set("current", current.to_string())
                         .set("sort", sort.to_string())
                         .set("available", std::move(avail)));
}

bool is_descendant(const std::string& path) {
  std::string n = std::filesystem::path(path).filename().string();
  return !n.empty() && n[0] == '_';
}

}  // namespace

std::string join_args(const std::vector<std::string>& a) {
  std::string out;
  for (const auto& w : a) out += (out.empty() ? "" : " ") + w;
  return out;
}

void add_setting_commands(std::vector<Command>& t) {
  t.push_back({"limit", {}, 0, 1, "[n]", "Print only the first n entries of each report (0 = all)",
               [](Session& s, const auto& a) {
                 if (!a.empty()) {
                   char* end = nullptr;
                   long n = std::strtol(a[0].c_str(), &end, 10);
                   if (a[0].empty() || *end || n < 0)
                     return command_error(fmt::format("limit: '{}' is not a non-negative number", a[0]));
                   s.limit = size_t(n);
                 }
                 return emit_report(s, "limit",
                                    s.limit ? fmt::format("current limit: {}\n", s.limit) : "current limit: none\n",
                                    json::Value::object().set("current", s.limit));
               }});
  t.push_back({"name", {}, 0, 1, "[long|short|mangled][:shared_object_name|:no_shared_object_name]",
               "Choose how function names are shown", [](Session& s, const auto& a) { return set_name(s, a); }});
  t.push_back({"viewmode", {}, 0, 1, "[user|expert|machine]", "Java/OpenMP presentation mode",
               [](Session& s, const auto& a) {
                 if (!a.empty()) {
                   if (a[0] != "user" && a[0] != "expert" && a[0] != "machine")
                     return command_error(fmt::format("viewmode: '{}' is not user, expert or machine", a[0]));
                   s.viewmode = a[0];
                   s.apply_viewmode();
                 }
                 // Native experiments look the same in every mode (seed-spec §7.13); OpenMP
                 // programs' stacks are transformed (docs/openmp.md).
                 return emit_report(s, "viewmode", fmt::format("current viewmode: {}\n", s.viewmode),
                                    json::Value::object().set("current", s.viewmode));
               }});
  t.push_back({"outfile", {}, 1, 1, "file|-|--", "Send further output to a file (- stdout, -- stderr)",
               [](Session& s, const auto& a) { return open_output(s, "outfile", a[0], "w"); }});
  t.push_back({"appendfile", {}, 1, 1, "file", "Append further output to a file",
               [](Session& s, const auto& a) { return open_output(s, "appendfile", a[0], "a"); }});
  t.push_back({"outformat", {}, 0, 1, "[text|json]", "Print reports as text or as JSON lines (docs/er_print.md)",
               [](Session& s, const auto& a) {
                 if (!a.empty()) {
                   if (a[0] != "text" && a[0] != "json")
                     return command_error(fmt::format("outformat: '{}' is not text or json", a[0]));
                   s.format = a[0] == "json" ? OutputFormat::Json : OutputFormat::Text;
                   if (s.format == OutputFormat::Json) common::Progress::disable();  // none in JSON mode
                   return command_ok();
                 }
                 return emit_report(s, "outformat",
                                    fmt::format("current outformat: {}\n",
                                                s.format == OutputFormat::Json ? "json" : "text"),
                                    json::Value::object().set("current",
                                                              s.format == OutputFormat::Json ? "json" : "text"));
               }});
  for (const char* cmd : {"dmetrics", "dsort"}) {
    std::string c = cmd;
    t.push_back({c, {}, 0, 1, "metric_spec", c == "dmetrics" ? "Set the default metrics (normally in .er.rc)"
                                                             : "Set the default sort (normally in .er.rc)",
                 [c](Session& s, const auto& a) {
                   if (a.empty()) {
                     const std::string& cur = c == "dmetrics" ? s.default_metrics() : s.default_sort();
                     return emit_report(s, c, fmt::format("current {}: {}\n", c, cur),
                                        json::Value::object().set("current", cur));
                   }
                   // Default lists never fail: entries the experiments cannot use are skipped.
                   if (c == "dmetrics") s.set_defaults(a[0], std::nullopt);
                   else s.set_defaults(std::nullopt, a[0]);
                   auto& ms = s.metric_state();
                   std::string text = fmt::format("{}\ncurrent sort: {}\n", ms.functions().confirmation(),
                                                  ms.sort().to_string());
                   return emit_report(s, c, text,
                                      json::Value::object()
                                          .set("metrics", ms.functions().to_string())
                                          .set("sort", ms.sort().to_string()),
                                      ms.default_warnings());
                 }});
  }
  t.push_back({"en_desc", {}, 0, 1, "[on|off]", "Select descendant experiments when the parent is loaded",
               [](Session& s, const auto& a) {
                 if (!a.empty()) {
                   if (a[0] != "on" && a[0] != "off") return command_error("en_desc: give 'on' or 'off'");
                   s.en_desc = a[0] == "on";
                   if (s.en_desc) {
                     size_t before = s.profile().experiments().size();
                     std::vector<std::string> pending;
                     for (const auto& e : s.profile().experiments()) pending.insert(pending.end(), e.descendants.begin(), e.descendants.end());
                     for (size_t i = 0; i < pending.size(); ++i) {
                       const auto& paths = s.experiment_paths();
                       if (std::find(paths.begin(), paths.end(), pending[i]) != paths.end()) continue;
                       std::string error;
                       if (!s.load(pending[i], &error)) fmt::print(stderr, "er_print: warning: {}\n", common::printable(error));
                     }
                     if (s.profile().experiments().size() != before) s.finish_loading();
                   } else {
                     // Loaded descendants stay loaded but are no longer selected.
                     std::string parents;
                     const auto& paths = s.experiment_paths();
                     for (size_t i = 0; i < paths.size(); ++i)
                       if (!is_descendant(paths[i])) parents += fmt::format("{}{}", parents.empty() ? "" : ",", i + 1);
                     if (!parents.empty() && parents.size() != paths.size())
                       s.selections().apply(selection::Target::Samples, parents + ":all");
                     s.apply_event_filter();
                   }
                 }
                 return emit_report(s, "en_desc", fmt::format("current en_desc: {}\n", s.en_desc ? "on" : "off"),
                                    json::Value::object().set("current", s.en_desc));
               }});
  t.push_back({"inline_frames", {}, 0, 1, "[on|off]",
               "Show inlined functions as their own frames (on) or fold them into their caller (off, the default)",
               [](Session& s, const auto& a) {
                 if (!a.empty()) {
                   if (a[0] != "on" && a[0] != "off") return command_error("inline_frames: give 'on' or 'off'");
                   s.profile().set_inline_frames(a[0] == "on");
                 }
                 const bool on = s.profile().inline_frames();
                 return emit_report(s, "inline_frames", fmt::format("current inline_frames: {}\n", on ? "on" : "off"),
                                    json::Value::object().set("current", on));
               }});
  t.push_back({"tabs", {}, 0, 1, "tab_spec", "Default Analyzer tabs (GUI only; checked and kept)",
               [](Session& s, const auto& a) {
                 return gui_setting(s, "tabs", a,
                                    {{"functions", 9}, {"callers-callees", 15}, {"source", 6}, {"disasm", 6},
                                     {"lines", 5}, {"pcs", 3}, {"data_objects", 12}, {"data_layout", 11},
                                     {"leaks", 5}, {"allocs", 6}, {"statistics", 10}, {"timeline", 8},
                                     {"headers", 7}, {"experiments", 11}, {"calltree", 8}, {"iotrace", 7}},
                                    false);
               }});
  t.push_back({"tlmode", {}, 0, 2, "tl_mode", "Timeline mode: lwp|thread|cpu : root|leaf : depth N (GUI only)",
               [](Session& s, const auto& a) {
                 return gui_setting(s, "tlmode", a,
                                    {{"lwp", 2}, {"thread", 1}, {"cpu", 1}, {"root", 1}, {"leaf", 2}, {"depth", 1}},
                                    true);
               }});
  t.push_back({"tldata", {}, 0, 1, "tl_data", "Timeline data kinds (GUI only)", [](Session& s, const auto& a) {
                 return gui_setting(s, "tldata", a,
                                    {{"sample", 2}, {"clock", 1}, {"hwc", 2}, {"synctrace", 2}, {"mpitrace", 2},
                                     {"heaptrace", 2}, {"iotrace", 2}},
                                    false);
               }});
  for (const char* cmd : {"metric_list", "cmetric_list", "data_metric_list"}) {
    std::string c = cmd;
    t.push_back({c, {}, 0, 0, "",
                 c == "metric_list" ? "List the metrics usable with metrics and sort"
                 : c == "cmetric_list" ? "List the metrics usable with cmetrics and csort"
                                       : "List the metrics usable with data_metrics and data_sort",
                 [c](Session& s, const auto&) { return metric_listing(s, c); }});
  }
}

}  // namespace erkit::erprint
