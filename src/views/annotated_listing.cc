#include "views/annotated_listing.h"

#include <fmt/format.h>

#include <algorithm>

#include "disasm/line_table.h"

namespace erkit::views {

void ExclIncl::add(const ExclIncl& o) {
  for (uint32_t m = 0; m < model::kMetricCount; ++m) excl[m] += o.excl[m], incl[m] += o.incl[m];
}

std::optional<ExclIncl> AnnotationMetrics::line_values(const std::string& file, uint32_t line) const {
  std::optional<ExclIncl> out;
  for (const auto& [name, lines] : this->lines) {
    if (!disasm::path_matches(name, file) && !disasm::path_matches(file, name)) continue;
    auto it = lines.find(line);
    if (it == lines.end()) continue;
    if (!out) out.emplace();
    out->add(it->second);
  }
  return out;
}

std::optional<ExclIncl> AnnotationMetrics::instr_values(const std::string& object, uint64_t addr,
                                                        uint32_t size) const {
  std::optional<ExclIncl> out;
  if (auto o = leaf_pcs.find(object); o != leaf_pcs.end()) {
    if (auto it = o->second.find(addr); it != o->second.end()) out = it->second;
  }
  if (auto o = return_pcs.find(object); o != return_pcs.end()) {
    if (auto it = o->second.find(addr + size); it != o->second.end()) {
      if (!out) out.emplace();
      out->add(it->second);
    }
  }
  return out;
}

AnnotationMetrics build_annotation_metrics(const model::Profile& p, const std::vector<ViewColumn>& cols,
                                           const std::function<bool(model::FuncId)>& keep) {
  AnnotationMetrics a;
  a.cols = cols;
  a.totals = p.totals();
  model::PcLineMetrics m = model::compute_pc_line_metrics(p, keep);
  const auto& r = p.resolver();
  for (const auto& l : m.lines) {
    if (l.line == 0) continue;
    const auto& le = r.lines()[l.line];
    ExclIncl& v = a.lines[r.files()[le.file]][le.line];
    v.excl = l.excl;
    v.incl = l.incl;
  }
  for (const auto& pc : m.pcs) {
    const auto& pe = r.pcs()[pc.pc];
    if (pe.object == model::kNoObject) continue;
    const std::string& path = p.functions().object(pe.object).code_file();
    ExclIncl& v = (pc.caller ? a.return_pcs : a.leaf_pcs)[path][pe.vaddr];
    v.excl = pc.excl;
    v.incl = pc.incl;
  }
  return a;
}

void AnnotatedListing::add(const std::optional<ExclIncl>& v, std::string text, bool ranked, json::Value info) {
  if (info.is_null()) info = json::Value::object().set("kind", "text");
  rows_.push_back({v, std::move(text), ranked, std::move(info)});
}

int64_t AnnotatedListing::value(const ExclIncl& v, const ViewColumn& c) const {
  return c.flavor == 'i' ? v.incl[c.metric] : v.excl[c.metric];
}

std::vector<bool> AnnotatedListing::hot_rows(double threshold) const {
  const size_t nc = cols_.size();
  std::vector<int64_t> max(nc, 0);
  for (const auto& r : rows_)
    if (r.v && r.ranked)
      for (size_t i = 0; i < nc; ++i) max[i] = std::max(max[i], value(*r.v, cols_[i]));
  std::vector<bool> hot;
  for (const auto& r : rows_) {
    bool h = false;
    if (r.v && r.ranked)
      for (size_t i = 0; i < nc; ++i) {
        int64_t v = value(*r.v, cols_[i]);
        if (max[i] > 0 && v > 0 && double(v) * 100.0 >= threshold * double(max[i])) h = true;
      }
    hot.push_back(h);
  }
  return hot;
}

json::Value AnnotatedListing::to_json(double threshold) const {
  json::Value columns = json::Value::array(), rows = json::Value::array();
  for (const auto& c : cols_) columns.push(column_json(c));
  const std::vector<bool> hot = hot_rows(threshold);
  for (size_t k = 0; k < rows_.size(); ++k) {
    const Row& r = rows_[k];
    json::Value row = r.info;
    row.set("text", r.text);
    if (r.v && !cols_.empty()) {
      json::Value vals = json::Value::array();
      for (const auto& c : cols_) {
        int64_t v = value(*r.v, c);
        if (c.percent) vals.push(percent_of(v, totals_[c.metric]));
        else vals.push(v);
      }
      row.set("values", std::move(vals));
    } else {
      row.set("values", nullptr);
    }
    row.set("hot", bool(hot[k]));
    rows.push(std::move(row));
  }
  return json::Value::object().set("columns", std::move(columns)).set("threshold", threshold).set("rows", std::move(rows));
}

std::string AnnotatedListing::render(double threshold) const {
  const size_t nc = cols_.size();
  std::vector<std::vector<std::string>> cells;
  const std::vector<bool> hot = hot_rows(threshold);
  for (const auto& r : rows_) {
    std::vector<std::string> c(nc);
    if (r.v)
      for (size_t i = 0; i < nc; ++i) {
        int64_t v = value(*r.v, cols_[i]);
        c[i] = cols_[i].percent ? format_percent(v, totals_[cols_[i].metric]) : format_value(cols_[i].metric, v);
      }
    cells.push_back(std::move(c));
  }
  std::vector<std::array<std::string, 3>> heads;
  std::vector<size_t> width(nc, 0);
  for (size_t i = 0; i < nc; ++i) {
    const auto& d = model::metric_def(cols_[i].metric);
    heads.push_back({TextTable::flavor_word(cols_[i].flavor), d.short_display,
                     cols_[i].percent ? "%" : d.unit == model::MetricUnit::Nanoseconds ? "sec." : ""});
    for (const auto& h : heads.back()) width[i] = std::max(width[i], h.size());
    for (const auto& c : cells) width[i] = std::max(width[i], c[i].size());
  }
  std::string out;
  if (nc) {
    for (int line = 0; line < 3; ++line) {
      std::string l = "   ";
      for (size_t i = 0; i < nc; ++i) l += fmt::format("{:<{}}  ", heads[i][line], width[i]);
      while (!l.empty() && l.back() == ' ') l.pop_back();
      out += l + "\n";
    }
  }
  for (size_t k = 0; k < rows_.size(); ++k) {
    std::string l = nc ? (hot[k] ? "## " : "   ") : "";
    for (size_t i = 0; i < nc; ++i) l += fmt::format("{:>{}}  ", cells[k][i], width[i]);
    l += rows_[k].text;
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  }
  return out;
}

}  // namespace erkit::views
