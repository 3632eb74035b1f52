#include "model/compare/compare_model.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace erkit::model::compare {

std::optional<Mode> parse_mode(std::string_view s) {
  if (s == "off") return Mode::Off;
  if (s == "on") return Mode::On;
  if (s == "delta") return Mode::Delta;
  if (s == "ratio") return Mode::Ratio;
  return std::nullopt;
}

const char* mode_name(Mode m) {
  switch (m) {
    case Mode::Off: return "off";
    case Mode::On: return "on";
    case Mode::Delta: return "delta";
    case Mode::Ratio: return "ratio";
  }
  return "off";
}

std::vector<std::string> match_keys(const FunctionTable& ft) {
  auto base = [](const std::string& f) { return f.substr(f.rfind('/') + 1); };
  // Per name: the one source file seen, or "\n" when there are several.
  std::unordered_map<std::string, std::string> file_of;
  for (FuncId f = 0; f < ft.size(); ++f) {
    const auto& e = ft.at(f);
    if (e.pseudo || e.source_file.empty()) continue;
    auto [it, fresh] = file_of.emplace(e.name, base(e.source_file));
    if (!fresh && it->second != base(e.source_file)) it->second = "\n";
  }
  std::vector<std::string> keys(ft.size());
  for (FuncId f = 0; f < ft.size(); ++f) {
    const auto& e = ft.at(f);
    auto it = file_of.find(e.name);
    const bool ambiguous = !e.pseudo && it != file_of.end() && it->second == "\n";
    keys[f] = ambiguous ? e.name + " (" + base(e.source_file) + ")" : e.name;
  }
  return keys;
}

Table build_function_table(const Profile& p, const std::vector<Column>& cols, const std::vector<uint32_t>& side_of,
                           const std::vector<uint32_t>& run_of) {
  Table t;
  t.columns = cols;
  const auto& aggs = p.aggregates();  // first: completes the function table
  const auto& ft = p.functions();
  uint32_t nruns = 0;
  for (uint32_t e = 0; e < side_of.size() && e < run_of.size(); ++e) {
    t.sides = std::max(t.sides, side_of[e] + 1);
    nruns = std::max(nruns, run_of[e] + 1);
  }
  std::vector<uint32_t> side_of_run(nruns, 0);
  for (uint32_t e = 0; e < side_of.size() && e < run_of.size(); ++e) side_of_run[run_of[e]] = side_of[e];
  t.runs.assign(t.sides, 0);
  for (uint32_t r = 0; r < nruns; ++r) ++t.runs[side_of_run[r]];

  // Rows by match key; row 0 is <Total>.
  std::vector<std::string> keys = match_keys(ft);
  std::unordered_map<std::string, uint32_t> row_of_key;
  std::vector<uint32_t> row_of(ft.size());
  std::vector<FuncId> first_func;
  for (FuncId f = 0; f < ft.size(); ++f) {
    auto [it, fresh] = row_of_key.emplace(keys[f], uint32_t(first_func.size()));
    if (fresh) first_func.push_back(f);
    row_of[f] = it->second;
  }
  const size_t nrows = first_func.size(), ncols = cols.size();
  // values[(run * nrows + row) * ncols + col]
  std::vector<int64_t> values(size_t(nruns) * nrows * ncols, 0);
  std::vector<uint64_t> stamp(nrows, 0);
  uint64_t serial = 0;
  const uint32_t total_row = row_of[ft.total()];
  for (const auto& a : aggs) {
    if (a.exp >= run_of.size()) continue;
    int64_t* v = &values[size_t(run_of[a.exp]) * nrows * ncols];
    ++serial;
    for (size_t c = 0; c < ncols; ++c) {
      const int64_t x = a.values[cols[c].metric];
      v[size_t(total_row) * ncols + c] += x;  // <Total>: exclusive and inclusive alike
    }
    stamp[total_row] = serial;
    if (a.funcs.empty()) continue;
    const uint32_t leaf = row_of[a.funcs[0]];
    for (size_t c = 0; c < ncols; ++c)
      if (cols[c].flavor == 'e' && leaf != total_row) v[size_t(leaf) * ncols + c] += a.values[cols[c].metric];
    for (FuncId f : a.funcs) {
      const uint32_t r = row_of[f];
      if (stamp[r] == serial) continue;  // recursion: once per stack
      stamp[r] = serial;
      for (size_t c = 0; c < ncols; ++c)
        if (cols[c].flavor != 'e') v[size_t(r) * ncols + c] += a.values[cols[c].metric];
    }
  }

  for (size_t row = 0; row < nrows; ++row) {
    Row out;
    out.key = keys[first_func[row]];
    out.func = first_func[row];
    out.cells.assign(ncols, std::vector<SideStats>(t.sides));
    bool any = row == total_row;
    for (size_t c = 0; c < ncols; ++c) {
      for (uint32_t s = 0; s < t.sides; ++s) {
        double sum = 0, sq = 0;
        uint32_t n = 0;
        for (uint32_t r = 0; r < nruns; ++r) {
          if (side_of_run[r] != s) continue;
          const double x = double(values[(size_t(r) * nrows + row) * ncols + c]);
          sum += x;
          sq += x * x;
          ++n;
          any |= x != 0;
        }
        SideStats& st = out.cells[c][s];
        st.runs = n;
        if (n) st.mean = sum / n;
        if (n > 1) st.sd = std::sqrt(std::max(0.0, (sq - sum * sum / n) / (n - 1)));
      }
    }
    if (!any) continue;
    // The function named for the row: one of the first side that has data for it.
    if (row == total_row) t.rows.insert(t.rows.begin(), std::move(out));
    else t.rows.push_back(std::move(out));
  }
  return t;
}

Change change(const SideStats& base, const SideStats& k) {
  Change c;
  c.delta = k.mean - base.mean;
  if (base.mean != 0) c.ratio = k.mean / base.mean;
  // A side of one run has no spread of its own: it is taken to vary like the other side.
  double vb = base.sd * base.sd, vk = k.sd * k.sd;
  if (base.runs > 1 || k.runs > 1) {
    if (base.runs < 2) vb = vk;
    if (k.runs < 2) vk = vb;
    c.noise = 2 * std::sqrt(vb / std::max(1u, base.runs) + vk / std::max(1u, k.runs));
    c.has_noise = true;
    c.significant = std::fabs(c.delta) > c.noise;
  }
  return c;
}

}  // namespace erkit::model::compare
