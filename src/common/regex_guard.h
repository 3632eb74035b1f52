// A guard for user-given POSIX extended regular expressions before regcomp(3). glibc builds
// "x+" as "xx*" and "x{n,m}" as m copies of x, so nested repetitions grow the compiled pattern
// exponentially: "a" followed by 30 '+' took 1.2 GB in er_print's filter parser, "a+*" and 12
// '+' ten seconds in collect (found by fuzz_filter and fuzz_collect_options, issue 11). Bounded
// repetitions cost more than their size: "a{1,30000}" took 22 s and 6.9 GB, and
// "(a{1,300}){1,300}" 2.1 s and 850 MB under ASan (audit of issue 11).
// Such patterns are refused with a message instead (kRegexTooComplex).
// Header-only so that the standalone filter library and collect can both use it.
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

namespace erkit::common {

inline constexpr double kMaxRegexCost = 100000;
// Epsilon-closure entries: "a{1,1414}" (10^6) compiles in 0.025 s and 16 MB on glibc 2.36,
// "(a{1,300}){1,300}" (1.35 * 10^7) in 0.33 s and 241 MB, "a{1,3000}" (4.5 * 10^6) in 0.09 s.
inline constexpr double kMaxRegexClosure = 1000000;
inline constexpr int kMaxStackedRepetitions = 4;  // "a****": 40 stars took 0.04 s, 90 several seconds
inline constexpr const char* kRegexTooComplex =
    "too complex (repetitions nested too deeply, or a repeated part that can match nothing)";

// True if regcomp would take too long or too much memory. glibc builds "x+" as "xx*" and
// "x{n,m}" as m copies of x, so each repetition multiplies the size of what it repeats: the
// estimate follows those copies and allows kMaxRegexCost nodes (65536 nodes compile in 0.07 s
// on glibc 2.36). The optional copies of "x{n,m}" are nested ("(((x)?x)?x)?"), and glibc
// keeps for each of them the set of positions reachable without consuming input: m - n nested
// options hold (m - n)^2 / 2 entries times the first positions of x ("(a|b){1,k}" twice those
// of "a{1,k}"), and a repetition of the whole copies them again ("(a{1,300}){1,300}": 300
// copies of 45 000). That estimate allows kMaxRegexClosure entries. Copying something that can
// match the empty string
// ("a*+", "(a|){3}", "a{0,5}{2}") is refused outright: the epsilon closures of nested nullable
// copies blow up far faster than their size ("a*" + 12 '+' took 6.5 s, and a 50-character
// mixture of such groups 5 s), and such patterns have no use for naming functions; so is
// stacking more than kMaxStackedRepetitions operators on one atom ("a*****…").
inline bool regex_too_complex(std::string_view re) {
  struct Level {
    double total = 0;            // cost of this group so far
    double last = 0;             // cost of the last atom (what a repetition operator copies)
    bool last_nullable = true;   // the last atom can match "" (true before any atom)
    bool prefix_nullable = true; // the current alternative, before its last atom, can
    bool group_nullable = false; // a finished alternative of this group can
    int last_reps = 0;           // repetition operators stacked on the last atom ("a***")
    double closure = 0;          // epsilon-closure entries of this group so far
    double last_closure = 0;     // those of the last atom
    double last_first = 0;       // positions the last atom can start with ("(a|b)": 2)
    double alt_first = 0;        // positions the current alternative can start with
    double group_first = 0;      // those of the finished alternatives
  };
  std::vector<Level> stack(1);
  auto atom = [&](double n, bool nullable, double first = 1, double closure = 0) {
    Level& l = stack.back();
    l.prefix_nullable = l.prefix_nullable && l.last_nullable;
    if (l.prefix_nullable) l.alt_first += first;
    l.total += n;
    l.last = n;
    l.last_nullable = nullable;
    l.last_reps = 0;
    l.closure += closure;
    l.last_closure = closure;
    l.last_first = first;
  };
  bool nullable_copied = false;
  // The last atom becomes `copies` copies of itself, `optional` of them nested options.
  auto repeat = [&](double copies, double optional, bool makes_nullable) {
    Level& l = stack.back();
    if (l.last_nullable && copies > 1) nullable_copied = true;
    ++l.last_reps;
    l.total += l.last * (copies - 1);
    l.last *= copies;
    l.last_nullable = l.last_nullable || makes_nullable;
    const double options = optional * (optional + 1) / 2 * l.last_first;
    l.closure += l.last_closure * (copies - 1) + options;
    l.last_closure = l.last_closure * copies + options;
  };
  for (size_t i = 0; i < re.size(); ++i) {
    char c = re[i];
    if (c == '\\') {
      ++i;
      atom(1, false);
    } else if (c == '[') {  // a bracket expression is one node: skip to its closing ']'
      size_t j = i + 1;
      if (j < re.size() && re[j] == '^') ++j;
      if (j < re.size() && re[j] == ']') ++j;
      while (j < re.size() && re[j] != ']') ++j;
      i = j;
      atom(1, false);
    } else if (c == '(') {
      stack.emplace_back();
    } else if (c == ')' && stack.size() > 1) {
      Level g = stack.back();
      stack.pop_back();
      atom(g.total + 1, g.group_nullable || (g.prefix_nullable && g.last_nullable), g.group_first + g.alt_first,
           g.closure);
    } else if (c == '|') {
      Level& l = stack.back();
      l.group_nullable = l.group_nullable || (l.prefix_nullable && l.last_nullable);
      l.group_first += l.alt_first;
      l.alt_first = 0;
      l.total += 1;
      l.last = l.last_closure = l.last_first = 0;
      l.last_nullable = l.prefix_nullable = true;
    } else if (c == '*' || c == '?') {
      stack.back().last_nullable = true;
      ++stack.back().last_reps;
    } else if (c == '+') {
      repeat(2, 0, false);  // "xx*"
    } else if (c == '{') {
      // glibc reads an interval with escapes in it (a{\,300}) as a repetition the count below
      // would miss: refused (found by fuzz_filter: (a{\,300}){1,340} took 2.4 GB).
      for (size_t k = i + 1; k < re.size() && ((re[k] >= '0' && re[k] <= '9') || re[k] == ',' || re[k] == '\\'); ++k)
        if (re[k] == '\\') return true;
      size_t j = i + 1;
      double n = 0, m = -1, optional = 0;
      while (j < re.size() && re[j] >= '0' && re[j] <= '9') n = n * 10 + (re[j++] - '0');
      if (j < re.size() && re[j] == ',') {
        ++j;
        if (j < re.size() && re[j] >= '0' && re[j] <= '9') {
          m = 0;
          while (j < re.size() && re[j] >= '0' && re[j] <= '9') m = m * 10 + (re[j++] - '0');
          optional = m > n ? m - n : 0;  // {n,m}: n copies and m - n nested options
        } else {
          m = n + 1;  // {n,}: n copies and a starred one
        }
      } else {
        m = n;
      }
      if (j < re.size() && re[j] == '}') {
        repeat(m < 1 ? 1 : m, optional, n == 0);
        i = j;
      } else {
        atom(1, false);  // not an interval: a literal '{'
      }
    } else {
      atom(1, false);
    }
    // Only the innermost group changes at each step (a closed group is added to its parent).
    const Level& l = stack.back();
    if (nullable_copied || l.last_reps > kMaxStackedRepetitions || l.total > kMaxRegexCost ||
        l.last > kMaxRegexCost || l.closure > kMaxRegexClosure || l.last_closure > kMaxRegexClosure)
      return true;
  }
  return false;
}

}  // namespace erkit::common
