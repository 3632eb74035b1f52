#include "keyword.h"

#include <cctype>

#include "catalog.h"

namespace erkit::metricspec {

namespace {

bool is_vis(char c) { return c == '.' || c == '+' || c == '%' || c == '!'; }
bool is_flavor(char c) { return c == 'e' || c == 'i' || c == 'a' || c == 'd'; }

std::variant<Keyword, SpecError> parse_one(std::string_view t, size_t off) {
  Keyword k;
  k.offset = off;
  if (t.empty()) return SpecError{"empty metric keyword", off};
  size_t i = 0;
  // Static metrics may carry visibility letters but never flavor letters, so a keyword
  // that is (visibility*)static-name is static even though "address"/"data" begin with
  // flavor letters.
  while (i < t.size() && is_vis(t[i])) ++i;
  std::string_view rest = t.substr(i);
  const bool static_form = is_static_name(rest);
  if (!static_form) {
    i = 0;
    while (i < t.size() && is_flavor(t[i])) ++i;
    k.flavors = std::string(t.substr(0, i));
    const size_t vis_start = i;
    while (i < t.size() && is_vis(t[i])) ++i;
    if (k.flavors.empty() || i == vis_start) {
      // Accept a flavor on a static name (data_sort d.name): the flavor is ignored.
      if (!k.flavors.empty() && is_static_name(t.substr(vis_start))) {
        k.flavors.clear();
        k.name = std::string(t.substr(vis_start));
        k.name_offset = off + vis_start;
        k.vis = kVisValue;
        return k;
      }
      return SpecError{"metric keyword '" + std::string(t) +
                           "' must be flavor letters (e, i, a, d), visibility letters (. + % !) and a name, "
                           "e.g. e.user",
                       off};
    }
  }
  const size_t vis_start = static_form ? 0 : k.flavors.size();
  for (size_t j = vis_start; j < i; ++j) {
    switch (t[j]) {
      case '.': k.vis |= kVisTime; break;
      case '+': k.vis |= kVisValue; break;
      case '%': k.vis |= kVisPercent; break;
      case '!': k.hidden = true; break;
    }
  }
  k.vis_given = i > vis_start;
  if (k.hidden && k.vis) return SpecError{"'!' cannot be combined with other visibility letters", off + vis_start};
  if (static_form && !k.vis_given) k.vis = kVisValue;
  k.name = std::string(t.substr(i));
  k.name_offset = off + i;
  if (!static_form && is_static_name(k.name)) {
    // data_sort allows d.name: flavors on static metrics are accepted and ignored.
    k.flavors.clear();
    if (!k.hidden) k.vis = kVisValue;
    return k;
  }
  if (k.name.empty()) return SpecError{"metric keyword '" + std::string(t) + "' has no metric name", off + i};
  for (size_t j = 0; j < k.name.size(); ++j) {
    const char c = k.name[j];
    // '.' inside a name: raw counters as the manual spells them (mem_load_retired.l1_miss).
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '~' || (c == '.' && j > 0)))
      return SpecError{std::string("unexpected character '") + c + "' in metric name", off + i + j};
  }
  return k;
}

}  // namespace

std::variant<std::vector<Keyword>, SpecError> parse_keywords(std::string_view spec) {
  size_t b = 0, e = spec.size();
  while (b < e && std::isspace(static_cast<unsigned char>(spec[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(spec[e - 1]))) --e;
  if (b == e) return SpecError{"empty metric list", b};
  std::vector<Keyword> out;
  size_t pos = b;
  for (;;) {
    size_t colon = spec.find(':', pos);
    if (colon == std::string_view::npos || colon > e) colon = e;
    const std::string_view tok = spec.substr(pos, colon - pos);
    for (size_t j = 0; j < tok.size(); ++j)
      if (std::isspace(static_cast<unsigned char>(tok[j])))
        return SpecError{"blanks are not allowed in a metric list", pos + j};
    auto r = parse_one(tok, pos);
    if (auto* err = std::get_if<SpecError>(&r)) return *err;
    out.push_back(std::get<Keyword>(std::move(r)));
    if (colon == e) return out;
    pos = colon + 1;
  }
}

}  // namespace erkit::metricspec
