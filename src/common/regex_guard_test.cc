#include "common/regex_guard.h"

#include <gtest/gtest.h>
#include <regex.h>

#include <string>

namespace erkit::common {
namespace {

// What the filter parser and collect -F do with a pattern the guard lets through.
bool compiles(const std::string& re) {
  regex_t r;
  if (regcomp(&r, re.c_str(), REG_EXTENDED | REG_NOSUB) != 0) return false;
  regfree(&r);
  return true;
}

TEST(RegexGuard, AcceptsOrdinaryPatterns) {
  for (const char* re : {"", "main", "^main$", "foo|bar", "^(main|_start)$", "^_?_?std::.*$", "a+", "a*", "a?",
                         "(ab|cd)+x*", "[[:alpha:]_][[:alnum:]_]*", "[0-9]{1,3}\\.[0-9]{1,3}", "x{2,5}",
                         "(ab|cd){2,5}", "a{3}b{0,4}", "a{5,}", "lib[^/]*\\.so(\\.[0-9]+)*$", "[]*+{]+",
                         "\\(\\{\\+", "(a+)+", "a+++", "((a+)b)+c", "a{1,100}", "(a{1,10}){1,10}"}) {
    EXPECT_FALSE(regex_too_complex(re)) << re;
    EXPECT_TRUE(compiles(re)) << re;
  }
}

TEST(RegexGuard, AcceptsLargePatternsThatCompileQuickly) {
  // Each compiles in at most 0.14 s and 20 MB on glibc 2.36 (not compiled here: slow under ASan).
  for (const char* re : {"a{1,1000}", "[a-z]{1,1000}", "(a{1,100}){1,100}", "(a{300}){300}", "(a{1,300}){2}",
                         "((a{1,30}){1,30}){1,30}", "(a?b){1,1000}", "a{1,1000}b{1,1000}"})
    EXPECT_FALSE(regex_too_complex(re)) << re;
}

TEST(RegexGuard, BracesThatAreNoIntervalAreOneCharacter) {
  for (const char* re : {"a{", "a{x}", "a{1", "a{1,", "{", "}"}) EXPECT_FALSE(regex_too_complex(re)) << re;
}

TEST(RegexGuard, RefusesEscapesInsideAnInterval) {
  // fuzz_filter: glibc took 2.4 GB for this one.
  EXPECT_TRUE(regex_too_complex("(a{\\,300}){1,340}"));
  EXPECT_TRUE(regex_too_complex("a{1\\,3}"));
  EXPECT_FALSE(regex_too_complex("a{b\\.c"));
}

TEST(RegexGuard, RefusesNestedPlus) {
  EXPECT_TRUE(regex_too_complex("a" + std::string(30, '+')));  // 2^30 copies: 1.2 GB in regcomp
  EXPECT_TRUE(regex_too_complex("((((((((((((((((((a+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+"));
  std::string re = "ab";
  for (int i = 0; i < 20; ++i) re = "(" + re + ")+";
  EXPECT_TRUE(regex_too_complex(re)) << re;
}

TEST(RegexGuard, RefusesCopiesOfWhatCanMatchNothing) {
  for (const char* re : {"a*+", "a?+", "(a|){3}", "(|a)+", "(a*b*)+", "a{0,5}{2}", "(a?){2}", "x(a*|b){2,}"})
    EXPECT_TRUE(regex_too_complex(re)) << re;
}

TEST(RegexGuard, RefusesStackedOperators) {
  EXPECT_FALSE(regex_too_complex("^a+++*"));  // 4 on one atom: allowed
  EXPECT_TRUE(compiles("^a+++*"));
  for (const char* re : {"a*****", "a?????", "^a++++*", "x(ab)?*?**"}) EXPECT_TRUE(regex_too_complex(re)) << re;
  EXPECT_TRUE(regex_too_complex("^a" + std::string(90, '*')));  // 13 s under the fuzzer
}

TEST(RegexGuard, RefusesLargeBoundedRepetitions) {
  EXPECT_TRUE(regex_too_complex("a{100001}"));         // more nodes than kMaxRegexCost
  EXPECT_TRUE(regex_too_complex("(a{1000}){1000}"));   // 10^6 nodes
  // Nested options: (m - n)^2 / 2 closure entries per copy.
  EXPECT_TRUE(regex_too_complex("a{1,30000}"));         // 22 s and 6.9 GB in regcomp
  EXPECT_TRUE(regex_too_complex("(a{1,300}){1,300}"));  // 2.1 s and 850 MB under ASan
  EXPECT_TRUE(regex_too_complex("(a{1,300}){300}"));
  EXPECT_TRUE(regex_too_complex("x(a{1,1000}){3}"));
  EXPECT_TRUE(regex_too_complex("((a{1,100}){1,100}){1,100}"));
  // Each position an option can start with counts: 26 alternatives in 300 nested options.
  EXPECT_FALSE(regex_too_complex("(a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r|s|t|u|v|w|x|y|z){1,30}"));
  EXPECT_TRUE(regex_too_complex("(a|b|c|d|e|f|g|h|i|j|k|l|m|n|o|p|q|r|s|t|u|v|w|x|y|z){1,300}"));
  EXPECT_TRUE(regex_too_complex("(a?b){1,1500}"));
  // Inside a bracket expression braces and operators are plain characters.
  EXPECT_FALSE(regex_too_complex("[{1,30000}]+"));
}

TEST(RegexGuard, UnbalancedParenthesesDoNotConfuseIt) {
  for (const char* re : {")", "a)", "(((", "(a|b", "a)+", "((a)))"}) EXPECT_FALSE(regex_too_complex(re)) << re;
  EXPECT_TRUE(regex_too_complex("((a{1,300}){1,300}"));
}

}  // namespace
}  // namespace erkit::common
