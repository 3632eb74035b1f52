#include "views/java_disasm.h"

#include <fmt/format.h>

#include <set>

#include "disasm/java_bytecode.h"

namespace erkit::views {

std::string render_java_disasm(const model::JavaMethod& m, uint64_t base, const AnnotationMetrics& metrics,
                               const SourceOptions& o, json::Value* json_out) {
  const auto code = disasm::decode_bytecodes(m.code);
  std::set<uint32_t> targets;
  for (const auto& b : code) targets.insert(b.targets.begin(), b.targets.end());
  // The Java frames' PCs are in <JAVA_CLASSES>, whose objects have no file (path "").
  auto values_at = [&](uint64_t pc) {
    std::optional<ExclIncl> v;
    for (const auto* map : {&metrics.leaf_pcs, &metrics.return_pcs}) {
      auto o = map->find("");
      if (o == map->end()) continue;
      auto it = o->second.find(pc);
      if (it == o->second.end()) continue;
      if (!v) v.emplace();
      v->add(it->second);  // a caller frame's PC is its invoke's bci itself, not a return address
    }
    return v ? v : std::optional<ExclIncl>(ExclIncl{});
  };
  AnnotatedListing l(metrics.cols, metrics.totals);
  const std::string indent(8, ' ');
  l.add_text(indent + fmt::format("<Function: {}>", m.name), json::Value::object().set("kind", "index").set("function", m.name));
  for (const auto& b : code) {
    uint32_t line = m.line_at(b.bci);
    std::string where = line ? fmt::format("[{:>4}]", line) : "[   ?]";
    const bool target = targets.count(b.bci) != 0;
    std::string t = fmt::format("{} {}{:>8}:  {:<13} {}", where, target ? '>' : ' ', b.bci, b.mnemonic, b.operands);
    while (!t.empty() && t.back() == ' ') t.pop_back();
    json::Value info = json::Value::object()
                           .set("kind", "bytecode")
                           .set("function", m.name)
                           .set("bci", b.bci)
                           .set("line", line ? json::Value(line) : json::Value())
                           .set("mnemonic", b.mnemonic)
                           .set("operands", b.operands)
                           .set("branch_target", target);
    l.add(values_at(base + b.bci), t, true, std::move(info));
  }
  std::string head = fmt::format("Source file: {}\nObject file: <JAVA_CLASSES>\nLoad Object: <JAVA_CLASSES>\n", m.source);
  head += "Bytecodes (bytecode index: instruction; constant-pool operands as #index)\n";
  if (json_out) {
    json::Value listing = l.to_json(o.dthresh);
    *json_out = json::Value::object()
                    .set("load_object", "<JAVA_CLASSES>")
                    .set("source_file", m.source)
                    .set("method", m.name)
                    .set("columns", listing["columns"])
                    .set("threshold", o.dthresh)
                    .set("rows", listing["rows"]);
  }
  return head + "\n" + l.render(o.dthresh);
}

}  // namespace erkit::views
