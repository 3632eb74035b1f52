#include "parser.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <regex.h>

#include "common/regex_guard.h"
#include "lexer.h"

namespace erkit::filter::detail {

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
         });
}

struct FieldKw {
  const char* name;
  Field field;
  bool dataspace;
};
constexpr FieldKw kFields[] = {
    {"THRID", Field::Thrid, false}, {"LWPID", Field::Lwpid, false}, {"CPUID", Field::Cpuid, false},
    {"LEAF", Field::Leaf, false},   {"TSTAMP", Field::Tstamp, false}, {"SAMPLE", Field::Sample, false},
    {"EXPID", Field::Expid, false}, {"PID", Field::Pid, false},     {"VADDR", Field::Vaddr, true},
    {"PADDR", Field::Paddr, true},  {"DOBJ", Field::Dobj, true},   {"RANK", Field::Rank, false},
};

struct BinOp {
  Tok tok;
  Op op;
  int prec;
};
// C precedence, higher binds tighter. IN / SOME IN sit with the relational operators.
constexpr BinOp kBinOps[] = {
    {Tok::OrOr, Op::LogOr, 1},  {Tok::AndAnd, Op::LogAnd, 2}, {Tok::Pipe, Op::BitOr, 3},
    {Tok::Caret, Op::BitXor, 4}, {Tok::Amp, Op::BitAnd, 5},    {Tok::EqEq, Op::Eq, 6},
    {Tok::Ne, Op::Ne, 6},        {Tok::Lt, Op::Lt, 7},         {Tok::Le, Op::Le, 7},
    {Tok::Gt, Op::Gt, 7},        {Tok::Ge, Op::Ge, 7},         {Tok::Shl, Op::Shl, 8},
    {Tok::Shr, Op::Shr, 8},      {Tok::Plus, Op::Add, 9},      {Tok::Minus, Op::Sub, 9},
    {Tok::Star, Op::Mul, 10},    {Tok::Slash, Op::Div, 10},    {Tok::Percent, Op::Mod, 10},
};
constexpr int kInPrec = 7;

struct Failure {
  std::string message;
  size_t offset;
};

class Parser {
 public:
  Parser(std::string_view text, const ParseOptions& opts) : lex_(text), opts_(opts) {
    prog_.memobj_names = opts.memobj_names;
    advance();
  }

  std::optional<Failure> run() {
    auto root = ternary();
    if (!root) return fail_;
    if (tok_.kind == Tok::Error) return Failure{tok_.text, tok_.offset};
    if (tok_.kind != Tok::End) return Failure{"unexpected " + describe(tok_) + " after expression", tok_.offset};
    if (prog_.nodes[*root].is_set)
      return Failure{"a set cannot be used as a filter value (use IN or SOME IN)", root_offset_};
    prog_.root = *root;
    return std::nullopt;
  }
  Program take() { return std::move(prog_); }

 private:
  using R = std::optional<uint32_t>;

  void advance() { tok_ = lex_.next(); }
  std::string describe(const Token& t) const {
    if (t.kind == Tok::Ident) return "'" + t.text + "'";
    if (t.kind == Tok::Int) return "integer constant";
    if (t.kind == Tok::String) return "string";
    if (t.kind == Tok::End) return "end of expression";
    return tok_name(t.kind);
  }
  R error(std::string msg, size_t off) {
    if (!fail_) fail_ = Failure{std::move(msg), off};
    return std::nullopt;
  }
  R lex_error_or(std::string msg) {
    if (tok_.kind == Tok::Error) return error(tok_.text, tok_.offset);
    return error(std::move(msg), tok_.offset);
  }

  R add(Node n, size_t off) {
    uint32_t depth = 1;
    bool cnst = n.op == Op::Const;
    if (n.op != Op::Const && n.op != Op::Field && n.op != Op::MemObj && n.op != Op::Stack &&
        n.op != Op::List && n.op != Op::Fname && n.op != Op::Dname) {
      cnst = true;
      for (uint32_t ch : {n.a, n.b, n.c}) {
        if (ch == kNone) continue;
        depth = std::max(depth, prog_.nodes[ch].depth + 1);
        cnst = cnst && prog_.nodes[ch].is_const;
      }
    }
    // Long left-associative chains (1+1+1+...) are built iteratively; cap the tree depth
    // too so the recursive evaluator cannot overflow the stack.
    if (depth > opts_.max_depth) return error("expression nested too deeply", off);
    n.depth = depth;
    n.is_const = cnst;
    prog_.nodes.push_back(n);
    return static_cast<uint32_t>(prog_.nodes.size() - 1);
  }
  Node make(Op op, uint32_t a = kNone, uint32_t b = kNone, uint32_t c = kNone) {
    Node n;
    n.op = op;
    n.a = a;
    n.b = b;
    n.c = c;
    return n;
  }
  bool is_set(uint32_t i) const { return prog_.nodes[i].is_set; }

  R need_scalar(R r, size_t off) {
    if (r && is_set(*r)) return error("a set cannot be used here (expected a scalar)", off);
    return r;
  }

  struct DepthGuard {
    Parser& p;
    bool ok;
    explicit DepthGuard(Parser& pp) : p(pp), ok(++pp.depth_ <= pp.opts_.max_depth) {}
    ~DepthGuard() { --p.depth_; }
  };

  R ternary() {
    DepthGuard g(*this);
    if (!g.ok) return error("expression nested too deeply", tok_.offset);
    const size_t off = tok_.offset;
    R c = binary(1);
    if (!c || tok_.kind != Tok::Question) return c;
    if (!need_scalar(c, off)) return std::nullopt;
    const size_t qoff = tok_.offset;
    advance();
    const size_t aoff = tok_.offset;
    R a = need_scalar(ternary(), aoff);
    if (!a) return a;
    if (tok_.kind != Tok::Colon) return lex_error_or("expected ':' of '?:' begun here, found " + describe(tok_));
    (void)qoff;
    advance();
    const size_t boff = tok_.offset;
    R b = need_scalar(ternary(), boff);
    if (!b) return b;
    return add(make(Op::Cond, *c, *a, *b), off);
  }

  const BinOp* find_binop() const {
    for (const auto& b : kBinOps)
      if (b.tok == tok_.kind) return &b;
    return nullptr;
  }
  bool at_in() const { return tok_.kind == Tok::Ident && (iequals(tok_.text, "IN") || iequals(tok_.text, "SOME")); }

  R binary(int min_prec) {
    const size_t loff = tok_.offset;
    R lhs = unary();
    if (!lhs) return lhs;
    for (;;) {
      const BinOp* bop = find_binop();
      const bool in = !bop && at_in();
      const int prec = in ? kInPrec : bop ? bop->prec : 0;
      if ((!bop && !in) || prec < min_prec) return lhs;
      const size_t opoff = tok_.offset;
      Op op = in ? Op::In : bop->op;
      if (in && iequals(tok_.text, "SOME")) {
        advance();
        if (!(tok_.kind == Tok::Ident && iequals(tok_.text, "IN"))) return lex_error_or("expected IN after SOME");
        op = Op::SomeIn;
      }
      advance();
      const size_t roff = tok_.offset;
      R rhs = binary(prec + 1);
      if (!rhs) return rhs;
      if (op == Op::In || op == Op::SomeIn) {
        lhs = add(make(op, *lhs, *rhs), opoff);
      } else if ((op == Op::Eq || op == Op::Ne) && (is_set(*lhs) || is_set(*rhs))) {
        // scalar == set means membership; comparing two sets has no C meaning.
        if (is_set(*lhs) && is_set(*rhs)) return error("cannot compare two sets (use IN or SOME IN)", opoff);
        R in_node = is_set(*rhs) ? add(make(Op::In, *lhs, *rhs), opoff) : add(make(Op::In, *rhs, *lhs), opoff);
        if (!in_node) return in_node;
        lhs = op == Op::Eq ? in_node : add(make(Op::Not, *in_node), opoff);
      } else {
        if (is_set(*lhs)) return error("a set cannot be used here (expected a scalar)", loff);
        if (is_set(*rhs)) return error("a set cannot be used here (expected a scalar)", roff);
        lhs = add(make(op, *lhs, *rhs), opoff);
      }
      if (!lhs) return lhs;
    }
  }

  R unary() {
    const size_t off = tok_.offset;
    Op op;
    switch (tok_.kind) {
      case Tok::Minus: op = Op::Neg; break;
      case Tok::Bang: op = Op::Not; break;
      case Tok::Tilde: op = Op::BitNot; break;
      case Tok::Plus: {
        DepthGuard g(*this);
        if (!g.ok) return error("expression nested too deeply", tok_.offset);
        advance();
        return need_scalar(unary(), tok_.offset);
      }
      default: return primary();
    }
    DepthGuard g(*this);
    if (!g.ok) return error("expression nested too deeply", tok_.offset);
    advance();
    const size_t aoff = tok_.offset;
    R a = need_scalar(unary(), aoff);
    if (!a) return a;
    return add(make(op, *a), off);
  }

  R paren_or_list() {
    const size_t off = tok_.offset;
    advance();
    R first = ternary();
    if (!first) return first;
    if (tok_.kind == Tok::RParen) {
      advance();
      return first;
    }
    if (tok_.kind != Tok::Comma) return lex_error_or("expected ')' or ',', found " + describe(tok_));
    std::vector<int64_t> vals;
    auto take = [&](uint32_t idx, size_t eoff) -> bool {
      if (is_set(idx) || !prog_.nodes[idx].is_const) {
        error("set elements must be integer constants", eoff);
        return false;
      }
      vals.push_back(eval_node(prog_, idx, EventView{}));
      return true;
    };
    if (!take(*first, off + 1)) return std::nullopt;
    while (tok_.kind == Tok::Comma) {
      advance();
      const size_t eoff = tok_.offset;
      R e = ternary();
      if (!e || !take(*e, eoff)) return std::nullopt;
    }
    if (tok_.kind != Tok::RParen) return lex_error_or("expected ')' to close the list, found " + describe(tok_));
    advance();
    std::sort(vals.begin(), vals.end());
    vals.erase(std::unique(vals.begin(), vals.end()), vals.end());
    prog_.lists.push_back(std::move(vals));
    Node n = make(Op::List);
    n.is_set = true;
    n.aux = static_cast<uint32_t>(prog_.lists.size() - 1);
    return add(n, off);
  }

  R name_ctor(bool data) {
    const size_t off = tok_.offset;
    advance();
    if (tok_.kind != Tok::LParen) return lex_error_or(std::string("expected '(' after ") + (data ? "DNAME" : "FNAME"));
    advance();
    if (tok_.kind != Tok::String) return lex_error_or("expected a quoted regular expression");
    std::string err;
    if (!regex_valid(tok_.text, &err)) return error("bad regular expression: " + err, tok_.offset);
    NameSet ns;
    ns.pattern = tok_.text;
    ns.data = data;
    advance();
    if (tok_.kind != Tok::RParen) return lex_error_or("expected ')' after the regular expression");
    advance();
    prog_.names.push_back(std::move(ns));
    if (data) prog_.dataspace = true;
    Node n = make(data ? Op::Dname : Op::Fname);
    n.is_set = true;
    n.aux = static_cast<uint32_t>(prog_.names.size() - 1);
    return add(n, off);
  }

  R primary() {
    const size_t off = tok_.offset;
    switch (tok_.kind) {
      case Tok::Int: {
        Node n = make(Op::Const);
        n.value = tok_.value;
        advance();
        return add(n, off);
      }
      case Tok::LParen: return paren_or_list();
      case Tok::Ident: break;
      case Tok::String: return error("a string is only allowed inside FNAME() or DNAME()", off);
      default: return lex_error_or("expected an operand, found " + describe(tok_));
    }
    const std::string& id = tok_.text;
    for (const auto& f : kFields) {
      if (iequals(id, f.name)) {
        Node n = make(Op::Field);
        n.field = f.field;
        if (f.dataspace) prog_.dataspace = true;
        advance();
        return add(n, off);
      }
    }
    if (iequals(id, "STACK")) {
      Node n = make(Op::Stack);
      n.is_set = true;
      advance();
      return add(n, off);
    }
    if (iequals(id, "FNAME")) return name_ctor(false);
    if (iequals(id, "DNAME")) return name_ctor(true);
    for (size_t i = 0; i < opts_.memobj_names.size(); ++i) {
      if (iequals(id, opts_.memobj_names[i])) {
        Node n = make(Op::MemObj);
        n.aux = static_cast<uint32_t>(i);
        prog_.dataspace = true;
        advance();
        return add(n, off);
      }
    }
    if (iequals(id, "IN") || iequals(id, "SOME")) return error("expected an operand before " + id, off);
    return error("unknown keyword '" + id + "'", off);
  }

  Lexer lex_;
  const ParseOptions& opts_;
  Token tok_;
  Program prog_;
  std::optional<Failure> fail_;
  size_t depth_ = 0;
  size_t root_offset_ = 0;
};

}  // namespace

bool regex_valid(const std::string& pattern, std::string* err) {
  // Nested repetitions make glibc's compiled pattern grow exponentially (issue 11: fuzzing).
  if (common::regex_too_complex(pattern)) {
    if (err) *err = common::kRegexTooComplex;
    return false;
  }
  regex_t re;
  const int rc = regcomp(&re, pattern.c_str(), REG_EXTENDED);
  if (rc != 0) {
    char buf[256];
    regerror(rc, &re, buf, sizeof buf);
    if (err) *err = buf;
    return false;
  }
  regfree(&re);
  return true;
}

std::variant<Program, ParseError> parse_program(std::string_view text, const ParseOptions& opts) {
  Parser p(text, opts);
  if (auto f = p.run()) return ParseError{f->message, std::min(f->offset, text.size()), std::string(text)};
  return p.take();
}

}  // namespace erkit::filter::detail
