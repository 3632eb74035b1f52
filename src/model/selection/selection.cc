#include "selection.h"

#include <algorithm>
#include <cctype>

namespace erkit::selection {

RangeSet RangeSet::all_values() {
  RangeSet r;
  r.all_ = true;
  return r;
}

void RangeSet::add(int64_t lo, int64_t hi) {
  if (all_) return;
  if (lo > hi) std::swap(lo, hi);
  // Insert then coalesce overlapping or adjacent ranges; lists are short.
  ranges_.push_back({lo, hi});
  std::sort(ranges_.begin(), ranges_.end(), [](const Range& a, const Range& b) { return a.lo < b.lo; });
  std::vector<Range> merged;
  for (const Range& r : ranges_) {
    if (!merged.empty() && r.lo <= merged.back().hi + 1) merged.back().hi = std::max(merged.back().hi, r.hi);
    else merged.push_back(r);
  }
  ranges_ = std::move(merged);
}

void RangeSet::add(const RangeSet& o) {
  if (o.all_) {
    all_ = true;
    ranges_.clear();
    return;
  }
  for (const Range& r : o.ranges_) add(r.lo, r.hi);
}

bool RangeSet::contains(int64_t v) const {
  if (all_) return true;
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), v, [](int64_t x, const Range& r) { return x < r.lo; });
  return it != ranges_.begin() && v <= std::prev(it)->hi;
}

std::string RangeSet::to_string(std::optional<int64_t> max_value) const {
  if (all_) {
    if (!max_value) return "all";
    if (*max_value < 1) return "";
    return *max_value == 1 ? "1" : "1-" + std::to_string(*max_value);
  }
  std::string out;
  for (const Range& r : ranges_) {
    if (!out.empty()) out += ',';
    out += std::to_string(r.lo);
    if (r.hi != r.lo) out += '-' + std::to_string(r.hi);
  }
  return out;
}

std::string SelectionSpec::to_string() const {
  std::string out;
  for (const auto& t : terms) {
    if (!out.empty()) out += '+';
    if (t.experiments) out += t.experiments->to_string() + ':';
    out += t.objects.to_string();
  }
  return out;
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  std::variant<SelectionSpec, SelectionError> run() {
    SelectionSpec spec;
    skip_ws();
    if (pos_ >= s_.size()) return SelectionError{"empty selection list", pos_};
    for (;;) {
      SelectionTerm term;
      RangeSet first;
      if (!list(first)) return *err_;
      skip_ws();
      if (peek() == ':') {
        ++pos_;
        term.experiments = std::move(first);
        if (!list(term.objects)) return *err_;
        skip_ws();
      } else {
        term.objects = std::move(first);
      }
      spec.terms.push_back(std::move(term));
      if (peek() == '+') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size()) return SelectionError{std::string("unexpected '") + s_[pos_] + "'", pos_};
      return spec;
    }
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  // The manual says "no blanks", yet its own example reads "5, 6": accept blanks.
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool fail(std::string m, size_t at) {
    if (!err_) err_ = SelectionError{std::move(m), at};
    return false;
  }
  bool number(int64_t& v) {
    skip_ws();
    const size_t start = pos_;
    v = 0;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      if (v > (INT64_MAX - 9) / 10) return fail("number too large", start);
      v = v * 10 + (s_[pos_] - '0');
      ++pos_;
    }
    if (pos_ == start) {
      if (pos_ >= s_.size()) return fail("expected a number or 'all' at end of list", pos_);
      return fail(std::string("expected a number or 'all', found '") + s_[pos_] + "'", pos_);
    }
    return true;
  }
  bool list(RangeSet& out) {
    skip_ws();
    if (s_.substr(pos_, 3) == "all" &&
        (pos_ + 3 >= s_.size() || !std::isalnum(static_cast<unsigned char>(s_[pos_ + 3])))) {
      pos_ += 3;
      out = RangeSet::all_values();
      return true;
    }
    for (;;) {
      const size_t at = pos_;
      int64_t lo, hi;
      if (!number(lo)) return false;
      hi = lo;
      skip_ws();
      if (peek() == '-') {
        ++pos_;
        if (!number(hi)) return false;
        if (hi < lo) return fail("range " + std::to_string(lo) + "-" + std::to_string(hi) + " is backwards", at);
      }
      out.add(lo, hi);
      skip_ws();
      if (peek() != ',') return true;
      ++pos_;
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::optional<SelectionError> err_;
};

}  // namespace

std::variant<SelectionSpec, SelectionError> parse_selection(std::string_view text) { return Parser(text).run(); }

SelectionState::SelectionState(uint32_t n) { reset(n); }

void SelectionState::reset(uint32_t n) {
  n_ = n;
  exp_list_ = RangeSet::all_values();
  for (auto& m : sel_) {
    m.clear();
    for (uint32_t e = 1; e <= n; ++e) m[e] = RangeSet::all_values();
  }
}

std::optional<SelectionError> SelectionState::apply(Target t, std::string_view text) {
  auto r = parse_selection(text);
  if (auto* e = std::get_if<SelectionError>(&r)) return *e;
  return apply(t, std::get<SelectionSpec>(r));
}

std::optional<SelectionError> SelectionState::apply(Target t, const SelectionSpec& spec) {
  // Build the per-experiment selection of this command and the experiment list it names.
  std::map<uint32_t, RangeSet> cmd;
  RangeSet exps;
  for (const auto& term : spec.terms) {
    const RangeSet e = term.experiments ? *term.experiments : RangeSet::all_values();
    if (!e.is_all()) {
      for (const Range& r : e.ranges())
        if (r.lo < 1 || r.hi > static_cast<int64_t>(n_))
          return SelectionError{"experiment " + std::to_string(r.lo < 1 ? r.lo : r.hi) + " does not exist", 0};
    }
    exps.add(e);
    for (uint32_t x = 1; x <= n_; ++x)
      if (e.contains(x)) cmd[x].add(term.objects);
  }
  if (exps.is_all()) {
    exps = RangeSet();
    if (n_ > 0) exps.add(1, n_);
  }
  RangeSet prev = exp_list_;
  if (prev.is_all()) {
    prev = RangeSet();
    if (n_ > 0) prev.add(1, n_);
  }
  if (!(exps == prev)) {
    // New experiment list: it applies to every target. Selections of experiments outside it
    // are dropped, kept for those inside, and experiments without one get "all".
    for (auto& m : sel_) {
      for (auto it = m.begin(); it != m.end();) it = exps.contains(it->first) ? std::next(it) : m.erase(it);
      for (uint32_t x = 1; x <= n_; ++x)
        if (exps.contains(x) && !m.count(x)) m[x] = RangeSet::all_values();
    }
    exp_list_ = exps;
  }
  auto& target = sel_[static_cast<int>(t)];
  for (auto& [x, rs] : cmd) target[x] = rs;
  return std::nullopt;
}

bool SelectionState::experiment_selected(uint32_t expid) const {
  return expid >= 1 && expid <= n_ && exp_list_.contains(expid);
}

const RangeSet* SelectionState::selection(Target t, uint32_t expid) const {
  const auto& m = sel_[static_cast<int>(t)];
  auto it = m.find(expid);
  return it == m.end() ? nullptr : &it->second;
}

bool SelectionState::contains(Target t, uint32_t expid, int64_t value) const {
  const RangeSet* r = selection(t, expid);
  return r && r->contains(value);
}

std::string SelectionState::to_string(Target t) const {
  const auto& m = sel_[static_cast<int>(t)];
  const bool every = m.size() == n_ && std::all_of(m.begin(), m.end(), [](const auto& kv) { return kv.second.is_all(); });
  if (every) return "all";
  // Group experiments with identical selections: "1,3:1-4+2:5-6".
  std::vector<std::pair<RangeSet, RangeSet>> groups;  // (experiments, objects)
  for (const auto& kv : m) {
    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& p) { return p.second == kv.second; });
    if (g == groups.end()) groups.push_back({RangeSet(), kv.second}), g = std::prev(groups.end());
    g->first.add(kv.first, kv.first);
  }
  std::string out;
  for (const auto& [e, o] : groups) {
    if (!out.empty()) out += '+';
    out += e.to_string() + ':' + o.to_string();
  }
  return out.empty() ? "none" : out;
}

}  // namespace erkit::selection
