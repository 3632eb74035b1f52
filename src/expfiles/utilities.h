// The command-line logic of er_cp, er_mv and er_rm (seed-spec §11), as functions so the tools'
// mains stay one line and the rules are unit-tested:
//   er_cp [-V] exp1 exp2          er_cp [-V] exp-list directory
//   er_mv [-V] exp1 exp2          er_mv [-V] exp-list directory
//   er_rm [-f] [-V] exp-list
// Every operand is checked before anything is changed; an operand that is not an experiment or
// an experiment group is refused, never touched. Messages go to `err` as "<tool>: ...".
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace erkit::expfiles {

enum class TransferMode { Copy, Move };

// Returns the process exit status (0 success, 1 error, 2 usage).
int run_transfer(TransferMode mode, const std::vector<std::string>& args, FILE* out, FILE* err);
int run_remove(const std::vector<std::string>& args, FILE* out, FILE* err);

}  // namespace erkit::expfiles
