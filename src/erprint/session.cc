#include "erprint/session.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "catalog.h"
#include "erprint/source_settings.h"
#include "common/terminal_text.h"
#include "model/experiment_set.h"
#include "model/query.h"

namespace erkit::erprint {

// Seed-spec §16, plus I/O tracing (not in the seeds) so experiments holding only I/O data
// get columns too. Keep identical to share/erkit/er.rc (er_rc_test checks).
const char* const kBuiltinDefaultMetrics =
    "e.%user:i.%user:i+syncn:i.%sync:e.%hwc:i.%hwc:i+leak:i+bleak:i.%iotime:i+ioreadbytes:i+iowritebytes:"
    "e.%mpitime:i.%mpitime:e.%kcycles:i.%kcycles:e.%kthr:i.%kthr:name";
const char* const kBuiltinDefaultSort = "e.user:e.hwc:i.sync:i.leak:i.iotime:e.mpitime:e.kcycles";

namespace {

// Adapts the function table to FNAME(): names in the current `name` format.
class FunctionNameTable : public filter::FunctionNames {
 public:
  FunctionNameTable(const model::FunctionTable& ft, const views::NameOptions& n) : ft_(ft), n_(n) {}
  size_t count() const override { return ft_.size(); }
  std::string_view name(uint32_t id) const override {
    const auto& e = ft_.at(id);
    return n_.mangled && !e.mangled.empty() ? e.mangled : n_.short_names ? e.short_name : e.name;
  }

 private:
  const model::FunctionTable& ft_;
  views::NameOptions n_;
};

}  // namespace

const std::vector<std::pair<std::string, std::string>>& predefined_memobj_types() {
  static const std::vector<std::pair<std::string, std::string>> types = {
      {"Vpage_4K", "VADDR>255?VADDR>>12:-1"}, {"Ppage_4K", "PADDR>0?PADDR>>12:-1"},
      {"Vpage_2M", "VADDR>255?VADDR>>21:-1"}, {"Ppage_2M", "PADDR>0?PADDR>>21:-1"},
      {"Vline_64B", "VADDR>255?VADDR>>6:-1"}, {"Pline_64B", "PADDR>0?PADDR>>6:-1"},
      {"Vpage_1G", "VADDR>255?VADDR>>30:-1"}, {"Ppage_1G", "PADDR>0?PADDR>>30:-1"},
      // Index objects over any event field (seed-spec §6.16).
      {"Threads", "THRID"}, {"CPUs", "CPUID"}, {"Samples", "SAMPLE"}, {"Seconds", "TSTAMP/1000000000"}};
  return types;
}

std::string system_rc_path() {
  if (const char* e = std::getenv("ERKIT_SYSTEM_RC"); e && *e) return e;
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  buf[n] = 0;
  return (std::filesystem::path(buf).parent_path().parent_path() / "share" / "erkit" / "er.rc").string();
}

Session::Session(std::optional<rcfile::RcDefaults> rc_in) {
  if (rc_in) {
    rc = std::move(*rc_in);
  } else {
    rcfile::process_rc_text(fmt::format("dmetrics {}\ndsort {}\n", kBuiltinDefaultMetrics, kBuiltinDefaultSort),
                            "(built-in)", rc);
  }
  dmetrics_ = rc.dmetrics.empty() ? kBuiltinDefaultMetrics : rc.dmetrics;
  dsort_ = rc.dsort.empty() ? kBuiltinDefaultSort : rc.dsort;
  if (auto n = rc.get("name")) {
    names.short_names = n->rfind("short", 0) == 0;
    names.show_object = n->find(":shared_object_name") != std::string::npos;
  }
  if (auto v = rc.get("viewmode")) viewmode = *v;
  apply_viewmode();
  if (auto d = rc.get("en_desc")) en_desc = *d == "on";
  if (auto v = rc.get("inline_frames")) profile_.set_inline_frames(*v == "on");
  source_ = std::make_unique<SourceSettings>();
  for (auto& w : apply_rc(rc, source_.get())) warnings.push_back(std::move(w));
  // Predefined memory-object types (Linux page and cache-line sizes), then .er.rc ones.
  memobj_types = predefined_memobj_types();
  for (const auto& d : rc.mobj_defines)
    if (std::none_of(memobj_types.begin(), memobj_types.end(), [&](const auto& m) { return m.first == d.first; }))
      memobj_types.push_back(d);
  mstate_ = std::make_unique<metricspec::MetricState>(available(), dmetrics_, dsort_);
}

Session::~Session() {
  if (sink_ != stdout && sink_ != stderr) std::fclose(sink_);
}

bool Session::load(const std::string& path, std::string* error) {
  auto t0 = std::chrono::steady_clock::now();
  apply_viewmode();  // Java stacks are resolved in the session's view mode (docs/java.md)
  model::LoadedSet set;
  set.paths = paths_;  // not loaded again as descendants
  model::LoadOptions o;
  o.descendants = en_desc;
  const size_t before = paths_.size();
  bool ok = model::load_experiment_set(profile_, path, o, &set, error);
  paths_ = std::move(set.paths);
  // Each path given is one side of a comparison; each experiment given directly or in a group
  // one run of it, its descendants part of that run (compare_model.h).
  if (paths_.size() > before) {
    side_paths.push_back(path);
    for (size_t i = before; i < paths_.size(); ++i) {
      const uint32_t f = i < set.founders.size() ? set.founders[i] : uint32_t(i);
      exp_side.push_back(uint32_t(side_paths.size() - 1));
      exp_run.push_back(f == i || f >= exp_run.size() ? runs_++ : exp_run[f]);
    }
  }
  warnings.insert(warnings.end(), set.warnings.begin(), set.warnings.end());
  stats.load_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return ok;
}

std::vector<metricspec::AvailableMetric> Session::available() const {
  std::vector<metricspec::AvailableMetric> out;
  for (uint32_t m : profile_.available_metrics()) {
    if (model::metric_def(m).cycles_time) continue;  // the counter with '.' (issue 19)
    if (auto a = metricspec::standard_metric(model::metric_def(m).name)) out.push_back(*a);
  }
  return out;
}

void Session::finish_loading() {
  mstate_ = std::make_unique<metricspec::MetricState>(available(), dmetrics_, dsort_);
  selections_.reset(uint32_t(profile_.experiments().size()));
  apply_event_filter();
}

void Session::set_defaults(std::optional<std::string> dm, std::optional<std::string> ds) {
  if (dm) dmetrics_ = *dm;
  if (ds) dsort_ = *ds;
  mstate_ = std::make_unique<metricspec::MetricState>(available(), dmetrics_, dsort_);
}

std::vector<views::ViewColumn> Session::to_columns(const metricspec::MetricList& l) const {
  std::vector<views::ViewColumn> cols;
  const std::vector<uint32_t> avail = profile_.available_metrics();
  auto has_metric = [&](uint32_t m) { return std::find(avail.begin(), avail.end(), m) != avail.end(); };
  for (const auto& c : l.columns) {
    if (c.is_static() || !c.visible()) continue;
    uint32_t m = model::metric_index(c.name);
    if (m >= model::kMetricCount) continue;
    // A cycle-type counter: '.' shows its time form where the experiments recorded the CPU
    // clock rate, '+' the count; without a rate '.' shows the count (issue 19).
    const uint32_t t = model::cycles_time_metric(m);
    const bool as_time = (c.vis & metricspec::kVisTime) && t < model::kMetricCount && has_metric(t);
    if (as_time) cols.push_back({c.flavor, t, false});
    if ((c.vis & metricspec::kVisValue) || ((c.vis & metricspec::kVisTime) && !as_time))
      cols.push_back({c.flavor, m, false});
    if (c.vis & metricspec::kVisPercent) cols.push_back({c.flavor, m, true});
  }
  return cols;
}

std::vector<views::ViewColumn> Session::function_columns() const { return to_columns(metrics()); }
std::vector<views::ViewColumn> Session::callers_callees_columns() const { return to_columns(cmetrics()); }

static views::SortSpec to_sort(const metricspec::SortKey& k) {
  views::SortSpec s;
  s.reverse = k.reverse;
  uint32_t m = model::metric_index(k.name);
  if (k.flavor == 0 || m >= model::kMetricCount) {
    s.flavor = 0;
    return s;
  }
  s.flavor = k.flavor;
  s.metric = m;
  return s;
}

views::SortSpec Session::sort() const { return to_sort(mstate_->sort()); }
views::SortSpec Session::csort() const { return to_sort(mstate_->csort()); }

std::string Session::set_filter(const std::string& text) {
  std::string t = text;
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.pop_back();
  while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.erase(0, 1);
  if (t.empty() || t == "1" || t == "all") {
    filter_.reset();
    filter_text_.clear();
    apply_event_filter();
    return "";
  }
  filter::ParseOptions po;
  for (const auto& [name, expr] : memobj_types) po.memobj_names.push_back(name);
  auto r = filter::Expr::parse(t, po);
  if (auto* e = std::get_if<filter::ParseError>(&r)) return e->display();
  filter::Expr expr = std::get<filter::Expr>(std::move(r));
  std::string err;
  if (!expr.bind(FunctionNameTable(profile_.functions(), names), &err)) return err;
  filter_ = std::move(expr);
  filter_text_ = t;
  apply_event_filter();
  return "";
}

void Session::apply_event_filter() {
  if (filter_ && filter_->uses_functions()) {
    std::string err;
    filter_->bind(FunctionNameTable(profile_.functions(), names), &err);
  }
  model::set_event_selection(profile_, &selections_, filter_ ? &*filter_ : nullptr);
}

void Session::emit(Report r) {
  if (format == OutputFormat::Text) {
    for (const auto& w : r.warnings) fmt::print(stderr, "er_print: warning: {}\n", common::printable(w));
    // Names and paths come from the experiment: control characters are escaped (issue 15).
    fmt::print(out, "{}", common::printable(r.text));
    std::fflush(out);
    return;
  }
  json::Value v = json::Value::object();
  v.set("schema", "erkit.er_print").set("version", kJsonSchemaVersion).set("command", r.command);
  if (!r.warnings.empty()) {
    json::Value w = json::Value::array();
    for (const auto& s : r.warnings) w.push(s);
    v.set("warnings", std::move(w));
  }
  if (r.data.is_null()) v.set("text", r.text);
  else v.set("data", std::move(r.data));
  // Written in pieces: a large report (the call tree) is not held a second time as text.
  v.dump_to([this](std::string_view piece) { std::fwrite(piece.data(), 1, piece.size(), sink_); });
  std::fputc('\n', sink_);
  std::fflush(sink_);
}

void Session::set_output(FILE* f) {
  if (sink_ != stdout && sink_ != stderr && sink_ != f) std::fclose(sink_);
  const bool captured = out != sink_;
  sink_ = f;
  if (!captured) out = f;
}

}  // namespace erkit::erprint
