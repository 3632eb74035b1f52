// Helpers shared by the filter tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "filter.h"

namespace erkit::filter::testing {

class VecNames : public FunctionNames {
 public:
  explicit VecNames(std::vector<std::string> n) : names_(std::move(n)) {}
  size_t count() const override { return names_.size(); }
  std::string_view name(uint32_t id) const override { return names_[id]; }

 private:
  std::vector<std::string> names_;
};

inline Expr must_parse(std::string_view text, const ParseOptions& o = {}) {
  auto r = Expr::parse(text, o);
  if (auto* e = std::get_if<ParseError>(&r)) {
    ADD_FAILURE() << "parse failed: " << e->display();
    return std::get<Expr>(Expr::parse("0"));
  }
  return std::get<Expr>(std::move(r));
}

inline ParseError must_fail(std::string_view text, const ParseOptions& o = {}) {
  auto r = Expr::parse(text, o);
  if (auto* e = std::get_if<ParseError>(&r)) return *e;
  ADD_FAILURE() << "expected a parse error for: " << text;
  return {};
}

inline int64_t eval_const(std::string_view text) { return must_parse(text).eval(EventView{}); }

}  // namespace erkit::filter::testing
