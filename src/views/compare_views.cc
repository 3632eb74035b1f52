#include "views/compare_views.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace erkit::views {

using model::compare::Change;
using model::compare::Mode;
using model::compare::Row;
using model::compare::Table;

std::vector<model::compare::Column> compare_columns(const std::vector<ViewColumn>& cols) {
  std::vector<model::compare::Column> out;
  for (const auto& c : cols) {
    if (c.flavor != 'e' && c.flavor != 'i') continue;
    bool seen = false;
    for (const auto& o : out) seen |= o.flavor == c.flavor && o.metric == c.metric;
    if (!seen) out.push_back({c.flavor, c.metric});
  }
  return out;
}

std::vector<const Row*> sorted_compare_rows(const Table& t, const SortSpec& sort, size_t limit,
                                            const model::FunctionTable& ft) {
  std::vector<const Row*> rows;
  for (size_t i = 1; i < t.rows.size(); ++i) rows.push_back(&t.rows[i]);
  size_t key_col = 0;
  bool by_name = sort.flavor == 0 || t.columns.empty();
  for (size_t c = 0; c < t.columns.size(); ++c)
    if (t.columns[c].flavor == sort.flavor && t.columns[c].metric == sort.metric) key_col = c;
  auto key = [&](const Row* r) {
    double k = 0;
    for (const auto& s : r->cells[key_col]) k = std::max(k, s.mean);
    return k;
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const Row* a, const Row* b) {
    const std::string &na = ft.at(a->func).name, &nb = ft.at(b->func).name;
    if (!by_name) {
      double ka = key(a), kb = key(b);
      if (ka != kb) return sort.reverse ? ka < kb : ka > kb;
      return na < nb;
    }
    return sort.reverse ? nb < na : na < nb;
  });
  if (!t.rows.empty()) rows.insert(rows.begin(), &t.rows[0]);
  if (limit && rows.size() > limit) rows.resize(limit);
  return rows;
}

namespace {

bool noisy(const Table& t) {
  for (uint32_t r : t.runs)
    if (r > 1) return true;
  return false;
}

std::string signed_value(uint32_t metric, double d) {
  int64_t v = std::llround(d);
  if (v == 0) return "0.";
  return (v > 0 ? "+" : "-") + format_value(metric, v > 0 ? v : -v);
}

std::string ratio_text(const model::compare::SideStats& k, const Change& c) {
  if (c.ratio) return *c.ratio == 0 ? std::string("0.") : fmt::format("{:.3f}", *c.ratio);
  return k.mean == 0 ? "-" : "new";
}

// Every cell of one row, in column order, and whether a change exceeds its noise.
std::vector<std::string> row_cells(const Table& t, const Row& r, Mode mode, bool* significant) {
  std::vector<std::string> out;
  const bool with_noise = noisy(t) && mode != Mode::On;
  for (size_t c = 0; c < t.columns.size(); ++c) {
    const uint32_t m = t.columns[c].metric;
    const auto& base = r.cells[c][0];
    out.push_back(format_value(m, std::llround(base.mean)));
    for (uint32_t s = 1; s < t.sides; ++s) {
      const auto& k = r.cells[c][s];
      Change ch = model::compare::change(base, k);
      *significant |= ch.significant;
      switch (mode) {
        case Mode::Delta: out.push_back(signed_value(m, ch.delta)); break;
        case Mode::Ratio: out.push_back(ratio_text(k, ch)); break;
        default: out.push_back(format_value(m, std::llround(k.mean))); break;
      }
      if (!with_noise) continue;
      if (mode == Mode::Ratio)
        out.push_back(base.mean != 0 ? fmt::format("{:.3f}", ch.noise / base.mean) : std::string("-"));
      else
        out.push_back(format_value(m, std::llround(ch.noise)));
    }
  }
  return out;
}

// The three header lines of every cell column.
std::vector<std::array<std::string, 3>> header_cells(const Table& t, Mode mode) {
  std::vector<std::array<std::string, 3>> out;
  const bool with_noise = noisy(t) && mode != Mode::On;
  for (const auto& col : t.columns) {
    const auto& d = model::metric_def(col.metric);
    const std::string unit = d.unit == model::MetricUnit::Nanoseconds ? " sec." : "";
    out.push_back({TextTable::flavor_word(col.flavor), d.short_display, "[1]" + unit});
    for (uint32_t s = 1; s < t.sides; ++s) {
      std::string what = mode == Mode::Delta ? " delta" : mode == Mode::Ratio ? " ratio" : unit;
      out.push_back({TextTable::flavor_word(col.flavor), d.short_display, fmt::format("[{}]{}", s + 1, what)});
      if (with_noise) out.push_back({TextTable::flavor_word(col.flavor), d.short_display, "noise"});
    }
  }
  return out;
}

// A row's name: the function's name in the current name format, without the load object
// (rows match functions of several objects: two builds); with the source file where the
// match key carries it.
std::string row_name(const model::FunctionTable& ft, const Row& r, const NameOptions& n) {
  const auto& e = ft.at(r.func);
  std::string name = n.mangled && !e.mangled.empty() ? e.mangled : n.short_names ? e.short_name : e.name;
  if (r.key.size() > e.name.size() && r.key.compare(0, e.name.size(), e.name) == 0)
    name += r.key.substr(e.name.size());
  return name;
}

std::string describe(Mode mode) {
  switch (mode) {
    case Mode::Delta: return "delta (each side minus [1])";
    case Mode::Ratio: return "ratio (each side divided by [1])";
    default: return "on (each side's values)";
  }
}

}  // namespace

std::string render_compare_functions(const model::Profile& p, const Table& t, Mode mode,
                                     const std::vector<CompareSide>& sides, const SortSpec& sort, size_t limit,
                                     const NameOptions& names) {
  std::string out = fmt::format("Compare: {}; functions matched by name (and source file where a name repeats)\n",
                                describe(mode));
  for (size_t s = 0; s < sides.size(); ++s)
    out += fmt::format("  [{}] {}{}\n", s + 1, sides[s].label,
                       sides[s].runs > 1 ? fmt::format(" ({} runs: mean per run)", sides[s].runs) : "");
  if (noisy(t) && mode != Mode::On)
    out += "  noise: 2 standard errors of the difference across runs; ! marks a change beyond it\n";
  out += fmt::format("Functions sorted by metric: {} (largest of the sides)\n\n", sort_description(sort));

  auto rows = sorted_compare_rows(t, sort, limit, p.functions());
  auto header = header_cells(t, mode);
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> marks, labels;
  for (const Row* r : rows) {
    bool sig = false;
    cells.push_back(row_cells(t, *r, mode, &sig));
    marks.push_back(sig ? "!" : " ");
    labels.push_back(row_name(p.functions(), *r, names));
  }
  std::vector<size_t> width(header.size());
  for (size_t i = 0; i < header.size(); ++i) {
    for (const auto& h : header[i]) width[i] = std::max(width[i], h.size());
    for (const auto& c : cells) width[i] = std::max(width[i], c[i].size());
  }
  for (int line = 0; line < 3; ++line) {
    std::string l;
    for (size_t i = 0; i < header.size(); ++i) l += fmt::format("{:<{}}  ", header[i][line], width[i]);
    if (line == 0) l += " Name";
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  }
  for (size_t r = 0; r < cells.size(); ++r) {
    std::string l;
    for (size_t i = 0; i < cells[r].size(); ++i) l += fmt::format("{:>{}}  ", cells[r][i], width[i]);
    out += l + marks[r] + labels[r] + "\n";
  }
  return out;
}

json::Value compare_functions_json(const model::Profile& p, const Table& t, Mode mode, const std::vector<CompareSide>& sides,
                                   const SortSpec& sort, size_t limit, const NameOptions& names) {
  json::Value jsides = json::Value::array();
  for (size_t s = 0; s < sides.size(); ++s)
    jsides.push(json::Value::object()
                    .set("index", int64_t(s + 1))
                    .set("path", sides[s].label)
                    .set("runs", int64_t(sides[s].runs)));
  json::Value cols = json::Value::array();
  for (const auto& c : t.columns)
    cols.push(json::Value::object()
                  .set("flavor", c.flavor == 'e' ? "exclusive" : "inclusive")
                  .set("metric", model::metric_def(c.metric).name)
                  .set("unit", unit_name(c.metric)));
  json::Value jrows = json::Value::array();
  for (const Row* r : sorted_compare_rows(t, sort, limit, p.functions())) {
    json::Value values = json::Value::array();
    bool any_sig = false;
    for (size_t c = 0; c < t.columns.size(); ++c) {
      json::Value per_side = json::Value::array();
      const auto& base = r->cells[c][0];
      for (uint32_t s = 0; s < t.sides; ++s) {
        const auto& k = r->cells[c][s];
        json::Value v = json::Value::object().set("mean", k.mean).set("sd", k.sd).set("runs", int64_t(k.runs));
        if (s > 0) {
          Change ch = model::compare::change(base, k);
          v.set("delta", ch.delta);
          if (ch.ratio) v.set("ratio", *ch.ratio);
          else v.set("ratio", json::Value());
          if (ch.has_noise) v.set("noise", ch.noise).set("significant", ch.significant);
          any_sig |= ch.significant;
        }
        per_side.push(std::move(v));
      }
      values.push(std::move(per_side));
    }
    jrows.push(json::Value::object()
                   .set("name", row_name(p.functions(), *r, names))
                   .set("key", r->key)
                   .set("significant", any_sig)
                   .set("values", std::move(values)));
  }
  return json::Value::object()
      .set("mode", model::compare::mode_name(mode))
      .set("match", "name, and source file where a name repeats")
      .set("sort", sort_json(sort))
      .set("sides", std::move(jsides))
      .set("columns", std::move(cols))
      .set("rows", std::move(jrows));
}

}  // namespace erkit::views
