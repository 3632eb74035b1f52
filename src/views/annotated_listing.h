// Shared by annotated source and disassembly: the metrics of lines and instructions, and
// the listing layout: `##` marks, metric columns with the manual's blank / "0." / value
// conventions (seed-spec §10.4), then the text; or the same rows as JSON.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/pc_line_metrics.h"
#include "views/json.h"
#include "views/table.h"

namespace erkit::views {

struct ExclIncl {
  model::Values excl{}, incl{};
  void add(const ExclIncl& o);
};

// Metrics the listings annotate with; empty columns for er_src (no experiment).
struct AnnotationMetrics {
  std::vector<ViewColumn> cols;
  model::Values totals{};
  // DWARF source file name -> line -> values.
  std::unordered_map<std::string, std::map<uint32_t, ExclIncl>> lines;
  // Object path -> ELF vaddr -> values. Leaf PCs at the instruction; return addresses of
  // callers at the address after the call (the views credit the call instruction).
  std::unordered_map<std::string, std::map<uint64_t, ExclIncl>> leaf_pcs, return_pcs;

  // The values of one source line across every name the file has in the data.
  std::optional<ExclIncl> line_values(const std::string& file, uint32_t line) const;
  // The values of the instruction [addr, addr+size) of `object`.
  std::optional<ExclIncl> instr_values(const std::string& object, uint64_t addr, uint32_t size) const;
};

// keep: see model::compute_pc_line_metrics.
AnnotationMetrics build_annotation_metrics(const model::Profile& p, const std::vector<ViewColumn>& cols,
                                           const std::function<bool(model::FuncId)>& keep = nullptr);

class AnnotatedListing {
 public:
  explicit AnnotatedListing(std::vector<ViewColumn> cols, model::Values totals = {})
      : cols_(std::move(cols)), totals_(totals) {}
  // A line with metrics: no value = blank columns (no code), else the values ("0." if zero).
  // `ranked` lines take part in the ## threshold. `info`: the row's fields for JSON, an
  // object with at least "kind" (default {"kind":"text"}).
  void add(const std::optional<ExclIncl>& v, std::string text, bool ranked, json::Value info = {});
  void add_text(std::string text, json::Value info = {}) {
    add(std::nullopt, std::move(text), false, std::move(info));
  }
  // Renders the header and rows; rows with a value >= threshold% of its column's maximum
  // among ranked rows start with "## ".
  std::string render(double threshold_percent) const;
  // {"columns":[Column...],"threshold":t,"rows":[{info fields...,"text","values":[...]|null,
  // "hot":bool}]}: "values" null where the text shows blank columns.
  json::Value to_json(double threshold_percent) const;
  bool has_metrics() const { return !cols_.empty(); }

 private:
  struct Row {
    std::optional<ExclIncl> v;
    std::string text;
    bool ranked = false;
    json::Value info;
  };
  int64_t value(const ExclIncl& v, const ViewColumn& c) const;
  std::vector<bool> hot_rows(double threshold) const;
  std::vector<ViewColumn> cols_;
  model::Values totals_;
  std::vector<Row> rows_;
};

}  // namespace erkit::views
