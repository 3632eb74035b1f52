// Internal compiled form of a filter expression: a flat node array (children before parents)
// so copies are cheap and evaluation touches contiguous memory.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace erkit::filter::detail {

enum class Op : uint8_t {
  // scalars
  Const, Field, MemObj,
  Neg, Not, BitNot,
  Mul, Div, Mod, Add, Sub, Shl, Shr,
  Lt, Le, Gt, Ge, Eq, Ne,
  BitAnd, BitXor, BitOr, LogAnd, LogOr, Cond,
  In, SomeIn,             // a, b: set or scalar operands
  // sets
  Stack, List, Fname, Dname,
};

enum class Field : uint8_t { Thrid, Lwpid, Cpuid, Leaf, Tstamp, Sample, Expid, Pid, Vaddr, Paddr, Dobj, Rank };

constexpr uint32_t kNone = UINT32_MAX;

struct Node {
  Op op = Op::Const;
  Field field = Field::Thrid;
  bool is_set = false;
  bool is_const = false;  // no event-dependent operands: list elements must be
  uint32_t a = kNone, b = kNone, c = kNone;  // child node indices
  uint32_t aux = kNone;  // List: lists index; Fname/Dname: patterns index; MemObj: slot
  uint32_t depth = 1;
  int64_t value = 0;     // Const
};

struct NameSet {
  std::string pattern;          // regex as written
  bool data = false;            // DNAME
  std::vector<uint64_t> bits;   // membership bitset over ids (filled by bind)
  std::vector<int64_t> members; // sorted ids, for iterating the set
};

struct Program {
  std::vector<Node> nodes;
  uint32_t root = kNone;
  std::vector<std::vector<int64_t>> lists;  // sorted, unique constants
  std::vector<NameSet> names;
  std::vector<std::string> memobj_names;
  bool dataspace = false;
};

int64_t eval_node(const Program& p, uint32_t idx, const struct EventViewFwd* dummy);

}  // namespace erkit::filter::detail
