#include "model/query.h"

#include <algorithm>
#include <atomic>

namespace erkit::model {

int64_t function_value(const Profile& p, FuncId f, char flavor, uint32_t m) {
  const auto& fm = p.function_metrics();
  return flavor == 'i' ? fm.incl[f][m] : fm.excl[f][m];
}

std::vector<FuncId> sorted_functions(const Profile& p, const SortSpec& s, size_t limit) {
  std::vector<FuncId> v = p.functions_with_data();
  const FunctionTable& ft = p.functions();
  FuncId total = ft.total();
  v.erase(std::remove(v.begin(), v.end(), total), v.end());
  std::stable_sort(v.begin(), v.end(), [&](FuncId a, FuncId b) {
    if (s.flavor == 0) return s.reverse ? ft.at(b).name < ft.at(a).name : ft.at(a).name < ft.at(b).name;
    int64_t ka = function_value(p, a, s.flavor, s.metric), kb = function_value(p, b, s.flavor, s.metric);
    if (ka != kb) return s.reverse ? ka < kb : ka > kb;
    return ft.at(a).name < ft.at(b).name;
  });
  v.insert(v.begin(), total);
  if (limit && v.size() > limit) v.resize(limit);
  return v;
}

void set_event_selection(Profile& p, const selection::SelectionState* sel, const filter::Expr* f) {
  bool everything = !f;
  for (int t = 0; sel && t < selection::kTargets && everything; ++t)
    everything = sel->to_string(selection::Target(t)) == "all";
  if (everything) {
    p.set_event_filter(nullptr, false);
    return;
  }
  auto selected = [sel](const filter::EventView& v) {
    using selection::Target;
    if (!sel) return true;
    if (!sel->experiment_selected(v.expid)) return false;
    if (!sel->contains(Target::Samples, v.expid, v.sample)) return false;
    if (!sel->contains(Target::Threads, v.expid, int64_t(v.thrid))) return false;
    if (!sel->contains(Target::Lwps, v.expid, int64_t(v.lwpid))) return false;
    return sel->contains(Target::Cpus, v.expid, v.cpuid);
  };
  if (f) {
    p.set_event_filter([f, selected](const filter::EventView& v) { return selected(v) && f->matches(v); }, true);
    return;
  }
  // Selections alone read (experiment, sample, thread, LWP, CPU), which few distinct events
  // share: the answer is kept per calling thread (the clock scan's workers call this at
  // once) in a small direct-mapped table, tagged with this predicate's generation.
  static std::atomic<uint64_t> generations{0};
  const uint64_t gen = ++generations;
  p.set_event_filter(
      [selected, gen](const filter::EventView& v) {
        struct Entry {
          uint64_t gen, thrid, lwpid;
          uint32_t expid, sample;
          int32_t cpu;
          bool keep;
        };
        thread_local Entry memo[64] = {};
        Entry& en = memo[(v.thrid * 0x9E3779B1u + v.lwpid * 31 + uint64_t(v.sample) * 131 + uint32_t(v.cpuid) * 7 + v.expid) & 63];
        if (en.gen == gen && en.thrid == v.thrid && en.lwpid == v.lwpid && en.expid == v.expid &&
            en.sample == v.sample && en.cpu == v.cpuid)
          return en.keep;
        en = {gen, v.thrid, v.lwpid, v.expid, v.sample, v.cpuid, selected(v)};
        return en.keep;
      },
      false);
}

namespace {

// FNAME() against the functions' display names.
class PlainNames : public filter::FunctionNames {
 public:
  explicit PlainNames(const FunctionTable& ft) : ft_(ft) {}
  size_t count() const override { return ft_.size(); }
  std::string_view name(uint32_t id) const override { return ft_.at(id).name; }

 private:
  const FunctionTable& ft_;
};

}  // namespace

QueryEngine::~QueryEngine() {
  if (sel_ || filter_) p_.set_event_filter(nullptr, false);
}

QueryResult QueryEngine::run(const QueryRequest& r) {
  QueryResult out;
  if (r.view_mode) p_.set_view_mode(*r.view_mode);
  const uint32_t n = uint32_t(p_.experiments().size());
  auto sel = std::make_unique<selection::SelectionState>(n);
  for (const auto& [target, text] : r.selections)
    if (auto e = sel->apply(target, text)) {
      out.error = e->message;
      return out;
    }
  std::optional<filter::Expr> f;
  if (!r.filter.empty() && r.filter != "1" && r.filter != "all") {
    auto parsed = filter::Expr::parse(r.filter);
    if (auto* e = std::get_if<filter::ParseError>(&parsed)) {
      out.error = e->display();
      return out;
    }
    f = std::get<filter::Expr>(std::move(parsed));
    if (!f->bind(PlainNames(p_.functions()), &out.error)) return out;
  }
  // Drop the profile's reference to the previous state before replacing it.
  p_.set_event_filter(nullptr, false);
  sel_ = std::move(sel);
  filter_ = std::move(f);
  set_event_selection(p_, sel_.get(), filter_ ? &*filter_ : nullptr);
  for (ObjId o : p_.objects_in_load_order()) p_.set_object_expanded(o, true);
  for (ObjId o : r.hidden_objects) p_.set_object_expanded(o, false);

  const auto& totals = p_.totals();
  for (const auto& c : r.columns) out.totals.push_back(totals[c.metric]);
  auto row = [&](FuncId g, const int64_t* attributed) {
    QueryRow qr{g, {}};
    for (const auto& c : r.columns)
      qr.values.push_back(c.flavor == 'a' && attributed ? attributed[c.metric] : function_value(p_, g, c.flavor, c.metric));
    return qr;
  };
  if (r.view == QueryView::Functions) {
    for (FuncId g : sorted_functions(p_, r.sort, r.limit)) out.rows.push_back(row(g, nullptr));
    return out;
  }
  CallersCallees cc = p_.callers_callees(r.center);
  std::vector<Edge>& edges = r.view == QueryView::Callers ? cc.callers : cc.callees;
  const FunctionTable& ft = p_.functions();
  std::stable_sort(edges.begin(), edges.end(), [&](const Edge& a, const Edge& b) {
    if (r.sort.flavor == 0) return ft.at(a.other).name < ft.at(b.other).name;
    int64_t ka = r.sort.flavor == 'a' ? a.values[r.sort.metric] : function_value(p_, a.other, r.sort.flavor, r.sort.metric);
    int64_t kb = r.sort.flavor == 'a' ? b.values[r.sort.metric] : function_value(p_, b.other, r.sort.flavor, r.sort.metric);
    if (ka != kb) return r.sort.reverse ? ka < kb : ka > kb;
    return ft.at(a.other).name < ft.at(b.other).name;
  });
  for (const Edge& e : edges) {
    if (r.limit && out.rows.size() >= r.limit) break;
    out.rows.push_back(row(e.other, e.values));
  }
  return out;
}

}  // namespace erkit::model
