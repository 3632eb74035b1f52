// A guard for user-given POSIX extended regular expressions before regcomp(3). glibc builds
// "x+" as "xx*" and "x{n,m}" as m copies of x, so nested repetitions grow the compiled pattern
// exponentially: "a" followed by 30 '+' took 1.2 GB in er_print's filter parser (found by
// fuzz_filter, issue 11). The estimate below follows those copies; patterns whose compiled
// size would pass kMaxRegexNodes are refused with a message instead. Header-only so that
// the standalone filter library and collect can both use it.
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

namespace erkit::common {

inline constexpr double kMaxRegexNodes = 100000;

// True if regcomp would build more than kMaxRegexNodes nodes (an over-estimate is fine).
inline bool regex_too_complex(std::string_view re) {
  struct Level {
    double total = 0;  // nodes in this group so far
    double last = 0;   // nodes of the last atom (what a repetition operator copies)
  };
  std::vector<Level> stack(1);
  auto atom = [&](double n) {
    stack.back().total += n;
    stack.back().last = n;
  };
  auto repeat = [&](double copies) {
    Level& l = stack.back();
    l.total += l.last * (copies - 1);
    l.last *= copies;
  };
  for (size_t i = 0; i < re.size(); ++i) {
    char c = re[i];
    if (c == '\\') {
      ++i;
      atom(1);
    } else if (c == '[') {  // a bracket expression is one node: skip to its closing ']'
      size_t j = i + 1;
      if (j < re.size() && re[j] == '^') ++j;
      if (j < re.size() && re[j] == ']') ++j;
      while (j < re.size() && re[j] != ']') ++j;
      i = j;
      atom(1);
    } else if (c == '(') {
      stack.emplace_back();
    } else if (c == ')' && stack.size() > 1) {
      double group = stack.back().total + 1;
      stack.pop_back();
      atom(group);
    } else if (c == '|') {
      stack.back().total += 1;
      stack.back().last = 0;
    } else if (c == '+') {
      repeat(2);
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
        repeat(m < 1 ? 1 : m);
        i = j;
      } else {
        atom(1);  // not an interval: a literal '{'
      }
    } else if (c != '*' && c != '?') {
      atom(1);
    }
    // Only the innermost group changes at each step (a closed group is added to its parent).
    if (stack.back().total > kMaxRegexNodes || stack.back().last > kMaxRegexNodes) return true;
  }
  return false;
}

}  // namespace erkit::common
