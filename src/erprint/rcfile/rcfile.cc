#include "rcfile.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace erkit::rcfile {

namespace {

constexpr std::string_view kFirstWins[] = {"en_desc", "scc",  "sthresh", "dcc",    "dthresh",  "setpath",
                                           "name",    "tabs", "tlmode",  "tldata", "viewmode",
                                           "inline_frames"};
constexpr std::string_view kAccumulate[] = {"dmetrics", "dsort", "addpath", "pathmap"};
// er_print commands that exist but may not appear in .er.rc (warned about by name).
constexpr std::string_view kNotInRc[] = {
    "metrics", "sort", "cmetrics", "csort", "functions", "callers-callees", "filters", "limit", "outfile",
    "appendfile", "sample_select", "thread_select", "lwp_select", "cpu_select", "object_select", "source",
    "disasm", "data_metrics", "data_sort", "header", "script", "quit", "help", "version", "mapfile"};

std::string_view canonical(std::string_view cmd) {
  if (cmd == "obj_define") return "mobj_define";
  return cmd;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Removes the double quotes that protect blanks; quoted text is kept verbatim.
std::string unquote(std::string_view s) {
  std::string out;
  bool in_q = false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '"') {
      in_q = !in_q;
      continue;
    }
    if (!in_q && std::isspace(static_cast<unsigned char>(s[i]))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
      continue;
    }
    out += s[i];
  }
  return std::string(trim(out));
}

// Words separated by blanks; double quotes protect blanks and are removed.
std::vector<std::string> quoted_words(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  bool in_q = false, in_word = false;
  for (char c : s) {
    if (c == '"') {
      in_q = !in_q;
      in_word = true;
    } else if (!in_q && std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) out.push_back(cur);
      cur.clear();
      in_word = false;
    } else {
      cur += c;
      in_word = true;
    }
  }
  if (in_word) out.push_back(cur);
  return out;
}

template <size_t N>
bool in(const std::string_view (&set)[N], std::string_view s) {
  return std::find(std::begin(set), std::end(set), s) != std::end(set);
}

void append_spec(std::string& acc, std::string_view spec) {
  if (!acc.empty()) acc += ':';
  acc += spec;
}

}  // namespace

bool allowed_in_rc(std::string_view command) {
  command = canonical(command);
  return in(kFirstWins, command) || in(kAccumulate, command) || command == "mobj_define";
}

std::optional<std::string> RcDefaults::get(std::string_view command) const {
  auto it = settings.find(std::string(canonical(command)));
  if (it == settings.end()) return std::nullopt;
  return it->second;
}

std::string RcDefaults::search_path() const {
  std::string p = get("setpath").value_or("$expts:.");
  for (const auto& a : addpath) p += ":" + a;
  return p;
}

void process_rc_text(std::string_view text, std::string_view source, RcDefaults& d, Consumer who) {
  std::istringstream in_stream{std::string(text)};
  std::string raw, line;
  size_t lineno = 0, start_line = 0;
  auto warn = [&](const std::string& msg) {
    d.warnings.push_back(std::string(source) + ":" + std::to_string(start_line) + ": " + msg);
  };
  while (std::getline(in_stream, raw)) {
    ++lineno;
    if (line.empty()) start_line = lineno;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    // A trailing backslash joins the next line (as in er_print scripts).
    if (!raw.empty() && raw.back() == '\\') {
      raw.pop_back();
      line += raw;
      continue;
    }
    line += raw;
    const std::string_view l = trim(line);
    if (l.empty() || l.front() == '#') {
      line.clear();
      continue;
    }
    size_t sp = 0;
    while (sp < l.size() && !std::isspace(static_cast<unsigned char>(l[sp]))) ++sp;
    const std::string cmd(canonical(l.substr(0, sp)));
    const std::string_view rest = trim(l.substr(sp));
    const std::string arg = unquote(rest);
    line.clear();
    if (!allowed_in_rc(cmd)) {
      if (in(kNotInRc, cmd)) warn("command '" + cmd + "' is not allowed in .er.rc; ignored");
      else warn("unknown command '" + cmd + "'; ignored");
      continue;
    }
    if (who == Consumer::ErSrc && cmd != "scc" && cmd != "dcc") continue;
    // scc "" / dcc "": the empty class list (no commentary).
    const bool empty_list = (cmd == "scc" || cmd == "dcc") && rest == "\"\"";
    if (arg.empty() && cmd != "dmetrics" && cmd != "dsort" && !empty_list) {
      warn("command '" + cmd + "' needs an argument; ignored");
      continue;
    }
    if (cmd == "dmetrics") {
      if (!arg.empty()) append_spec(d.dmetrics, arg);
    } else if (cmd == "dsort") {
      if (!arg.empty()) append_spec(d.dsort, arg);
    } else if (cmd == "addpath") {
      d.addpath.push_back(arg);
    } else if (cmd == "pathmap") {
      const auto words = quoted_words(rest);
      if (words.size() != 2) {
        warn("pathmap needs an old prefix and a new prefix; ignored");
        continue;
      }
      d.pathmaps.emplace_back(words[0], words[1]);
    } else if (cmd == "mobj_define") {
      const size_t s2 = arg.find(' ');
      if (s2 == std::string::npos) {
        warn("mobj_define needs a name and an index expression; ignored");
        continue;
      }
      const std::string name = arg.substr(0, s2);
      const std::string expr(trim(std::string_view(arg).substr(s2 + 1)));
      const bool seen = std::any_of(d.mobj_defines.begin(), d.mobj_defines.end(),
                                    [&](const auto& p) { return p.first == name; });
      if (!seen) d.mobj_defines.emplace_back(name, expr);
    } else if (cmd == "en_desc" && arg != "on" && arg != "off") {
      warn("en_desc takes 'on' or 'off'; ignored");
    } else if (cmd == "inline_frames" && arg != "on" && arg != "off") {
      warn("inline_frames takes 'on' or 'off'; ignored");
    } else {
      d.settings.emplace(cmd, arg);  // emplace keeps the first occurrence
    }
  }
}

RcDefaults load_rc(const RcPaths& paths, Consumer who) {
  RcDefaults d;
  std::vector<std::filesystem::path> done;
  for (const auto* p : {&paths.cwd, &paths.home, &paths.system}) {
    if (!*p) continue;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(**p, ec)) continue;
    const bool dup = std::any_of(done.begin(), done.end(), [&](const auto& q) {
      std::error_code ec2;
      return std::filesystem::equivalent(q, **p, ec2);
    });
    if (dup) continue;
    std::ifstream f(**p, std::ios::binary);
    if (!f) {
      d.warnings.push_back(p->value().string() + ": cannot be read");
      continue;
    }
    std::ostringstream ss;
    ss << f.rdbuf();
    process_rc_text(ss.str(), p->value().string(), d, who);
    d.files_read.push_back(p->value().string());
    done.push_back(**p);
  }
  return d;
}

RcPaths standard_paths(const std::filesystem::path& system_rc) {
  RcPaths p;
  p.system = system_rc;
  std::error_code ec;
  const auto cwd = std::filesystem::current_path(ec);
  if (!ec) p.cwd = cwd / ".er.rc";
  if (const char* home = std::getenv("HOME"); home && *home) p.home = std::filesystem::path(home) / ".er.rc";
  return p;
}

}  // namespace erkit::rcfile
