#include "erprint/recorded_code.h"

#include <fmt/format.h>

#include "erprint/function_lookup.h"
#include "erprint/source_settings.h"
#include "views/dynamic_disasm.h"

namespace erkit::erprint {

std::optional<CommandResult> run_recorded_disasm(Session& s, const std::vector<std::string>& a) {
  auto& p = s.profile();
  const auto& ft = p.functions();
  for (model::FuncId f : find_functions(s, a[0])) {
    const auto& e = ft.at(f);
    if (e.object == model::kNoObject) continue;
    const std::string& obj = ft.object(e.object).path;
    if (obj != "<dynamic functions>" && obj != "<JIT-compiled code>") continue;
    // The recorded function of that name at that address; a copy with code if any has it.
    const reader::DynamicFunction* best = nullptr;
    for (const auto& x : p.experiments())
      for (const auto& df : x.dynamic_functions)
        if (df.vaddr == e.addr && df.name == e.name && (!best || (best->code.empty() && !df.code.empty())))
          best = &df;
    if (!best) continue;
    views::RecordedCode c;
    c.name = e.name;
    c.object = obj;
    c.source = best->source;
    c.vaddr = best->vaddr;
    c.code = best->code;
    c.lines = best->lines;
    views::AnnotationMetrics m = views::build_annotation_metrics(p, s.function_columns());
    std::string out, error;
    json::Value data;
    if (!views::render_recorded_disasm(c, m, s.source_settings().opts, &out, &error,
                                       s.format == OutputFormat::Json ? &data : nullptr))
      return command_error("disasm: " + error);
    return emit_report(s, "disasm", out, std::move(data));
  }
  return std::nullopt;
}

}  // namespace erkit::erprint
