#include "views/mapfile.h"

#include <fmt/format.h>

#include <algorithm>

namespace erkit::views {

std::vector<model::FuncId> mapfile_functions(const model::Profile& p, model::ObjId o, const SortSpec& sort) {
  const auto& ft = p.functions();
  std::vector<model::FuncId> out;
  for (model::FuncId f : sorted_functions(p, sort, 0)) {
    const auto& e = ft.at(f);
    if (e.pseudo || e.object != o || e.size == 0) continue;
    out.push_back(f);
  }
  return out;
}

std::string render_mapfile(const model::Profile& p, model::ObjId o, const SortSpec& sort, MapfileFormat f) {
  const auto& ft = p.functions();
  auto funcs = mapfile_functions(p, o, sort);
  // Section and symbol names are the linker's: mangled when the function has a mangled name.
  auto symbol = [&](model::FuncId g) { return ft.at(g).mangled.empty() ? ft.at(g).name : ft.at(g).mangled; };
  std::string out;
  const std::string what = fmt::format("functions of {} ordered by {}", ft.object(o).path, sort_description(sort));
  switch (f) {
    case MapfileFormat::Gnu:
      out += fmt::format("/* erkit mapfile: {}.\n   Compile with -ffunction-sections, link with -Wl,-T,<this file>. */\n",
                         what);
      out += "SECTIONS\n{\n  .text.erkit_ordered :\n  {\n";
      for (auto g : funcs) out += fmt::format("    *(.text.{})\n", symbol(g));
      out += "  }\n}\nINSERT BEFORE .text;\n";
      break;
    case MapfileFormat::Gold:
      out += fmt::format("# erkit mapfile: {}; for ld.gold --section-ordering-file\n", what);
      for (auto g : funcs) out += fmt::format(".text.{}\n", symbol(g));
      break;
    case MapfileFormat::Lld:
      out += fmt::format("# erkit mapfile: {}; for ld.lld --symbol-ordering-file\n", what);
      for (auto g : funcs) out += symbol(g) + "\n";
      break;
  }
  return out;
}

}  // namespace erkit::views
