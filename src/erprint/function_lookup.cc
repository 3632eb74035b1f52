#include "erprint/function_lookup.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "common/terminal_text.h"
#include "views/function_views.h"

namespace erkit::erprint {

void order_candidates(const model::FunctionTable& ft, std::vector<model::FuncId>* cands) {
  std::stable_sort(cands->begin(), cands->end(), [&](model::FuncId a, model::FuncId b) {
    const auto& ea = ft.at(a);
    const auto& eb = ft.at(b);
    const std::string& pa = ft.object(ea.object).path;
    const std::string& pb = ft.object(eb.object).path;
    return pa != pb ? pa < pb : ea.addr < eb.addr;
  });
}

std::vector<model::FuncId> find_functions(Session& s, const std::string& name) {
  const auto& ft = s.profile().functions();
  std::vector<model::FuncId> out;
  for (model::FuncId f = 0; f < ft.size(); ++f) {
    const auto& e = ft.at(f);
    if (e.name == name || e.short_name == name || (!e.mangled.empty() && e.mangled == name) ||
        (!e.pseudo && (fmt::format("{} ({})", e.name, ft.object(e.object).name) == name ||
                       fmt::format("{} ({})", e.name, views::function_qualifier(ft, f)) == name)))
      out.push_back(f);
  }
  // No function of that name: its compiler clones (scale.constprop.0 for "scale").
  for (model::FuncId f = 0; out.empty() && f < ft.size(); ++f) {
    const auto& e = ft.at(f);
    if (!e.original.empty() && e.original == name) out.push_back(f);
  }
  order_candidates(ft, &out);
  return out;
}

std::string candidate_list(Session& s, const std::vector<model::FuncId>& cands) {
  const auto& ft = s.profile().functions();
  std::string out;
  for (size_t i = 0; i < cands.size(); ++i) {
    const auto& e = ft.at(cands[i]);
    size_t slash = e.source_file.rfind('/');
    std::string file = e.source_file.empty() ? "" : ", " + e.source_file.substr(slash + 1);
    out += fmt::format("  {:>3}) {} ({}{}) 0x{:x}\n", i + 1, e.name, e.pseudo ? "<pseudo>" : ft.object(e.object).path,
                       file, e.addr);
  }
  return out;
}

namespace {
std::optional<size_t> parse_n(const std::string& t) {
  char* end = nullptr;
  long v = std::strtol(t.c_str(), &end, 10);
  if (t.empty() || *end || v < 1) return std::nullopt;
  return size_t(v);
}
}  // namespace

std::optional<model::FuncId> choose_function(Session& s, const std::string& command, const std::string& name,
                                             const std::optional<std::string>& n, std::string* error) {
  auto cands = find_functions(s, name);
  if (cands.empty()) {
    *error = fmt::format("{}: no function named '{}'", command, name);
    return std::nullopt;
  }
  if (n) {
    auto k = parse_n(*n);
    if (!k || *k > cands.size()) {
      *error = fmt::format("{}: N must be 1..{} for '{}', not '{}'\n{}", command, cands.size(), name, *n,
                           candidate_list(s, cands));
      return std::nullopt;
    }
    return cands[*k - 1];
  }
  if (cands.size() == 1) return cands[0];
  if (s.input == InputMode::Interactive && s.ask) {
    fmt::print(s.out, "Available name list:\n{}", common::printable(candidate_list(s, cands)));
    std::fflush(s.out);
    auto answer = s.ask(fmt::format("Enter selection (1-{}, 0 to cancel): ", cands.size()));
    if (answer) {
      auto k = parse_n(*answer);
      if (k && *k <= cands.size()) return cands[*k - 1];
    }
    *error = fmt::format("{}: cancelled", command);
    return std::nullopt;
  }
  *error = fmt::format("{}: '{}' names {} functions; give N ({} {} N){}:\n{}", command, name, cands.size(), command,
                       name, s.input == InputMode::CommandLine ? ", required on the command line" : "",
                       candidate_list(s, cands));
  return std::nullopt;
}

}  // namespace erkit::erprint
