// Demangling of C++ (Itanium ABI) and Rust legacy names, and the split of compiler
// clone suffixes (.constprop.N, .isra.N, .part.N, .cold, .lto_priv.N, ...).
#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "symbols/symbols.h"

#ifdef ERKIT_HAVE_LIBIBERTY
// Declared here rather than via <libiberty/demangle.h>, whose libiberty.h redeclares
// basename() incompatibly with glibc's <string.h>. Values from demangle.h.
extern "C" char* rust_demangle(const char* mangled, int options);
constexpr int kDmglParams = 1 << 0;
constexpr int kDmglRust = 1 << 17;
#endif

namespace erkit::symbols {
namespace {

// GCC and clang append these to a function's name when they create a specialised or
// split copy. The copy is a function in its own right (own symbol, own address) but
// users want to find it under the original's name too.
constexpr std::string_view kCloneTokens[] = {
    "constprop", "isra", "part", "cold", "lto_priv", "localalias", "llvm", "clone",
    "specialized",
};

// Position of the '.' that starts the clone suffix, or npos.
size_t clone_suffix_pos(std::string_view raw) {
  for (size_t p = raw.find('.', 1); p != std::string_view::npos; p = raw.find('.', p + 1)) {
    std::string_view rest = raw.substr(p + 1);
    for (std::string_view tok : kCloneTokens) {
      if (rest.substr(0, tok.size()) == tok &&
          (rest.size() == tok.size() || rest[tok.size()] == '.' ||
           (tok == "cold" && rest[tok.size()] >= '0' && rest[tok.size()] <= '9'))) {
        return p;
      }
    }
  }
  return std::string_view::npos;
}

std::string cxa_demangle(const std::string& mangled, bool* ok) {
  int status = 0;
  char* out = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  *ok = status == 0 && out != nullptr;
  std::string s = *ok ? std::string(out) : mangled;
  std::free(out);
  return s;
}

// Rust legacy symbols are Itanium-mangled paths whose last element is a 17-char hash
// `h0123456789abcdef` and whose elements escape punctuation as $LT$, $u7b$, `..` etc.
bool is_rust_legacy(std::string_view mangled) {
  if (mangled.substr(0, 3) != "_ZN" || mangled.size() < 24 || mangled.back() != 'E') return false;
  std::string_view tail = mangled.substr(mangled.size() - 20, 19);  // "17h" + 16 hex
  if (tail.substr(0, 3) != "17h") return false;
  for (char c : tail.substr(3)) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string rust_unescape(std::string_view s) {
  static constexpr std::pair<std::string_view, std::string_view> kEsc[] = {
      {"$SP$", "@"}, {"$BP$", "*"}, {"$RF$", "&"}, {"$LT$", "<"}, {"$GT$", ">"},
      {"$LP$", "("}, {"$RP$", ")"}, {"$C$", ","},
  };
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '.' && i + 1 < s.size() && s[i + 1] == '.') {
      out += "::";
      i += 2;
      continue;
    }
    if (s[i] == '$') {
      bool done = false;
      for (auto [from, to] : kEsc) {
        if (s.substr(i, from.size()) == from) {
          out += to;
          i += from.size();
          done = true;
          break;
        }
      }
      if (!done && s.substr(i, 2) == "$u") {
        size_t end = s.find('$', i + 2);
        if (end != std::string_view::npos) {
          unsigned long cp = std::strtoul(std::string(s.substr(i + 2, end - i - 2)).c_str(), nullptr, 16);
          if (cp > 0 && cp < 0x80) {
            out += static_cast<char>(cp);
            i = end + 1;
            done = true;
          }
        }
      }
      if (done) continue;
    }
    out += s[i++];
  }
  return out;
}

std::string rust_legacy_demangle(const std::string& mangled, bool* ok) {
  std::string d = cxa_demangle(mangled, ok);
  if (!*ok) return mangled;
  // Drop the trailing "::h<hash>" as rustc-demangle's alternate form does.
  size_t h = d.rfind("::h");
  if (h != std::string::npos && d.size() - h == 19) d.resize(h);
  // A leading '_' is added by rustc when an element starts with '$'.
  std::string out;
  size_t start = 0;
  while (start <= d.size()) {
    size_t end = d.find("::", start);
    std::string_view elem = std::string_view(d).substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (elem.size() > 1 && elem[0] == '_' && elem[1] == '$') elem.remove_prefix(1);
    if (!out.empty() || start > 0) out += "::";
    out += rust_unescape(elem);
    if (end == std::string::npos) break;
    start = end + 2;
  }
  return out;
}

bool is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

// "ns::C<int>::f(int) const" -> "ns::C<int>::f"; "int ns::g<int>(int)" -> "ns::g<int>".
std::string strip_parameters(const std::string& name) {
  size_t close = name.rfind(')');
  if (close == std::string::npos) return name;
  int depth = 0;
  size_t open = std::string::npos;
  for (size_t i = close + 1; i-- > 0;) {
    char c = name[i];
    if (c == ')') ++depth;
    else if (c == '(' && --depth == 0) {
      open = i;
      break;
    }
  }
  if (open == std::string::npos || open == 0) return name;
  std::string head = name.substr(0, open);
  // Drop a return type (present for template functions): it ends at the last space
  // outside brackets and before any `operator` keyword (whose spelling has spaces).
  size_t last_space = std::string::npos;
  int d = 0;
  for (size_t i = 0; i < head.size(); ++i) {
    char c = head[i];
    if (d == 0 && head.compare(i, 8, "operator") == 0 && (i == 0 || !is_ident(head[i - 1])) &&
        (i + 8 == head.size() || !is_ident(head[i + 8]))) {
      break;
    }
    if (c == '(' || c == '<' || c == '[' || c == '{') ++d;
    else if (c == ')' || c == '>' || c == ']' || c == '}') --d;
    else if (c == ' ' && d == 0) last_space = i;
  }
  return last_space == std::string::npos ? head : head.substr(last_space + 1);
}

Names demangle(const std::string& raw) {
  Names n;
  size_t cpos = clone_suffix_pos(raw);
  std::string base = cpos == std::string::npos ? raw : raw.substr(0, cpos);
  std::string suffix = cpos == std::string::npos ? "" : raw.substr(cpos);

  bool ok = false;
  std::string base_long;
  if (is_rust_legacy(base)) {
    base_long = rust_legacy_demangle(base, &ok);
    n.short_name = base_long;
  } else if (base.size() > 2 && base[0] == '_' && base[1] == 'Z') {
    base_long = cxa_demangle(base, &ok);
    if (ok) {
      n.short_name = strip_parameters(base_long) + suffix;
      bool whole_ok = false;
      // The demangler spells clones as perf shows them: "f(int) [clone .constprop.0]".
      std::string whole = suffix.empty() ? base_long : cxa_demangle(raw, &whole_ok);
      n.long_name = whole_ok || suffix.empty() ? whole : base_long + " [clone " + suffix + "]";
      if (!suffix.empty()) n.original_long = base_long;
      return n;
    }
#ifdef ERKIT_HAVE_LIBIBERTY
  } else if (base.size() > 2 && base[0] == '_' && base[1] == 'R') {
    char* out = rust_demangle(base.c_str(), kDmglParams | kDmglRust);
    if (out) {
      ok = true;
      base_long = out;
      n.short_name = base_long;
      std::free(out);
    }
#endif
  }
  if (!ok) {
    n.long_name = raw;
    n.short_name = raw;
    if (!suffix.empty()) n.original_long = base;
    return n;
  }
  if (suffix.empty()) {
    n.long_name = base_long;
    return n;
  }
  n.long_name = base_long + suffix;
  n.short_name += suffix;
  n.original_long = base_long;
  return n;
}

}  // namespace erkit::symbols
