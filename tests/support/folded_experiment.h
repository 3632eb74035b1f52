// Synthetic experiments from folded stacks, for model and view tests:
//   "main;solve;kernel 10"  = 10 clock samples of 10 ms User CPU with main the root.
// The function names become real functions of a small shared object compiled for the test,
// so stacks are symbolised by the same elfutils path as real experiments.
#pragma once
#include <string>
#include <vector>

namespace erkit::testing {

struct FoldedOptions {
  uint64_t ns_per_sample = 10000000;
  uint32_t tid = 1;
  int metric = 0;  // microstate index (0 = user) that receives the time
};

// Creates `dir` (must not exist). Returns "" on success or an error message.
std::string write_folded_experiment(const std::string& dir, const std::vector<std::string>& folded,
                                    const FoldedOptions& opts = {});

// An experiment whose stacks are addresses (ELF virtual addresses) in `object`, mapped with
// bias 0, leaf first: one 10 ms User CPU sample per stack. For naming tests on real objects.
std::string write_pc_experiment(const std::string& dir, const std::string& object,
                                const std::vector<std::vector<uint64_t>>& stacks);

// A fresh temporary directory path (not created) under /tmp.
std::string temp_path(const std::string& stem);

}  // namespace erkit::testing
