// Readers for the three optimisation-record formats and the rewriting of their messages
// into the manual's phrasing.
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>

#include "commentary/commentary.h"
#include "commentary/json_lite.h"

namespace erkit::commentary {
namespace {

std::string trim(std::string s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  size_t b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::string base_name(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// "vectorized loop (...)" / "loop vectorized using ..." -> "Loop below vectorized ...".
std::string loop_phrase(const std::string& t) {
  static const std::pair<const char*, const char*> kRewrites[] = {
      {"vectorized loop", "Loop below vectorized"},
      {"loop vectorized", "Loop below vectorized"},
      {"loop not vectorized", "Loop below not vectorized"},
      {"unrolled loop", "Loop below unrolled"},
      {"completely unrolled loop", "Loop below completely unrolled"},
      {"loop turned into", "Loop below turned into"},
      {"loop with", "Loop below, with"},
      {"couldn't vectorize loop", "Loop below not vectorized"},
      {"loop ", "Loop below: loop "},
  };
  for (const auto& [from, to] : kRewrites)
    if (starts_with(t, from)) return to + t.substr(std::char_traits<char>::length(from));
  return "Loop below: " + t;
}

std::string inline_phrase(const std::string& callee, const std::string& callee_file) {
  if (callee_file.empty()) return fmt::format("Function {} inlined into the code for the following line", callee);
  return fmt::format("Function {} inlined from source file {} into the code for the following line", callee,
                     base_name(callee_file));
}

// --- Clang YAML ------------------------------------------------------------------------

std::string yaml_scalar(std::string v) {
  v = trim(v);
  if (v.size() >= 2 && v.front() == '\'' && v.back() == '\'') {
    std::string out;
    for (size_t i = 1; i + 1 < v.size(); ++i) {
      out += v[i];
      if (v[i] == '\'' && v[i + 1] == '\'') ++i;
    }
    return out;
  }
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
    std::string out;
    for (size_t i = 1; i + 1 < v.size(); ++i) {
      if (v[i] == '\\' && i + 2 < v.size()) {
        char e = v[++i];
        out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
      } else {
        out += v[i];
      }
    }
    return out;
  }
  return v;
}

struct YamlLoc {
  std::string file;
  uint32_t line = 0, column = 0;
};

// "{ File: t.c, Line: 10, Column: 37 }"
YamlLoc yaml_loc(const std::string& v) {
  YamlLoc l;
  std::string body = trim(v);
  if (body.size() < 2 || body.front() != '{') return l;
  body = body.substr(1, body.size() - 2);
  // Split at commas outside quotes.
  std::vector<std::string> parts;
  std::string cur;
  char q = 0;
  for (char c : body) {
    if (q) {
      if (c == q) q = 0;
    } else if (c == '\'' || c == '"') {
      q = c;
    } else if (c == ',') {
      parts.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  parts.push_back(cur);
  for (const auto& p : parts) {
    size_t c = p.find(':');
    if (c == std::string::npos) continue;
    std::string k = trim(p.substr(0, c)), val = yaml_scalar(p.substr(c + 1));
    if (k == "File") l.file = val;
    else if (k == "Line") l.line = uint32_t(std::strtoul(val.c_str(), nullptr, 10));
    else if (k == "Column") l.column = uint32_t(std::strtoul(val.c_str(), nullptr, 10));
  }
  return l;
}

struct ClangArg {
  std::string key, value;
  YamlLoc loc;
};

struct ClangRemark {
  std::string kind, pass, name, function;
  YamlLoc loc;
  std::vector<ClangArg> args;
};

uint32_t clang_classes(const ClangRemark& r) {
  bool passed = r.kind == "Passed";
  uint32_t c = 0;
  const std::string& p = r.pass;
  if (p == "inline" || p == "always-inline" || p == "sample-profile-inline") c = kInline;
  else if (p == "loop-vectorize") c = kLoop | kPipe;
  else if (p == "slp-vectorizer") c = kPipe;
  else if (starts_with(p, "loop")) c = kLoop;
  else if (p == "licm" || p == "gvn" || p == "regalloc" || p == "memcpyopt" || p == "dse") c = kMemops;
  else if (starts_with(p, "openmp")) c = kParallel;
  else if (p == "asm-printer" || p == "prologepilog" || p == "size-info") return 0;  // per-function statistics
  else c = 0;
  if (passed && c != kMemops) c |= kBasic;
  if (!passed) c = kQuery;
  return c;
}

std::string clang_text(const ClangRemark& r) {
  std::string joined;
  std::string callee, callee_file;
  for (const auto& a : r.args) {
    if (a.key == "Callee") {
      callee = a.value;
      callee_file = a.loc.file;
    }
    joined += a.value;
  }
  joined = trim(joined);
  joined.erase(std::remove(joined.begin(), joined.end(), '\''), joined.end());
  if ((r.pass == "inline" || r.pass == "always-inline") && !callee.empty()) {
    if (r.kind == "Passed") return inline_phrase(callee, callee_file);
    return "Function " + joined;
  }
  if (r.pass == "loop-vectorize" || starts_with(r.pass, "loop")) return loop_phrase(joined);
  return joined;
}

void finish_clang(ClangRemark& r, std::vector<Remark>* out) {
  if (r.kind.empty() || r.loc.line == 0) return;
  uint32_t cls = clang_classes(r);
  if (cls == 0) return;
  Remark m;
  m.file = r.loc.file;
  m.line = r.loc.line;
  m.column = r.loc.column;
  m.classes = cls;
  m.function = r.function;
  m.text = clang_text(r);
  if (!m.text.empty()) out->push_back(std::move(m));
}

// --- GCC JSON ---------------------------------------------------------------------------

void collect_passes(const JsonValue& list, std::map<std::string, const JsonValue*>* out) {
  if (list.kind != JsonValue::Kind::Array) return;
  for (const auto& p : list.array) {
    (*out)[p.str("id")] = &p;
    if (const JsonValue* ch = p.get("children")) collect_passes(*ch, out);
  }
}

uint32_t gcc_group_classes(const std::vector<std::string>& groups, const std::string& pass_name) {
  uint32_t c = 0;
  for (const auto& g : groups) {
    if (g == "inline" || g == "ipa") c |= kInline;
    else if (g == "vec") c |= kPipe | kLoop;
    else if (g == "loop") c |= kLoop;
    else if (g == "omp") c |= kParallel;
  }
  if (c == 0 && pass_name.find("inline") != std::string::npos) c = kInline;
  return c;
}

// Turns one success/failure message into the manual's phrasing.
std::string gcc_phrase(const std::string& text, const std::string& callee, const std::string& callee_file,
                       uint32_t classes, bool success) {
  static const std::regex inlining(R"(^Inlining ([^/ ]+)(/\d+)? into)");
  std::smatch m;
  if (success && std::regex_search(text, m, inlining))
    return inline_phrase(callee.empty() ? m[1].str() : callee, callee_file);
  if (classes & kInline) return "Function call: " + text;
  if (classes & kLoop) return loop_phrase(text);
  return text;
}

std::string strip_node_suffix(const std::string& n) {
  size_t s = n.rfind('/');
  return s != std::string::npos && s + 1 < n.size() && std::isdigit(static_cast<unsigned char>(n[s + 1])) ? n.substr(0, s)
                                                                                                            : n;
}

}  // namespace

namespace {
// LLVM's YAML writer wraps a flow mapping past column 70 ("{ File: '/a/long/path.c', \n
// Line: 10, Column: 37 }"), so a long source path moves Line and Column to the next line.
// Rejoins such lines: a line continues while a '{' opened outside quotes is not yet closed.
std::string join_flow_mappings(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  int depth = 0;
  char quote = 0;
  for (char c : text) {
    if (quote) {
      if (c == quote) quote = 0;  // '' inside '...' closes and reopens: same result
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}' && depth > 0) {
      --depth;
    } else if (c == '\n') {
      if (depth > 0) {
        out += ' ';
        continue;
      }
    }
    if (c == '\n') quote = 0;  // an unbalanced quote never runs past its line
    out += c;
  }
  return out;
}
}  // namespace

bool read_clang_yaml(const std::string& raw, std::vector<Remark>* out, std::string* error) {
  std::string text = join_flow_mappings(raw);
  std::istringstream in(text);
  std::string line;
  ClangRemark cur;
  bool in_doc = false, in_args = false, any_doc = false;
  while (std::getline(in, line)) {
    if (starts_with(line, "--- !")) {
      if (in_doc) finish_clang(cur, out);
      cur = ClangRemark{};
      cur.kind = trim(line.substr(5));
      in_doc = any_doc = true;
      in_args = false;
      continue;
    }
    if (!in_doc) continue;
    if (line == "...") {
      finish_clang(cur, out);
      in_doc = false;
      continue;
    }
    if (!line.empty() && line[0] != ' ') {
      size_t c = line.find(':');
      if (c == std::string::npos) continue;
      std::string k = line.substr(0, c), v = line.substr(c + 1);
      in_args = k == "Args";
      if (k == "Pass") cur.pass = yaml_scalar(v);
      else if (k == "Name") cur.name = yaml_scalar(v);
      else if (k == "Function") cur.function = yaml_scalar(v);
      else if (k == "DebugLoc") cur.loc = yaml_loc(v);
      continue;
    }
    if (!in_args) continue;
    std::string t = trim(line);
    bool item = starts_with(t, "- ");
    if (item) t = t.substr(2);
    size_t c = t.find(':');
    if (c == std::string::npos) continue;
    std::string k = trim(t.substr(0, c)), v = t.substr(c + 1);
    if (item) {
      cur.args.push_back({k, yaml_scalar(v), {}});
    } else if (k == "DebugLoc" && !cur.args.empty()) {
      cur.args.back().loc = yaml_loc(v);
    }
  }
  if (in_doc) finish_clang(cur, out);
  if (!any_doc && !trim(text).empty()) {
    *error = "not a Clang optimisation record (no '--- !' documents)";
    return false;
  }
  return true;
}

bool read_gcc_json(const std::string& text, std::vector<Remark>* out, std::string* error) {
  JsonValue root;
  if (!parse_json(text, &root, error)) return false;
  if (root.kind != JsonValue::Kind::Array || root.array.size() < 3 ||
      root.array[2].kind != JsonValue::Kind::Array) {
    *error = "not a GCC optimisation record ([metadata, passes, records] expected)";
    return false;
  }
  std::map<std::string, const JsonValue*> passes;
  collect_passes(root.array[1], &passes);
  for (const auto& r : root.array[2].array) {
    std::string kind = r.str("kind");
    if (kind != "success" && kind != "failure") continue;  // notes are the compiler's internal diary
    const JsonValue* loc = r.get("location");
    if (!loc || loc->num("line") <= 0) continue;
    std::vector<std::string> groups;
    std::string pass_name;
    if (auto it = passes.find(r.str("pass")); it != passes.end()) {
      pass_name = it->second->str("name");
      if (const JsonValue* g = it->second->get("optgroups"); g && g->kind == JsonValue::Kind::Array)
        for (const auto& x : g->array) groups.push_back(x.string);
    }
    std::string msg, callee, callee_file;
    if (const JsonValue* m = r.get("message"); m && m->kind == JsonValue::Kind::Array) {
      for (const auto& item : m->array) {
        if (item.kind == JsonValue::Kind::String) {
          msg += item.string;
        } else if (item.get("symtab_node")) {
          std::string n = strip_node_suffix(item.str("symtab_node"));
          if (callee.empty()) {
            callee = n;
            if (const JsonValue* l = item.get("location")) callee_file = l->str("file");
          }
          msg += n;
        } else if (item.get("expr")) {
          msg += item.str("expr");
        } else if (item.get("stmt")) {
          msg += trim(item.str("stmt"));
        }
      }
    }
    // A message may run on with the pass's statistics; the first line is the remark.
    msg = trim(msg.substr(0, msg.find('\n')));
    if (msg.empty()) continue;
    uint32_t cls = gcc_group_classes(groups, pass_name);
    bool success = kind == "success";
    Remark m;
    m.file = loc->str("file");
    m.line = uint32_t(loc->num("line"));
    m.column = uint32_t(loc->num("column"));
    m.function = r.str("function");
    m.text = gcc_phrase(msg, callee, callee_file, cls, success);
    m.classes = success ? (cls ? cls | kBasic : kBasic) : kQuery;
    if (!m.text.empty()) out->push_back(std::move(m));
  }
  return true;
}

bool read_gcc_opt_info(const std::string& text, std::vector<Remark>* out) {
  static const std::regex line_re(R"(^(.+):(\d+):(\d+): (optimized|missed): +(.*)$)");
  std::istringstream in(text);
  std::string line;
  bool any = false;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, line_re)) continue;
    any = true;
    std::string msg = trim(m[5].str());
    bool success = m[4] == "optimized";
    uint32_t cls = 0;
    if (msg.find("Inlining") != std::string::npos || msg.find("inline") != std::string::npos) cls = kInline;
    else if (msg.find("vectoriz") != std::string::npos) cls = kLoop | kPipe;
    else if (msg.find("loop") != std::string::npos || msg.find("unroll") != std::string::npos) cls = kLoop;
    Remark r;
    r.file = m[1].str();
    r.line = uint32_t(std::stoul(m[2].str()));
    r.column = uint32_t(std::stoul(m[3].str()));
    r.text = gcc_phrase(msg, "", "", cls, success);
    r.classes = success ? (cls | kBasic) : kQuery;
    r.from_opt_info = true;
    out->push_back(std::move(r));
  }
  return any;
}

}  // namespace erkit::commentary
