// A guard for user-given POSIX extended regular expressions before regcomp(3). glibc builds
// "x+" as "xx*" and "x{n,m}" as m copies of x, so nested repetitions grow the compiled pattern
// exponentially: "a" followed by 30 '+' took 1.2 GB in er_print's filter parser, "a+*" and 12
// '+' ten seconds in collect (found by fuzz_filter and fuzz_collect_options, issue 11).
// Such patterns are refused with a message instead (kRegexTooComplex).
// Header-only so that the standalone filter library and collect can both use it.
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

namespace erkit::common {

inline constexpr double kMaxRegexCost = 100000;
inline constexpr int kMaxStackedRepetitions = 4;  // "a****": 40 stars took 0.04 s, 90 several seconds
inline constexpr const char* kRegexTooComplex =
    "too complex (repetitions nested too deeply, or a repeated part that can match nothing)";

// True if regcomp would take too long or too much memory. glibc builds "x+" as "xx*" and
// "x{n,m}" as m copies of x, so each repetition multiplies the size of what it repeats: the
// estimate follows those copies and allows kMaxRegexCost nodes (65536 nodes compile in 0.07 s
// on glibc 2.36). Copying something that can match the empty string
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
  };
  std::vector<Level> stack(1);
  auto atom = [&](double n, bool nullable) {
    Level& l = stack.back();
    l.prefix_nullable = l.prefix_nullable && l.last_nullable;
    l.total += n;
    l.last = n;
    l.last_nullable = nullable;
    l.last_reps = 0;
  };
  bool nullable_copied = false;
  auto repeat = [&](double copies, bool makes_nullable) {
    Level& l = stack.back();
    if (l.last_nullable && copies > 1) nullable_copied = true;
    ++l.last_reps;
    l.total += l.last * (copies - 1);
    l.last *= copies;
    l.last_nullable = l.last_nullable || makes_nullable;
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
      atom(g.total + 1, g.group_nullable || (g.prefix_nullable && g.last_nullable));
    } else if (c == '|') {
      Level& l = stack.back();
      l.group_nullable = l.group_nullable || (l.prefix_nullable && l.last_nullable);
      l.total += 1;
      l.last = 0;
      l.last_nullable = l.prefix_nullable = true;
    } else if (c == '*' || c == '?') {
      stack.back().last_nullable = true;
      ++stack.back().last_reps;
    } else if (c == '+') {
      repeat(2, false);
    } else if (c == '{') {
      size_t j = i + 1;
      double n = 0, m = -1;
      while (j < re.size() && re[j] >= '0' && re[j] <= '9') n = n * 10 + (re[j++] - '0');
      if (j < re.size() && re[j] == ',') {
        ++j;
        if (j < re.size() && re[j] >= '0' && re[j] <= '9') {
          m = 0;
          while (j < re.size() && re[j] >= '0' && re[j] <= '9') m = m * 10 + (re[j++] - '0');
        } else {
          m = n + 1;  // {n,}: n copies and a starred one
        }
      } else {
        m = n;
      }
      if (j < re.size() && re[j] == '}') {
        repeat(m < 1 ? 1 : m, n == 0);
        i = j;
      } else {
        atom(1, false);  // not an interval: a literal '{'
      }
    } else {
      atom(1, false);
    }
    // Only the innermost group changes at each step (a closed group is added to its parent).
    if (nullable_copied || stack.back().last_reps > kMaxStackedRepetitions || stack.back().total > kMaxRegexCost ||
        stack.back().last > kMaxRegexCost)
      return true;
  }
  return false;
}

}  // namespace erkit::common
