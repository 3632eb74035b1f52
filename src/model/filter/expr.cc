// Expr: binding of name sets, per-event evaluation, canonical printing.
#include <algorithm>
#include <cstdio>
#include <regex.h>

#include "filter.h"
#include "parser.h"

namespace erkit::filter {

FunctionNames::~FunctionNames() = default;

std::string ParseError::caret_line() const { return std::string(offset, ' ') + "^"; }

std::string ParseError::display() const { return text + "\n" + caret_line() + "\n" + message; }

namespace detail {
namespace {

// A set operand viewed without copying: exactly one representation is active.
struct SetRef {
  enum Kind : uint8_t { Scalar, U32, I64, Bits } kind = Scalar;
  int64_t scalar = 0;
  const uint32_t* u32 = nullptr;
  const int64_t* i64 = nullptr;  // sorted
  const uint64_t* bits = nullptr;
  size_t n = 0;                  // elements (U32/I64) or words (Bits)

  bool contains(int64_t v) const {
    switch (kind) {
      case Scalar: return v == scalar;
      case U32:
        if (v < 0 || v > UINT32_MAX) return false;
        return std::find(u32, u32 + n, static_cast<uint32_t>(v)) != u32 + n;
      case I64: return std::binary_search(i64, i64 + n, v);
      case Bits: {
        if (v < 0) return false;
        const uint64_t w = static_cast<uint64_t>(v) >> 6;
        return w < n && ((bits[w] >> (v & 63)) & 1);
      }
    }
    return false;
  }
  size_t size() const { return kind == Scalar ? 1 : n; }
  // Calls f(element) until it returns false; returns false if stopped early.
  template <class F>
  bool each(F&& f) const {
    switch (kind) {
      case Scalar: return f(scalar);
      case U32:
        for (size_t i = 0; i < n; ++i)
          if (!f(static_cast<int64_t>(u32[i]))) return false;
        return true;
      case I64:
        for (size_t i = 0; i < n; ++i)
          if (!f(i64[i])) return false;
        return true;
      case Bits: break;  // Name sets are iterated through their member vector instead.
    }
    return true;
  }
};

int64_t field(Field f, const EventView& e) {
  switch (f) {
    case Field::Thrid: return static_cast<int64_t>(e.thrid);
    case Field::Lwpid: return static_cast<int64_t>(e.lwpid);
    case Field::Cpuid: return e.cpuid;
    case Field::Leaf: return e.stack_funcs.empty() ? -1 : static_cast<int64_t>(e.stack_funcs[0]);
    case Field::Tstamp: return static_cast<int64_t>(e.tstamp_ns);
    case Field::Sample: return e.sample;
    case Field::Expid: return e.expid;
    case Field::Pid: return e.pid;
    case Field::Rank: return e.rank;
    case Field::Vaddr: return static_cast<int64_t>(e.vaddr);
    case Field::Paddr: return static_cast<int64_t>(e.paddr);
    case Field::Dobj: return e.dobj;
  }
  return 0;
}

// For a set node used on the left of IN we need to iterate it; for name sets iterate members.
SetRef set_of(const Program& p, uint32_t idx, const EventView& e, bool for_iteration) {
  const Node& n = p.nodes[idx];
  SetRef r;
  switch (n.op) {
    case Op::Stack:
      r.kind = SetRef::U32;
      r.u32 = e.stack_funcs.data();
      r.n = e.stack_funcs.size();
      return r;
    case Op::List:
      r.kind = SetRef::I64;
      r.i64 = p.lists[n.aux].data();
      r.n = p.lists[n.aux].size();
      return r;
    case Op::Fname:
    case Op::Dname: {
      const NameSet& ns = p.names[n.aux];
      if (for_iteration) {
        r.kind = SetRef::I64;
        r.i64 = ns.members.data();
        r.n = ns.members.size();
      } else {
        r.kind = SetRef::Bits;
        r.bits = ns.bits.data();
        r.n = ns.bits.size();
      }
      return r;
    }
    default:
      r.kind = SetRef::Scalar;
      r.scalar = eval_node(p, idx, e);
      return r;
  }
}

uint64_t u(int64_t v) { return static_cast<uint64_t>(v); }
int64_t s(uint64_t v) { return static_cast<int64_t>(v); }

}  // namespace

int64_t eval_node(const Program& p, uint32_t idx, const EventView& e) {
  const Node& n = p.nodes[idx];
  auto A = [&] { return eval_node(p, n.a, e); };
  auto B = [&] { return eval_node(p, n.b, e); };
  switch (n.op) {
    case Op::Const: return n.value;
    case Op::Field: return field(n.field, e);
    case Op::MemObj: return n.aux < e.memobj_idx.size() ? e.memobj_idx[n.aux] : -1;
    case Op::Neg: return s(0 - u(A()));
    case Op::Not: return A() == 0;
    case Op::BitNot: return ~A();
    // Arithmetic wraps (two's complement) instead of being undefined.
    case Op::Mul: return s(u(A()) * u(B()));
    case Op::Add: return s(u(A()) + u(B()));
    case Op::Sub: return s(u(A()) - u(B()));
    case Op::Div: {
      const int64_t a = A(), b = B();
      if (b == 0) return 0;  // documented: x / 0 == 0
      if (b == -1) return s(0 - u(a));
      return a / b;
    }
    case Op::Mod: {
      const int64_t a = A(), b = B();
      if (b == 0 || b == -1) return 0;
      return a % b;
    }
    case Op::Shl: {
      const int64_t a = A(), b = B();
      return (b < 0 || b > 63) ? 0 : s(u(a) << b);
    }
    case Op::Shr: {
      const int64_t a = A(), b = B();
      if (b < 0 || b > 63) return a < 0 ? -1 : 0;
      return a >> b;
    }
    case Op::Lt: return A() < B();
    case Op::Le: return A() <= B();
    case Op::Gt: return A() > B();
    case Op::Ge: return A() >= B();
    case Op::Eq: return A() == B();
    case Op::Ne: return A() != B();
    case Op::BitAnd: return A() & B();
    case Op::BitXor: return A() ^ B();
    case Op::BitOr: return A() | B();
    case Op::LogAnd: return A() != 0 && B() != 0;
    case Op::LogOr: return A() != 0 || B() != 0;
    case Op::Cond: return A() != 0 ? B() : eval_node(p, n.c, e);
    case Op::In: {
      const SetRef x = set_of(p, n.a, e, true);
      const SetRef y = set_of(p, n.b, e, false);
      return x.each([&](int64_t v) { return y.contains(v); });
    }
    case Op::SomeIn: {
      // Symmetric: iterate the cheaper side, probe the other.
      const bool a_bits = p.nodes[n.a].op == Op::Fname || p.nodes[n.a].op == Op::Dname;
      const SetRef x = set_of(p, n.a, e, !a_bits);
      const SetRef y = set_of(p, n.b, e, a_bits);
      const SetRef& it = a_bits ? y : x;
      const SetRef& probe = a_bits ? x : y;
      return !it.each([&](int64_t v) { return !probe.contains(v); });
    }
    case Op::Stack:
    case Op::List:
    case Op::Fname:
    case Op::Dname: return 0;  // sets never reach scalar context (rejected by the parser)
  }
  return 0;
}

namespace {

const char* op_text(Op op) {
  switch (op) {
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Mod: return "%";
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Shl: return "<<";
    case Op::Shr: return ">>";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::BitAnd: return "&";
    case Op::BitXor: return "^";
    case Op::BitOr: return "|";
    case Op::LogAnd: return "&&";
    case Op::LogOr: return "||";
    case Op::In: return "IN";
    case Op::SomeIn: return "SOME IN";
    default: return "?";
  }
}

const char* field_text(Field f) {
  switch (f) {
    case Field::Thrid: return "THRID";
    case Field::Lwpid: return "LWPID";
    case Field::Cpuid: return "CPUID";
    case Field::Leaf: return "LEAF";
    case Field::Tstamp: return "TSTAMP";
    case Field::Sample: return "SAMPLE";
    case Field::Expid: return "EXPID";
    case Field::Pid: return "PID";
    case Field::Rank: return "RANK";
    case Field::Vaddr: return "VADDR";
    case Field::Paddr: return "PADDR";
    case Field::Dobj: return "DOBJ";
  }
  return "?";
}

std::string quote(const std::string& s) {
  // The lexer reads \" and \\ as escapes and keeps any other backslash: a backslash is
  // doubled only where it would otherwise be read as one of those (before \ or ", or last).
  // (Printing "a\\b" for the pattern a\\b re-parsed as a\b: found by fuzz_filter, issue 11.)
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') out += "\\\"";
    else if (c == '\\' && (i + 1 == s.size() || s[i + 1] == '\\' || s[i + 1] == '"')) out += "\\\\";
    else out += c;
  }
  return out + "\"";
}

// Unary operators and the branches of ?: need no parentheses; leaving them out keeps the
// printed nesting no deeper than the parsed one, so to_string() output always re-parses.
void render(const Program& p, uint32_t idx, std::string& out, bool cond_branch = false) {
  const Node& n = p.nodes[idx];
  switch (n.op) {
    case Op::Const:
      // Negative constants only come from literals above INT64_MAX; hex keeps them one token.
      if (n.value < 0) {
        char buf[24];
        std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(n.value));
        out += buf;
      } else {
        out += std::to_string(n.value);
      }
      return;
    case Op::Field: out += field_text(n.field); return;
    case Op::MemObj: out += p.memobj_names[n.aux]; return;
    case Op::Stack: out += "STACK"; return;
    case Op::Fname:
    case Op::Dname:
      out += n.op == Op::Fname ? "FNAME(" : "DNAME(";
      out += quote(p.names[n.aux].pattern) + ")";
      return;
    case Op::List: {
      out += "(";
      const auto& l = p.lists[n.aux];
      for (size_t i = 0; i < l.size(); ++i) out += (i ? ", " : "") + std::to_string(l[i]);
      // A one-element list must stay a list when re-parsed.
      if (l.size() == 1) out += ", " + std::to_string(l[0]);
      out += ")";
      return;
    }
    case Op::Neg:
    case Op::Not:
    case Op::BitNot:
      out += n.op == Op::Neg ? "-" : n.op == Op::Not ? "!" : "~";
      render(p, n.a, out);
      return;
    case Op::Cond:
      if (!cond_branch) out += "(";
      render(p, n.a, out);
      out += " ? ";
      render(p, n.b, out, true);
      out += " : ";
      render(p, n.c, out, true);
      if (!cond_branch) out += ")";
      return;
    default:
      out += "(";
      render(p, n.a, out);
      out += " ";
      out += op_text(n.op);
      out += " ";
      render(p, n.b, out);
      out += ")";
      return;
  }
}

}  // namespace
}  // namespace detail

Expr::Expr() : p_(new detail::Program) {}
Expr::Expr(const Expr& o) : p_(new detail::Program(*o.p_)) {}
Expr::Expr(Expr&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
Expr& Expr::operator=(const Expr& o) {
  if (this != &o) *p_ = *o.p_;
  return *this;
}
Expr& Expr::operator=(Expr&& o) noexcept {
  std::swap(p_, o.p_);
  return *this;
}
Expr::~Expr() { delete p_; }

std::variant<Expr, ParseError> Expr::parse(std::string_view text, const ParseOptions& opts) {
  auto r = detail::parse_program(text, opts);
  if (auto* err = std::get_if<ParseError>(&r)) return std::move(*err);
  Expr e;
  *e.p_ = std::move(std::get<detail::Program>(r));
  return e;
}

bool Expr::bind(const FunctionNames& funcs, const FunctionNames* dobjs, std::string* err) {
  bool ok = true;
  for (auto& ns : p_->names) {
    ns.bits.clear();
    ns.members.clear();
    const FunctionNames* table = ns.data ? dobjs : &funcs;
    if (!table) continue;  // no data-object info: DNAME is the empty set
    regex_t re;
    if (regcomp(&re, ns.pattern.c_str(), REG_EXTENDED) != 0) {
      if (err) *err = "bad regular expression \"" + ns.pattern + "\"";
      ok = false;
      continue;
    }
    const size_t count = table->count();
    ns.bits.assign((count + 63) / 64, 0);
    std::string name;
    for (size_t id = 0; id < count; ++id) {
      name.assign(table->name(static_cast<uint32_t>(id)));
      regmatch_t m;
      // Leftmost-longest matching: a whole-name match exists iff the match found spans it.
      if (regexec(&re, name.c_str(), 1, &m, 0) == 0 && m.rm_so == 0 &&
          static_cast<size_t>(m.rm_eo) == name.size()) {
        ns.bits[id >> 6] |= uint64_t{1} << (id & 63);
        ns.members.push_back(static_cast<int64_t>(id));
      }
    }
    regfree(&re);
  }
  return ok;
}

int64_t Expr::eval(const EventView& e) const { return detail::eval_node(*p_, p_->root, e); }

bool Expr::matches(const EventView& e) const {
  if (p_->dataspace && !e.has_dataspace) return false;
  return eval(e) != 0;
}

std::string Expr::to_string() const {
  std::string out;
  detail::render(*p_, p_->root, out);
  return out;
}

bool Expr::uses_dataspace() const { return p_->dataspace; }

bool Expr::uses_functions() const {
  return std::any_of(p_->names.begin(), p_->names.end(), [](const auto& n) { return !n.data; });
}

}  // namespace erkit::filter
