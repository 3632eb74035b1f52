// An er_print session: the loaded experiments (the model), the current metric lists, sort
// keys, filters, selections, limits and output settings that commands read and change, and
// the one place reports are written (as text or as JSON lines).
#pragma once
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "metricspec.h"
#include "model/filter/filter.h"
#include "model/profile.h"
#include "model/selection/selection.h"
#include "rcfile.h"
#include "state.h"
#include "views/function_views.h"
#include "views/json.h"

namespace erkit::erprint {

// Where the command being run came from: decides whether an ambiguous function name without
// N is an error (command line) or a question (interactive), seed-spec §7.1.
enum class InputMode { CommandLine, Script, Interactive };
enum class OutputFormat { Text, Json };

// Version of the JSON report schema (docs/er_print.md); bump on incompatible changes.
inline constexpr int kJsonSchemaVersion = 2;

// A report produced by a command: its text form and, optionally, structured data. Commands
// that only print text still produce valid JSON output (the text is wrapped).
struct Report {
  std::string command;
  std::string text;
  json::Value data;                   // null: none (JSON output carries "text")
  std::vector<std::string> warnings;  // shown on stderr as text, inside the JSON object
};

struct SourceSettings;  // source_settings.h

// Counters shown by `procstats`.
struct ProcessingStats {
  double load_seconds = 0;
  uint64_t commands = 0;
};

class Session {
 public:
  // rc: the .er.rc defaults (nullopt: the built-in defaults, as if the system er.rc alone).
  explicit Session(std::optional<rcfile::RcDefaults> rc = std::nullopt);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Opens an experiment, a group (.erg) or a descendant path. Returns false with *error set.
  bool load(const std::string& path, std::string* error);
  void finish_loading();  // sets default metrics once every experiment is in

  model::Profile& profile() { return profile_; }
  // Passes `viewmode` to the model (Java stacks differ by mode; docs/java.md).
  void apply_viewmode() {
    model::ViewMode m;
    if (model::parse_view_mode(viewmode, &m)) profile_.set_view_mode(m);
  }
  std::vector<metricspec::AvailableMetric> available() const;
  const std::vector<std::string>& experiment_paths() const { return paths_; }

  // Metric and sort settings (metrics, cmetrics, sort, csort, data_*).
  metricspec::MetricState& metric_state() { return *mstate_; }
  const metricspec::MetricList& metrics() const { return mstate_->functions(); }
  const metricspec::MetricList& cmetrics() const { return mstate_->callers_callees(); }
  // Replaces the default lists (dmetrics/dsort given as commands) and re-applies them.
  void set_defaults(std::optional<std::string> dmetrics, std::optional<std::string> dsort);
  const std::string& default_metrics() const { return dmetrics_; }
  const std::string& default_sort() const { return dsort_; }

  // Metric lists as columns for the views.
  std::vector<views::ViewColumn> function_columns() const;
  std::vector<views::ViewColumn> callers_callees_columns() const;
  views::SortSpec sort() const;
  views::SortSpec csort() const;

  // Filters and selections (seed-spec §7.10); both feed Profile::set_event_filter.
  // Returns "" or a message (with a caret line) when the expression does not parse/bind.
  std::string set_filter(const std::string& text);
  const std::string& filter_text() const { return filter_text_; }
  selection::SelectionState& selections() { return selections_; }
  void apply_event_filter();  // after a selection or name-format change

  // scc, dcc, sthresh, dthresh, setpath, addpath, pathmap (from .er.rc, then commands).
  SourceSettings& source_settings() { return *source_; }

  // Reports: everything a command shows goes through here or through `out`.
  void emit(Report r);
  void set_output(FILE* f);  // outfile/appendfile: closes the previous file
  FILE* sink() const { return sink_; }

  size_t limit = 0;
  views::NameOptions names;
  std::string viewmode = "user";
  bool en_desc = true;  // gprofng's default: descendants are part of the profile
  FILE* out = stdout;  // commands write text here (JSON mode: captured and wrapped)
  OutputFormat format = OutputFormat::Text;
  InputMode input = InputMode::CommandLine;
  std::vector<std::string> warnings;  // loading problems, printed once
  rcfile::RcDefaults rc;              // .er.rc settings (scc, dcc, thresholds, paths, ...)
  std::vector<std::pair<std::string, std::string>> memobj_types;  // mobj_define (name, expr)
  ProcessingStats stats;
  // Asks the user a question (interactive mode); nullopt when no one can answer.
  std::function<std::optional<std::string>(const std::string& prompt)> ask;
  // Compare mode (compare on|off|delta|ratio, docs/er_print.md "Comparing experiments"): each
  // path given on the command line or to open is one side; a group (.erg) is a side of several
  // runs. By 0-based experiment index: its side and its run (descendants share their parent's).
  std::string compare_mode = "off";
  std::vector<uint32_t> exp_side, exp_run;
  std::vector<std::string> side_paths;  // the path given for each side

 private:
  std::vector<views::ViewColumn> to_columns(const metricspec::MetricList& l) const;
  model::Profile profile_;
  std::vector<std::string> paths_;
  std::unique_ptr<metricspec::MetricState> mstate_;
  std::unique_ptr<SourceSettings> source_;
  std::string dmetrics_, dsort_;
  std::string filter_text_;
  std::optional<filter::Expr> filter_;
  selection::SelectionState selections_;
  FILE* sink_ = stdout;
  uint32_t runs_ = 0;
};

// The built-in defaults, identical to the shipped share/erkit/er.rc.
extern const char* const kBuiltinDefaultMetrics;
extern const char* const kBuiltinDefaultSort;

// Memory-object types every session starts with (name, index expression).
const std::vector<std::pair<std::string, std::string>>& predefined_memobj_types();

// The system er.rc shipped with the tools: $ERKIT_SYSTEM_RC if set, else
// <dir of er_print>/../share/erkit/er.rc.
std::string system_rc_path();

}  // namespace erkit::erprint
