// The query API over the model: what a report needs in — columns (metrics and flavours), sort,
// limit, filter expression, selections, view mode, object expansion — and rows out. er_print's
// function list and panels sort through it (views/function_views.cc), and the analyzer's JSON
// API (issue 17) calls QueryEngine::run with one request per view. Every event kind goes
// through the same filter and selection path (set_event_selection below, Profile::selected),
// so the trace summaries of model/trace_summaries.h agree with these rows under any request.
//
//   Profile p;  load_experiment_set(p, "test.1.er", {}, &set, &err);
//   QueryEngine q(p);
//   QueryRequest r;
//   r.columns = {{'e', kUser}, {'i', kUser}};
//   r.sort = {'i', kUser, false};
//   r.selections[selection::Target::Threads] = "2-3";
//   r.filter = "(FNAME(\"solve\") SOME IN USTACK)";
//   QueryResult rows = q.run(r);   // rows[0] is <Total>; rows.error on a bad filter/selection
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/filter/filter.h"
#include "model/profile.h"
#include "model/selection/selection.h"

namespace erkit::model {

// A sort key: flavour 'e' (exclusive), 'i' (inclusive), 'a' (attributed, panels); 0 sorts by
// name. Ties sort by name.
struct SortSpec {
  char flavor = 'e';
  uint32_t metric = kUser;
  bool reverse = false;
};

// The value a function list shows for f in column (flavor, metric): 'i' inclusive, else exclusive.
int64_t function_value(const Profile& p, FuncId f, char flavor, uint32_t metric);
// Functions in list order: <Total> first, then the functions with data sorted; limit 0 = all.
std::vector<FuncId> sorted_functions(const Profile& p, const SortSpec& sort, size_t limit);

// The one event selection: experiments, samples, threads, LWPs, CPUs (sel), then the filter
// expression f (may be null; bound to the function table). Both must outlive their use by p;
// null sel and f (or everything selected and no filter) keep every event.
void set_event_selection(Profile& p, const selection::SelectionState* sel, const filter::Expr* f);

enum class QueryView { Functions, Callers, Callees };

struct QueryColumn {
  char flavor = 'e';  // 'e', 'i'; 'a' (attributed) in the Callers/Callees views
  uint32_t metric = kUser;
};

struct QueryRequest {
  QueryView view = QueryView::Functions;
  std::vector<QueryColumn> columns;
  SortSpec sort;
  size_t limit = 0;  // rows, <Total> included; 0 = all
  std::string filter;  // er_print's `filters` grammar; "" = none
  std::map<selection::Target, std::string> selections;  // *_select text per target; missing = all
  std::vector<ObjId> hidden_objects;  // shown as one <object> function (object_hide)
  FuncId center = 0;  // the function of the Callers/Callees views
  std::optional<ViewMode> view_mode;  // Java and OpenMP stacks' presentation (docs/java.md, docs/openmp.md); unset = as it is
};

struct QueryRow {
  FuncId func;  // functions().total() for <Total>
  std::vector<int64_t> values;  // one per column
};

struct QueryResult {
  std::string error;  // non-empty: a bad filter or selection, no rows
  std::vector<int64_t> totals;  // the <Total> value of each column's metric
  std::vector<QueryRow> rows;
};

// Runs requests against one Profile. The profile keeps the last request's selection, filter
// and expansion (reports rendered from it afterwards agree with the rows) while the engine
// lives; destroying the engine clears the profile's event filter (it points into the engine).
class QueryEngine {
 public:
  explicit QueryEngine(Profile& p) : p_(p) {}
  ~QueryEngine();
  QueryEngine(const QueryEngine&) = delete;
  QueryEngine& operator=(const QueryEngine&) = delete;
  QueryResult run(const QueryRequest& r);

 private:
  Profile& p_;
  std::unique_ptr<selection::SelectionState> sel_;
  std::optional<filter::Expr> filter_;
};

}  // namespace erkit::model
