// Expansion of metric specs against the metrics recorded in the loaded experiments.
#include <algorithm>
#include <cctype>

#include "catalog.h"
#include "keyword.h"
#include "metricspec.h"

namespace erkit::metricspec {

namespace {

const AvailableMetric* find_avail(Available avail, std::string_view name) {
  for (const auto& m : avail)
    if (m.name == name) return &m;
  const std::string_view canon = canonical_name(name);
  for (const auto& m : avail)
    if (m.name == canon) return &m;
  return nullptr;
}

uint8_t flavor_bit(char f) {
  switch (f) {
    case 'e': return kExclusive;
    case 'i': return kInclusive;
    case 'a': return kAttributed;
    case 'd': return kDataSpace;
  }
  return 0;
}

// '.' and '+' collapse into the one form a metric kind can show.
uint8_t normalize(uint8_t vis, ValueKind kind) {
  if (kind == ValueKind::Time && (vis & kVisValue)) vis = static_cast<uint8_t>((vis & ~kVisValue) | kVisTime);
  if (kind == ValueKind::Count && (vis & kVisTime)) vis = static_cast<uint8_t>((vis & ~kVisTime) | kVisValue);
  return vis;
}

const char* flavor_problem(ListKind kind, char f, bool sort) {
  switch (kind) {
    case ListKind::Functions:
      if (f == 'a') return "attributed metrics (a) are only valid for callers-callees (cmetrics, csort)";
      if (f == 'd') return "data-space metrics (d) are only valid for data objects (data_metrics, data_sort)";
      return nullptr;
    case ListKind::CallersCallees:
      if (f == 'd') return "data-space metrics (d) are only valid for data objects (data_metrics, data_sort)";
      if (sort && f != 'a') return "csort needs an attributed (a) or a static metric";
      return nullptr;
    case ListKind::Data:
      if (f != 'd') return "data objects only have data-space (d) and static metrics";
      return nullptr;
  }
  return nullptr;
}

void merge(MetricList& l, const Column& c) {
  for (auto& x : l.columns) {
    if (x.flavor == c.flavor && x.name == c.name) {
      // Same metric again: only visibility forms not yet present are added, at the
      // position of the first occurrence.
      x.vis |= c.vis;
      return;
    }
  }
  l.columns.push_back(c);
}

void warn_once(std::vector<std::string>& w, std::string msg) {
  if (std::find(w.begin(), w.end(), msg) == w.end()) w.push_back(std::move(msg));
}

std::variant<Resolved<MetricList>, SpecError> build(std::string_view spec, ListKind kind, Available avail,
                                                    bool defaults) {
  Resolved<MetricList> out;
  auto kws = parse_keywords(spec);
  if (auto* e = std::get_if<SpecError>(&kws)) return *e;
  bool any_dynamic = false;
  for (const Keyword& k : std::get<std::vector<Keyword>>(kws)) {
    if (k.is_static()) {
      merge(out.value, Column{0, k.name, k.hidden ? uint8_t{kHidden} : uint8_t{kVisValue}});
      continue;
    }
    any_dynamic = true;
    for (char f : k.flavors) {
      if (const char* p = flavor_problem(kind, f, false)) {
        if (!defaults) return SpecError{p, k.offset};
        warn_once(out.warnings, std::string(p) + "; '" + f + k.name + "' ignored");
        continue;
      }
      std::vector<const AvailableMetric*> targets;
      if (k.name == "hwc" || k.name == "any") {
        if (!defaults) return SpecError{"'" + k.name + "' may only be used in default metric lists (dmetrics)", k.offset};
        for (const auto& m : avail)
          if (k.name == "any" || m.hwc) targets.push_back(&m);
      } else if (const AvailableMetric* m = find_avail(avail, k.name)) {
        targets.push_back(m);
      } else if (find_known(k.name) || defaults) {
        warn_once(out.warnings, "metric '" + k.name + "' is not recorded in the loaded experiments; ignored");
        continue;
      } else {
        return SpecError{"unknown metric '" + k.name + "'", k.name_offset};
      }
      for (const AvailableMetric* m : targets) {
        if (!(m->flavors & flavor_bit(f))) {
          if (k.name != "hwc" && k.name != "any")
            warn_once(out.warnings, "metric '" + m->name + "' has no '" + std::string(1, f) + "' flavor; ignored");
          continue;
        }
        merge(out.value, Column{f, m->name, k.hidden ? uint8_t{kHidden} : normalize(k.vis, m->kind)});
      }
    }
  }
  const bool have_dynamic = std::any_of(out.value.columns.begin(), out.value.columns.end(),
                                        [](const Column& c) { return !c.is_static(); });
  if (!defaults && any_dynamic && !have_dynamic) return SpecError{"no valid metrics specified", 0};
  if (!out.value.find(0, "name")) out.value.columns.push_back(Column{0, "name", kVisValue});
  return out;
}

char sort_vis_char(const AvailableMetric* m) { return m && m->kind == ValueKind::Count ? '+' : '.'; }

}  // namespace

const Column* MetricList::find(char flavor, std::string_view name) const {
  for (const auto& c : columns)
    if (c.flavor == flavor && c.name == name) return &c;
  return nullptr;
}

std::string MetricList::to_string() const {
  std::string out;
  auto emit = [&](const std::string& kw) {
    if (!out.empty()) out += ':';
    out += kw;
  };
  for (const auto& c : columns) {
    if (c.is_static()) {
      emit(c.visible() ? c.name : "!" + c.name);
      continue;
    }
    const std::string f(1, c.flavor);
    if (!c.visible()) emit(f + "!" + c.name);
    if (c.vis & kVisTime) emit(f + "." + c.name);
    if (c.vis & kVisValue) emit(f + "+" + c.name);
    if (c.vis & kVisPercent) emit(f + "%" + c.name);
  }
  return out;
}

std::string SortKey::to_string() const {
  std::string s = reverse ? "-" : "";
  if (flavor) s += std::string(1, flavor) + vis;
  return s + name;
}

std::variant<Resolved<MetricList>, SpecError> resolve_metrics(std::string_view spec, ListKind kind, Available avail) {
  return build(spec, kind, avail, false);
}

Resolved<MetricList> resolve_default_metrics(std::string_view spec, ListKind kind, Available avail) {
  auto r = build(spec, kind, avail, true);
  if (auto* e = std::get_if<SpecError>(&r)) {
    Resolved<MetricList> out;
    out.warnings.push_back("default metric list: " + e->message);
    out.value.columns.push_back(Column{0, "name", kVisValue});
    return out;
  }
  return std::get<Resolved<MetricList>>(std::move(r));
}

std::variant<Resolved<SortKey>, SpecError> resolve_sort(std::string_view spec, ListKind kind,
                                                        const MetricList& current, Available avail) {
  size_t b = 0;
  while (b < spec.size() && std::isspace(static_cast<unsigned char>(spec[b]))) ++b;
  bool reverse = false;
  if (b < spec.size() && spec[b] == '-') {
    reverse = true;
    ++b;
  }
  auto kws = parse_keywords(spec.substr(b));
  if (auto* e = std::get_if<SpecError>(&kws)) return SpecError{e->message, e->offset + b};
  Resolved<SortKey> out;
  for (const Keyword& k : std::get<std::vector<Keyword>>(kws)) {
    if (k.is_static()) {
      out.value = SortKey{0, k.name, reverse};
      return out;
    }
    for (char f : k.flavors) {
      if (const char* p = flavor_problem(kind, f, true)) return SpecError{p, b + k.offset};
      if (k.name == "hwc" || k.name == "any")
        return SpecError{"'" + k.name + "' may only be used in default metric lists (dmetrics)", b + k.offset};
      const AvailableMetric* m = find_avail(avail, k.name);
      if (!m) {
        if (!find_known(k.name)) return SpecError{"unknown metric '" + k.name + "'", b + k.name_offset};
        warn_once(out.warnings, "metric '" + k.name + "' is not recorded in the loaded experiments");
        continue;
      }
      if (!(m->flavors & flavor_bit(f))) continue;
      const Column* c = current.find(f, m->name);
      if (k.hidden || (c && c->visible())) {
        out.value = SortKey{f, m->name, reverse, sort_vis_char(m)};
        return out;
      }
    }
  }
  return SpecError{"no visible metric in sort specification; sort unchanged", b};
}

SortKey resolve_default_sort(std::string_view spec, const MetricList& current, Available avail) {
  auto kws = parse_keywords(spec);
  if (auto* list = std::get_if<std::vector<Keyword>>(&kws)) {
    for (const Keyword& k : *list) {
      if (k.is_static()) return SortKey{0, k.name, false};
      for (char f : k.flavors) {
        if (f != 'e' && f != 'i') continue;
        for (const auto& m : avail) {
          const bool named = k.name == "any" || (k.name == "hwc" ? m.hwc : m.name == canonical_name(k.name));
          if (!named || !(m.flavors & flavor_bit(f))) continue;
          const Column* c = current.find(f, m.name);
          if (k.hidden || (c && c->visible())) return SortKey{f, m.name, false, sort_vis_char(&m)};
        }
      }
    }
  }
  for (const auto& c : current.columns)
    if (!c.is_static() && c.visible()) return SortKey{c.flavor, c.name, false, sort_vis_char(find_avail(avail, c.name))};
  return SortKey{};
}

MetricList derive_callers_callees(const MetricList& fn, Available avail) {
  MetricList out;
  std::vector<std::string> seen;
  for (const auto& c : fn.columns) {
    if (!c.is_static() && std::find(seen.begin(), seen.end(), c.name) == seen.end()) {
      seen.push_back(c.name);
      const AvailableMetric* m = find_avail(avail, c.name);
      if (m && (m->flavors & kAttributed)) {
        uint8_t vis = 0;
        for (const auto& o : fn.columns)
          if (!o.is_static() && o.name == c.name) vis |= o.vis;
        out.columns.push_back(Column{'a', c.name, vis});
      }
    }
    if (c.is_static() || c.flavor == 'e' || c.flavor == 'i') out.columns.push_back(c);
  }
  return out;
}

MetricList derive_data(const MetricList& fn, Available avail) {
  MetricList out;
  for (const auto& c : fn.columns) {
    if (c.is_static()) {
      out.columns.push_back(c);
      continue;
    }
    if (out.find('d', c.name)) continue;
    const AvailableMetric* m = find_avail(avail, c.name);
    if (!m || !(m->flavors & kDataSpace)) continue;
    uint8_t vis = 0;
    for (const auto& o : fn.columns)
      if ((o.flavor == 'e' || o.flavor == 'i') && o.name == c.name) vis |= o.vis;
    if (vis) out.columns.push_back(Column{'d', c.name, vis});
  }
  return out;
}

SortKey derive_callers_callees_sort(const SortKey& s, Available avail) {
  if (!s.flavor) return s;
  const AvailableMetric* m = find_avail(avail, s.name);
  if (m && (m->flavors & kAttributed)) return SortKey{'a', s.name, s.reverse, s.vis};
  return SortKey{0, "name", s.reverse};
}

SortKey derive_data_sort(const SortKey& s, const MetricList& data, Available avail) {
  if (!s.flavor) return s;
  const AvailableMetric* m = find_avail(avail, s.name);
  if (m && (m->flavors & kDataSpace) && data.find('d', s.name)) return SortKey{'d', s.name, s.reverse, s.vis};
  for (const auto& c : data.columns)
    if (c.flavor == 'd' && c.visible()) return SortKey{'d', c.name, s.reverse, sort_vis_char(find_avail(avail, c.name))};
  return SortKey{0, "name", s.reverse};
}

}  // namespace erkit::metricspec
