// Filter expressions (er_print `filters`, memory-object index expressions): parse once,
// bind against the function table once, evaluate per event without allocating.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace erkit::filter {

// One event as the evaluator sees it. Spans must stay valid for the duration of eval().
struct EventView {
  uint32_t expid = 0, pid = 0;
  int64_t rank = -1;  // MPI rank of the event's experiment, -1 if not an MPI process
  uint64_t thrid = 0, lwpid = 0;
  int32_t cpuid = 0;
  uint64_t tstamp_ns = 0;  // since the start of the event's experiment
  uint32_t sample = 0;
  std::span<const uint32_t> stack_funcs;  // function ids, leaf first
  // Dataspace part: only HWC packets with backtracking data have it. Expressions that use
  // VADDR/PADDR/DOBJ/DNAME/memory objects reject events without it (manual rule).
  bool has_dataspace = false;
  uint64_t vaddr = 0, paddr = 0;
  int64_t dobj = -1;                   // data object id, -1 = <Unknown>
  std::span<const int64_t> memobj_idx;  // index per memory-object type, in ParseOptions order
};

// Name table for FNAME()/DNAME(): ids are 0..count()-1.
class FunctionNames {
 public:
  virtual ~FunctionNames();
  virtual size_t count() const = 0;
  virtual std::string_view name(uint32_t id) const = 0;
};

struct ParseError {
  std::string message;
  size_t offset = 0;  // byte offset of the offending token in text
  std::string text;   // the expression that failed
  std::string caret_line() const;  // spaces then '^' under the offending token
  std::string display() const;     // text, newline, caret line, newline, message
};

struct ParseOptions {
  // Memory-object type names usable as operands (case-insensitive); operand k reads
  // EventView::memobj_idx[k].
  std::vector<std::string> memobj_names;
  size_t max_depth = 256;  // nesting cap: keeps parser and evaluator recursion bounded
};

namespace detail {
struct Program;
}

class Expr {
 public:
  static std::variant<Expr, ParseError> parse(std::string_view text, const ParseOptions& opts = {});

  Expr(const Expr&);
  Expr(Expr&&) noexcept;
  Expr& operator=(const Expr&);
  Expr& operator=(Expr&&) noexcept;
  ~Expr();

  // Resolve FNAME() against funcs and DNAME() against dobjs (nullptr: no data-object
  // info, DNAME sets are empty). Call again whenever the tables change.
  // Returns false (with *err) only if a regex cannot be used; sets are then empty.
  bool bind(const FunctionNames& funcs, const FunctionNames* dobjs, std::string* err);
  bool bind(const FunctionNames& funcs, std::string* err) { return bind(funcs, nullptr, err); }

  int64_t eval(const EventView& e) const;
  bool matches(const EventView& e) const;
  std::string to_string() const;  // canonical, fully parenthesised; parses back to the same
  bool uses_dataspace() const;
  bool uses_functions() const;  // has FNAME(): needs bind()

 private:
  Expr();
  detail::Program* p_;
};

}  // namespace erkit::filter
