#include "dataspace/dataspace_views.h"

#include <fmt/format.h>

#include <algorithm>

namespace erkit::dataspace {
namespace {

std::vector<size_t> shown(const Dataspace& d, const std::vector<std::string>& names) {
  std::vector<size_t> out;
  for (size_t i = 0; i < d.metrics().size(); ++i)
    if (names.empty() || std::find(names.begin(), names.end(), d.metrics()[i].name) != names.end()) out.push_back(i);
  if (out.empty())
    for (size_t i = 0; i < d.metrics().size(); ++i) out.push_back(i);
  return out;
}

std::string cell(const DsMetric& m, uint64_t v) {
  return m.time ? fmt::format("{:>12.3f}", double(v) / 1e9) : fmt::format("{:>12}", v);
}

std::string pct(uint64_t v, uint64_t total) {
  return total ? fmt::format("{:>7.2f}", 100.0 * double(v) / double(total)) : fmt::format("{:>7}", "0.");
}

std::string header(const Dataspace& d, const std::vector<size_t>& cols, const char* what) {
  std::string l1, l2;
  for (size_t c : cols) {
    const DsMetric& m = d.metrics()[c];
    l1 += fmt::format(" {:>12} {:>7}", "Data", "");
    l2 += fmt::format(" {:>12} {:>7}", m.header.size() > 12 ? m.name : m.header, m.time ? "sec. %" : "%");
  }
  return fmt::format("{}\n{}  {}\n", l1, l2, what);
}

std::string row(const Dataspace& d, const std::vector<size_t>& cols, const std::vector<uint64_t>& v,
                const std::vector<uint64_t>& total) {
  std::string s;
  for (size_t c : cols) {
    uint64_t x = c < v.size() ? v[c] : 0, t = c < total.size() ? total[c] : 0;
    s += " " + cell(d.metrics()[c], x) + " " + pct(x, t);
  }
  return s;
}

json::Value values_json(const Dataspace& d, const std::vector<size_t>& cols, const std::vector<uint64_t>& v) {
  json::Value o = json::Value::object();
  for (size_t c : cols) o.set(d.metrics()[c].name, c < v.size() ? v[c] : 0);
  return o;
}

const char* kind_name(ObjectKind k) {
  switch (k) {
    case ObjectKind::kTotal: return "total";
    case ObjectKind::kVariable: return "variable";
    case ObjectKind::kAggregate: return "aggregate";
    case ObjectKind::kScalars: return "scalars";
    case ObjectKind::kUnknown: return "unknown";
    case ObjectKind::kUnknownSubtype: return "unknown_subtype";
    case ObjectKind::kHeap: return "heap";
    case ObjectKind::kHeapBlock: return "heap_block";
  }
  return "";
}

// Orders rows by the sort: a metric's value (descending), a name (ascending) or a size
// (descending); ties by name. `reverse` flips the primary order.
template <typename Row, typename Name, typename Size>
void sort_rows(std::vector<Row>& rows, int metric, const DataSort& sort, Name name, Size size) {
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    int c = 0;  // <0: a first
    if (metric >= 0) {
      uint64_t x = size_t(metric) < a.values.size() ? a.values[size_t(metric)] : 0;
      uint64_t y = size_t(metric) < b.values.size() ? b.values[size_t(metric)] : 0;
      c = x > y ? -1 : x < y ? 1 : 0;
    } else if (sort.metric == "size") {
      c = size(a) > size(b) ? -1 : size(a) < size(b) ? 1 : 0;
    } else {
      c = name(a) < name(b) ? -1 : name(b) < name(a) ? 1 : 0;
    }
    if (sort.reverse) c = -c;
    if (c == 0) return name(a) < name(b);
    return c < 0;
  });
}

}  // namespace

int sort_metric(const Dataspace& d, const std::vector<std::string>& shown_metrics, const DataSort& sort) {
  if (sort.metric == "name" || sort.metric == "size") return -1;
  for (size_t i = 0; i < d.metrics().size(); ++i)
    if (d.metrics()[i].name == sort.metric) return int(i);
  auto cols = shown(d, shown_metrics);
  return cols.empty() ? -1 : int(cols.front());
}

DsReport render_data_objects(const Dataspace& d, const std::vector<std::string>& metrics, size_t limit,
                             const DataSort& sort) {
  auto cols = shown(d, metrics);
  auto objs = d.objects();
  if (objs.size() > 1) {
    std::vector<DataObject> rest(std::make_move_iterator(objs.begin() + 1), std::make_move_iterator(objs.end()));
    sort_rows(
        rest, sort_metric(d, metrics, sort), sort, [](const DataObject& o) -> const std::string& { return o.name; },
        [](const DataObject& o) { return o.size; });
    objs.resize(1);
    for (auto& o : rest) objs.push_back(std::move(o));
  }
  const auto& total = objs.front().values;
  DsReport r;
  r.text = "Data Objects\n\n" + header(d, cols, "Name");
  json::Value list = json::Value::array();
  size_t n = 0;
  for (const auto& o : objs) {
    if (limit && n++ >= limit + 1) break;
    r.text += row(d, cols, o.values, total) + "  " + o.name + "\n";
    list.push(json::Value::object()
                  .set("name", o.name)
                  .set("kind", kind_name(o.kind))
                  .set("size", o.size)
                  .set("metrics", values_json(d, cols, o.values)));
  }
  r.data = json::Value::object().set("objects", std::move(list));
  return r;
}

DsReport render_data_single(const Dataspace& d, const std::string& name, int n, std::string* error) {
  auto objs = d.objects();
  std::vector<const DataObject*> hits;
  for (const auto& o : objs)
    if (o.name == name) hits.push_back(&o);
  if (hits.empty())
    for (const auto& o : objs)
      if (o.name.find(name) != std::string::npos) hits.push_back(&o);
  if (hits.empty()) {
    *error = fmt::format("data_single: no data object '{}' (see data_objects)", name);
    return {};
  }
  if (hits.size() > 1 && n <= 0) {
    std::string list;
    for (size_t i = 0; i < hits.size(); ++i) list += fmt::format("\n  {}: {}", i + 1, hits[i]->name);
    *error = fmt::format("data_single: '{}' is ambiguous; give its number:{}", name, list);
    return {};
  }
  const DataObject* o = hits[hits.size() > 1 ? size_t(n - 1) : 0];
  if (hits.size() > 1 && size_t(n) > hits.size()) {
    *error = fmt::format("data_single: '{}' has only {} matches", name, hits.size());
    return {};
  }
  auto cols = shown(d, {});
  const auto& total = objs.front().values;
  DsReport r;
  r.text = fmt::format("{}\n", o->name);
  if (o->size) r.text += fmt::format("  {:<24} {}\n", "Size:", o->size);
  r.text += fmt::format("  {:<24} {}\n", "Kind:", kind_name(o->kind));
  for (size_t c : cols) {
    const DsMetric& m = d.metrics()[c];
    uint64_t v = c < o->values.size() ? o->values[c] : 0;
    r.text += fmt::format("  {:<24} {} ({}%)\n", "Data " + m.header + ":", m.time ? fmt::format("{:.3f} s", double(v) / 1e9)
                                                                                  : fmt::format("{}", v),
                          fmt::format("{:.2f}", total[c] ? 100.0 * double(v) / double(total[c]) : 0.0));
  }
  r.data = json::Value::object()
               .set("name", o->name)
               .set("kind", kind_name(o->kind))
               .set("size", o->size)
               .set("metrics", values_json(d, cols, o->values));
  return r;
}

DsReport render_data_layout(const Dataspace& d, const std::vector<std::string>& metrics, const DataSort& sort) {
  auto cols = shown(d, metrics);
  auto objs = d.objects();
  auto aggs = d.layout();
  sort_rows(
      aggs, sort_metric(d, metrics, sort), sort, [](const LayoutRow& a) -> const std::string& { return a.aggregate; },
      [](const LayoutRow& a) { return a.size; });
  const auto& total = objs.front().values;
  DsReport r;
  r.text = "Data Layout\n\n" + header(d, cols, "Name  (offset.size: position in 32-byte blocks)");
  r.text += row(d, cols, total, total) + "  <Total>\n";
  json::Value list = json::Value::array();
  for (const auto& a : aggs) {
    r.text += row(d, cols, a.values, total) + fmt::format("  {{{} -}}\n", a.aggregate);
    r.text += fmt::format("  {:>{}}  (size {} bytes)\n", "", cols.size() * 21, a.size);
    json::Value members = json::Value::array();
    for (size_t m = 0; m < a.members.size(); ++m) {
      const Member& mem = a.members[m];
      uint64_t block = mem.offset / 32, lo = mem.offset % 32;
      r.text += row(d, cols, a.member_values[m], total) +
                fmt::format("      {{{}}}.{}   +{}.{} [block {}: {}-{}]\n", a.aggregate, mem.descriptor, mem.offset,
                            mem.size, block, lo, lo + (mem.size ? mem.size - 1 : 0));
      members.push(json::Value::object()
                       .set("name", fmt::format("{{{}}}.{}", a.aggregate, mem.descriptor))
                       .set("offset", mem.offset)
                       .set("size", mem.size)
                       .set("block", block)
                       .set("metrics", values_json(d, cols, a.member_values[m])));
    }
    list.push(json::Value::object()
                  .set("aggregate", aggregate_row_name(a.aggregate))
                  .set("size", a.size)
                  .set("metrics", values_json(d, cols, a.values))
                  .set("members", std::move(members)));
  }
  r.data = json::Value::object().set("aggregates", std::move(list));
  return r;
}

DsReport render_memobj(const Dataspace& d, const std::string& type, const std::vector<MemoryObjectRow>& rows,
                       size_t limit, bool hex, const DataSort& sort) {
  auto cols = shown(d, {});
  std::vector<MemoryObjectRow> sorted = rows;
  if (!sort.metric.empty() || sort.reverse) {
    // By name: by index (<Unknown>, -1, first); memory objects have no size.
    struct K {
      std::vector<uint64_t> values;
      std::string key;
      MemoryObjectRow row;
    };
    std::vector<K> ks;
    for (const auto& m : rows) ks.push_back({m.values, fmt::format("{:020}", m.index + 1), m});
    sort_rows(
        ks, sort_metric(d, {}, sort), sort, [](const K& k) -> const std::string& { return k.key; },
        [](const K&) { return uint64_t(0); });
    sorted.clear();
    for (auto& k : ks) sorted.push_back(std::move(k.row));
  }
  std::vector<uint64_t> total(d.metrics().size(), 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < r.values.size() && i < total.size(); ++i) total[i] += r.values[i];
  DsReport r;
  r.text = fmt::format("Objects of type {}\n\n", type) + header(d, cols, "Name");
  r.text += row(d, cols, total, total) + "  <Total>\n";
  json::Value list = json::Value::array();
  size_t n = 0;
  for (const auto& m : sorted) {
    if (limit && n++ >= limit) break;
    std::string name = m.index < 0 ? "<Unknown>"
                       : hex       ? fmt::format("{}:0x{:x}", type, m.index)
                                   : fmt::format("{}:{}", type, m.index);
    r.text += row(d, cols, m.values, total) + "  " + name + "\n";
    list.push(json::Value::object().set("name", name).set("index", m.index).set("metrics", values_json(d, cols, m.values)));
  }
  r.data = json::Value::object().set("type", type).set("objects", std::move(list));
  return r;
}

}  // namespace erkit::dataspace
