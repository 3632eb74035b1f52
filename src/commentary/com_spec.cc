#include "commentary/com_spec.h"

#include <fmt/format.h>

#include <vector>

namespace erkit::commentary {
namespace {

struct Word {
  const char* name;
  size_t min;  // shortest accepted prefix
  uint32_t cls;
};

constexpr Word kClasses[] = {
    {"basic", 1, kBasic},   {"version", 1, kVersion}, {"parallel", 2, kParallel}, {"query", 1, kQuery},
    {"loop", 1, kLoop},     {"pipe", 2, kPipe},       {"inline", 1, kInline},     {"memops", 1, kMemops},
    {"fe", 1, kFe},
};

bool is_prefix(const std::string& w, const char* name, size_t min) {
  std::string n = name;
  return w.size() >= min && w.size() <= n.size() && n.compare(0, w.size(), w) == 0;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t c = s.find(':', start);
    if (c == std::string::npos) c = s.size();
    out.push_back(s.substr(start, c - start));
    start = c + 1;
  }
  return out;
}

bool is_display_option(const std::string& w) {
  return is_prefix(w, "nohex", 3) || is_prefix(w, "hex", 1) || is_prefix(w, "nosrc", 3) || is_prefix(w, "src", 1) ||
         is_prefix(w, "asrc", 2);
}

}  // namespace

bool parse_com_spec(const std::string& spec, bool for_disasm, ComSpec* out, std::string* error) {
  ComSpec s = *out;
  s.classes = 0;
  if (spec.empty()) {
    *out = s;
    return true;
  }
  auto words = split(spec);
  for (const auto& w : words) {
    if (w.empty()) continue;
    if (w == "all" || w == "none") {
      size_t class_words = 0;
      for (const auto& x : words) class_words += !x.empty() && !is_display_option(x);
      if (class_words > 1) {
        *error = fmt::format("'{}' must be given alone in '{}'", w, spec);
        return false;
      }
      s.classes = w == "all" ? uint32_t(kAllClasses) : 0u;
      continue;
    }
    if (w == "qry") {  // the manual's q[ue]ry spelling
      s.classes |= kQuery;
      continue;
    }
    bool found = false;
    for (const auto& c : kClasses) {
      if (is_prefix(w, c.name, c.min)) {
        s.classes |= c.cls;
        found = true;
        break;
      }
    }
    if (found) continue;
    if (for_disasm) {
      if (is_prefix(w, "nohex", 3)) s.hex = false, found = true;
      else if (is_prefix(w, "hex", 1)) s.hex = true, found = true;
      else if (is_prefix(w, "nosrc", 3)) s.src = false, s.asrc = false, found = true;
      else if (is_prefix(w, "src", 1)) s.src = true, s.asrc = false, found = true;
      else if (is_prefix(w, "asrc", 2)) s.asrc = true, s.src = true, found = true;
    }
    if (!found) {
      *error = fmt::format("unknown commentary class '{}' in '{}' (basic, version, parallel, query, loop, pipe, "
                           "inline, memops, fe, all, none{})",
                           w, spec, for_disasm ? ", hex, nohex, src, nosrc, asrc" : "");
      return false;
    }
  }
  *out = s;
  return true;
}

std::string classes_to_string(uint32_t classes) {
  if (classes == kAllClasses) return "all";
  if (classes == 0) return "none";
  std::string out;
  for (const auto& c : kClasses)
    if (classes & c.cls) out += (out.empty() ? "" : ":") + std::string(c.name);
  return out;
}

std::string to_string(const ComSpec& s, bool for_disasm) {
  std::string out = classes_to_string(s.classes);
  if (for_disasm) out += std::string(s.hex ? ":hex" : ":nohex") + (s.asrc ? ":asrc" : s.src ? ":src" : ":nosrc");
  return out;
}

}  // namespace erkit::commentary
