#include "erprint/commands.h"

#include <fmt/format.h>
#include <stdio.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "common/version.h"
#include "erprint/command_groups.h"
#include "erprint/info_commands.h"
#include "erprint/source_commands.h"
#include "common/terminal_text.h"
#include "erprint/trace_commands.h"

namespace erkit::erprint {
namespace {

std::vector<Command> build_table() {
  std::vector<Command> t;
  add_function_commands(t);
  add_trace_commands(t);   // heap, sync, I/O lists
  add_source_commands(t);  // source, disasm, lines, pcs
  add_info_commands(t);
  add_select_commands(t);
  add_setting_commands(t);
  add_misc_commands(t);
  add_compare_commands(t);
  add_gprof_commands(t);
  t.push_back({"script", {}, 1, 1, "file", "Run the commands of a file",
               [](Session& s, const auto& a) {
                 std::string error;
                 if (!run_script_file(s, a[0], &error)) return command_error(error);
                 return command_ok();
               }});
  t.push_back({"version", {}, 0, 0, "", "Print the version", [](Session& s, const auto&) {
                 return emit_report(s, "version", fmt::format("er_print: erkit {}\n", ERKIT_VERSION),
                                    json::Value::object().set("version", ERKIT_VERSION));
               }});
  t.push_back({"quit", {"exit"}, 0, 0, "", "End the current script, or leave er_print", [](Session&, const auto&) {
                 CommandResult r;
                 r.quit = true;
                 return r;
               }});
  t.push_back({"help", {}, 0, 0, "", "List the commands", [](Session& s, const auto&) {
                 std::string out = "er_print commands (any unambiguous prefix works):\n";
                 json::Value list = json::Value::array();
                 for (const auto& c : command_table()) {
                   std::string name = c.name;
                   for (const auto& a : c.aliases) name += "|" + a;
                   out += fmt::format("  {:<22} {:<30} {}\n", name, c.args_help, c.help);
                   list.push(json::Value::object().set("name", c.name).set("args", c.args_help).set("help", c.help));
                 }
                 return emit_report(s, "help", out, json::Value::object().set("commands", std::move(list)));
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

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// The rest of a line as one argument: up to a comment, without enclosing quotes.
std::string raw_rest(const std::string& rest_in) {
  std::string rest;
  bool q = false;
  for (size_t i = 0; i < rest_in.size(); ++i) {
    char c = rest_in[i];
    if (c == '\\' && q && i + 1 < rest_in.size()) {
      rest += c;
      rest += rest_in[++i];
      continue;
    }
    if (c == '"') q = !q;
    if (c == '#' && !q && (i == 0 || rest_in[i - 1] == ' ' || rest_in[i - 1] == '\t')) break;
    rest += c;
  }
  rest = trim(rest);
  if (rest.size() >= 2 && rest.front() == '"' && rest.back() == '"') {
    // Wholly quoted only if the first quote closes at the very end.
    std::string inner;
    size_t i = 1;
    for (; i + 1 < rest.size(); ++i) {
      if (rest[i] == '\\' && i + 2 < rest.size() && rest[i + 1] == '"') {
        inner += '"';
        ++i;
      } else if (rest[i] == '"') {
        break;
      } else {
        inner += rest[i];
      }
    }
    if (i + 1 == rest.size()) return inner;
  }
  return rest;
}

}  // namespace

const std::vector<Command>& command_table() {
  static const std::vector<Command> t = build_table();
  return t;
}

std::vector<std::string> command_names() {
  std::vector<std::string> out;
  for (const auto& c : command_table()) {
    out.push_back(c.name);
    for (const auto& a : c.aliases) out.push_back(a);
  }
  std::sort(out.begin(), out.end());
  return out;
}

const Command* find_command(const std::string& name, std::string* error) {
  const auto& t = command_table();
  for (const auto& c : t) {
    if (c.name == name) return &c;
    for (const auto& a : c.aliases)
      if (a == name) return &c;
  }
  std::vector<const Command*> matches;
  std::vector<std::string> names;
  for (const auto& c : t) {
    bool m = c.name.rfind(name, 0) == 0;
    for (const auto& a : c.aliases) m |= a.rfind(name, 0) == 0;
    if (m && std::find(matches.begin(), matches.end(), &c) == matches.end()) matches.push_back(&c), names.push_back(c.name);
  }
  if (!name.empty() && matches.size() == 1) return matches[0];
  if (!name.empty() && matches.size() > 1) {
    std::string list;
    for (const auto& n : names) list += " " + n;
    *error = fmt::format("ambiguous command '{}':{}", name, list);
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

std::vector<Word> split_words(const std::string& line, std::string* error) {
  std::vector<Word> words;
  Word cur;
  bool in_word = false, quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '\\' && i + 1 < line.size() && line[i + 1] == '"') cur.text += line[++i];
      else if (c == '"') quoted = false;
      else cur.text += c;
      continue;
    }
    if (c == '"') {
      if (!in_word) cur.begin = i;
      quoted = in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) cur.end = i, words.push_back(cur);
      cur = Word{};
      in_word = false;
    } else if (c == '#' && !in_word) {
      break;  // comment
    } else {
      if (!in_word) cur.begin = i;
      cur.text += c;
      in_word = true;
    }
  }
  if (quoted) *error = "unterminated double quote";
  if (in_word) cur.end = line.size(), words.push_back(cur);
  return words;
}

std::vector<std::string> split_command_line(const std::string& line, std::string* error) {
  std::vector<std::string> out;
  for (auto& w : split_words(line, error)) out.push_back(std::move(w.text));
  return out;
}

CommandResult run_command_line(Session& s, const std::string& line) {
  std::string error;
  auto words = split_words(line, &error);
  if (words.empty() && error.empty()) return command_ok();
  if (words.empty()) return command_error(error);
  const Command* c = find_command(words[0].text, &error);
  std::vector<std::string> args;
  if (!c) {
    // A memory-object type name is a command of its own (seed-spec §7.8).
    for (const auto& [n, e] : s.memobj_types)
      if (n == words[0].text) {
        std::string ignored;
        c = find_command("memobj", &ignored);
        args.push_back(n);
      }
    if (!c) return command_error(error);
  } else if (c->raw_after >= 0) {
    error.clear();
    const size_t ordinary = size_t(c->raw_after) + 1;
    for (size_t i = 1; i < ordinary && i < words.size(); ++i) args.push_back(words[i].text);
    if (words.size() > ordinary) {
      std::string rest = raw_rest(line.substr(words[ordinary].begin));
      if (!rest.empty()) args.push_back(rest);
    }
  } else {
    if (!error.empty()) return command_error(error);
    for (size_t i = 1; i < words.size(); ++i) args.push_back(words[i].text);
  }
  if (int(args.size()) < c->min_args || int(args.size()) > c->max_args)
    return command_error(fmt::format("{}: expects {} ({})", c->name, c->max_args == 0 ? "no arguments" : c->args_help,
                                     c->help));
  s.stats.commands++;
  if (s.format != OutputFormat::Json) return c->run(s, args);
  // JSON: text a command prints directly is captured and wrapped into a report object.
  char* buf = nullptr;
  size_t len = 0;
  FILE* mem = open_memstream(&buf, &len);
  if (!mem) return c->run(s, args);
  s.out = mem;
  CommandResult r = c->run(s, args);
  std::fclose(mem);
  s.out = s.sink();
  std::string text(buf, len);
  std::free(buf);
  if (!text.empty()) {
    OutputFormat keep = s.format;
    s.format = OutputFormat::Json;
    s.emit(Report{c->name, text, {}, {}});
    s.format = keep;
  }
  return r;
}

CommandResult execute(Session& s, const std::string& line) {
  CommandResult r = run_command_line(s, line);
  if (!r.ok) {
    fmt::print(stderr, "er_print: {}\n", common::printable(r.error));
    if (s.format == OutputFormat::Json) {
      std::string error;
      auto words = split_command_line(line, &error);
      json::Value v = json::Value::object()
                          .set("schema", "erkit.er_print")
                          .set("version", kJsonSchemaVersion)
                          .set("command", words.empty() ? "" : words[0])
                          .set("error", r.error);
      fmt::print(s.sink(), "{}\n", v.dump());
      std::fflush(s.sink());
    }
  }
  return r;
}

bool LineAssembler::add(const std::string& physical_in, std::string* complete) {
  size_t n = physical_in.size();
  if (n && physical_in[n - 1] == '\r') --n;
  std::string_view physical(physical_in.data(), n);
  // Only the new part is scanned: an escape inside quotes never reaches back into pending_
  // (a quoted continuation ends it with a newline, which escapes nothing).
  for (size_t i = 0; i < n; ++i) {
    if (physical[i] == '\\' && quoted_ && i + 1 < n) ++i;
    else if (physical[i] == '"') quoted_ = !quoted_;
  }
  pending_.append(physical);
  if (!pending_.empty() && pending_.back() == '\\' && !quoted_) {
    pending_.pop_back();
    return false;
  }
  if (quoted_) {  // a quoted argument continues on the next line
    pending_ += '\n';
    return false;
  }
  *complete = std::move(pending_);
  pending_.clear();
  return true;
}

bool run_script(Session& s, const std::string& text, InputMode mode) {
  InputMode saved = s.input;
  s.input = mode;
  std::istringstream in(text);
  std::string physical, line;
  LineAssembler lines;
  bool ok = true;
  while (std::getline(in, physical)) {
    if (!lines.add(physical, &line)) continue;
    CommandResult r = execute(s, line);
    ok &= r.ok;
    if (r.quit) break;
  }
  if (!lines.pending().empty()) {
    CommandResult r = execute(s, lines.pending());
    ok &= r.ok;
  }
  s.input = saved;
  return ok;
}

bool run_script_file(Session& s, const std::string& path, std::string* error) {
  static int depth = 0;
  if (depth > 32) {
    *error = fmt::format("script: '{}' nested more than 32 deep (a script running itself?)", path);
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = fmt::format("script: cannot read '{}'", path);
    return false;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  ++depth;
  bool ok = run_script(s, ss.str(), InputMode::Script);
  --depth;
  if (!ok) *error = fmt::format("script '{}': some commands failed", path);
  return ok;
}

}  // namespace erkit::erprint
