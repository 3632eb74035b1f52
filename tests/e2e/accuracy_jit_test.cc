// End-to-end tests of issue 15 item 7 (JIT and dynamic code): functions described with
// collector_func_load and a JIT's jitdump functions are disassembled from the code bytes the
// experiment recorded, their callers are found through code without CFI, and perf's jitdump
// file names the JIT's functions.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "collect_fixture.h"
#include "e2e_util.h"

namespace erkit::e2e {
namespace {

class AccuracyJit : public CollectTest {};

// The names above the `*` row of a csingle panel (its callers), as accuracy_test.cc parses it.
std::vector<std::string> callers_in(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  auto numeric = [](const std::string& t) {
    return !t.empty() && t.find_first_not_of("0123456789.-") == std::string::npos;
  };
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::vector<std::string> tokens;
    for (std::string t; l >> t;) tokens.push_back(t);
    if (tokens.size() < 2 || !numeric(tokens[0])) continue;
    size_t k = 0;
    while (k < tokens.size() && numeric(tokens[k])) ++k;
    if (k == tokens.size()) continue;
    std::string name = tokens[k];
    for (size_t j = k + 1; j < tokens.size(); ++j) name += " " + tokens[j];
    if (name[0] == '*') break;
    out.push_back(name);
  }
  return out;
}

// Instruction lines of a disasm listing: "[  20]  <addr>:  mnemonic ..." with their source line.
std::vector<std::string> instruction_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.find("]") != std::string::npos && line.find(":  ") != std::string::npos && line.find('[') != std::string::npos)
      out.push_back(line);
  return out;
}

TEST_F(AccuracyJit, JitdumpAndDynamicFunctionsAreNamedDisassembledAndKeepTheirCallers) {
  auto c = collect(program("acc_jit") + " 300 code.bin");
  ASSERT_EQ(c.status, 0) << c.err;
  // The collector copied the JIT's jitdump file (it names jit_hash; no perf map does).
  ASSERT_TRUE(exists("test.1.er/jit.dump")) << c.err;
  auto rows = user_seconds("test.1.er");
  // Both copies ran ~0.3 s of CPU; a sample is 10 ms.
  EXPECT_GT(rows["dyn_hash"], 0.1) << er_print("-functions test.1.er").out;
  EXPECT_GT(rows["jit_hash"], 0.1) << er_print("-functions test.1.er").out;
  auto e = open("test.1.er");
  ASSERT_TRUE(e);
  const reader::DynamicFunction* jit = nullptr;
  for (const auto& f : e->dynamic_functions)
    if (f.name == "jit_hash") jit = &f;
  ASSERT_TRUE(jit);
  EXPECT_EQ(jit->size, 256u);
  EXPECT_EQ(jit->source, "jit_hash.js");
  EXPECT_EQ(jit->line_at(0), 20u);
  EXPECT_EQ(jit->line_at(16), 21u);
  std::string bytes = read("code.bin");
  ASSERT_EQ(bytes.size(), 256u);
  ASSERT_EQ(jit->code.size(), 256u);
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), jit->code.begin(),
                         [](char a, uint8_t b) { return uint8_t(a) == b; }));

  // Disassembly from the recorded bytes (before: "<dynamic functions>: No such file").
  for (const auto& [fn, first, second, object] :
       {std::tuple{"dyn_hash", "[  30]", "[  31]", "<dynamic functions>"},
        std::tuple{"jit_hash", "[  20]", "[  21]", "<JIT-compiled code>"}}) {
    auto d = er_print(std::string("-disasm ") + fn + " test.1.er");
    ASSERT_EQ(d.status, 0) << d.out << d.err;
    EXPECT_NE(d.out.find(std::string("Load Object: ") + object), std::string::npos) << d.out;
    auto ins = instruction_lines(d.out);
    ASSERT_GE(ins.size(), 10u) << d.out;
    EXPECT_NE(ins[0].find(first), std::string::npos) << d.out;
    bool has_second = false, has_ret = false;
    for (const auto& l : ins) {
      has_second |= l.find(second) != std::string::npos;
      has_ret |= l.find("ret") != std::string::npos;
    }
    EXPECT_TRUE(has_second) << d.out;
    EXPECT_TRUE(has_ret) << d.out;  // the template's own code, decoded
  }

  // Callers through code without CFI (before: <Total> -> <Unknown> -> jit_hash).
  for (const auto& [fn, caller] : {std::pair{"dyn_hash", "call_dyn"}, std::pair{"jit_hash", "call_jit"}}) {
    auto p = er_print(std::string("-metrics i.user -cmetrics a.user -csingle ") + fn + " test.1.er");
    ASSERT_EQ(p.status, 0) << p.err;
    auto callers = callers_in(p.out);
    EXPECT_EQ(callers, std::vector<std::string>{caller}) << p.out;
    auto q = er_print(std::string("-metrics i.user -cmetrics a.user -csingle ") + caller + " test.1.er");
    auto up = callers_in(q.out);
    EXPECT_EQ(up, std::vector<std::string>{"main"}) << q.out;
  }
  // Nearly every sample of the copies has a complete stack: <Unknown> holds almost nothing.
  EXPECT_LT(rows["<Unknown>"], 0.05) << er_print("-functions test.1.er").out;
}

TEST_F(AccuracyJit, PerfMapFunctionsSayTheirCodeWasNotRecorded) {
  ASSERT_EQ(collect("-S off " + program("lifecycle_api") + " truth.txt").status, 0);
  auto d = er_print("-disasm jit_compute test.1.er");
  EXPECT_NE(d.status, 0);
  EXPECT_NE(d.err.find("its code was not recorded"), std::string::npos) << d.out << d.err;
  auto ok = er_print("-disasm dyn_compute test.1.er");
  ASSERT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(ok.out.find("[  10]"), std::string::npos) << ok.out;
}

}  // namespace
}  // namespace erkit::e2e
