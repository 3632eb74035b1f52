#include "views/java_disasm.h"

#include <fmt/format.h>

#include <set>

#include "disasm/disassembler.h"
#include "disasm/java_bytecode.h"

namespace erkit::views {

std::string render_java_disasm(const model::JavaMethod& m, uint64_t base, const AnnotationMetrics& metrics,
                               const SourceOptions& o, json::Value* json_out) {
  const auto code = disasm::decode_bytecodes(m.code);
  std::set<uint32_t> targets;
  for (const auto& b : code) targets.insert(b.targets.begin(), b.targets.end());
  // The Java frames' PCs are in the pseudo-object <JAVA_CLASSES> (its path is its name).
  auto values_at = [&](uint64_t pc) {
    std::optional<ExclIncl> v;
    for (const auto* map : {&metrics.leaf_pcs, &metrics.return_pcs}) {
      auto obj = map->find("<JAVA_CLASSES>");
      if (obj == map->end()) continue;
      auto it = obj->second.find(pc);
      if (it == obj->second.end()) continue;
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

bool render_compiled_disasm(const std::string& name, const std::vector<CompiledInstance>& instances,
                            const std::string& arch, const AnnotationMetrics& metrics, const SourceOptions& o,
                            std::string* out, std::string* error, json::Value* json_out) {
  disasm::Arch a = arch == "x86_64" ? disasm::Arch::X86_64 : arch == "aarch64" ? disasm::Arch::AArch64 : disasm::Arch::Unknown;
  auto dis = disasm::Disassembler::create(a, disasm::Syntax::Att, error);
  if (!dis) return false;
  AnnotatedListing l(metrics.cols, metrics.totals);
  const std::string indent(8, ' ');
  size_t shown = 0;
  for (const auto& ci : instances) {
    const CompiledInstance* df = &ci;
    auto line_at = [&](uint64_t off) {
      uint32_t line = 0;
      for (const auto& [o2, l2] : *df->lines) {
        if (o2 > off) break;
        line = l2;
      }
      return line;
    };
    std::string head = fmt::format("<Function: {} (compiled instance at {:#x}, {} bytes{})>", name, df->vaddr, df->size,
                                   df->code->empty() ? "; its code was not recorded" : "");
    l.add_text(indent + head, json::Value::object().set("kind", "index").set("function", name).set("address", df->vaddr));
    if (df->code->empty()) continue;
    ++shown;
    for (const auto& in : dis->decode(df->code->data(), df->code->size(), df->vaddr)) {
      uint32_t line = line_at(in.addr - df->vaddr);
      std::string where = line ? fmt::format("[{:>4}]", line) : "[   ?]";
      std::string t = fmt::format("{}  {:>8x}:  {:<7} {}", where, in.addr, in.mnemonic, in.operands);
      auto v = metrics.instr_values("<JAVA_CLASSES>", in.addr, in.size);
      json::Value info = json::Value::object()
                             .set("kind", "instruction")
                             .set("function", name)
                             .set("address", in.addr)
                             .set("line", line ? json::Value(line) : json::Value())
                             .set("mnemonic", in.mnemonic)
                             .set("operands", in.operands);
      l.add(v ? v : std::optional<ExclIncl>(ExclIncl{}), t, true, std::move(info));
    }
  }
  if (!shown) {
    *error = fmt::format("no compiled code of {} was recorded", name);
    return false;
  }
  std::string head = fmt::format("Load Object: <JAVA_CLASSES> (compiled methods: the JIT's code as the agent copied it)\n");
  *out = head + "\n" + l.render(o.dthresh);
  if (json_out) {
    json::Value listing = l.to_json(o.dthresh);
    *json_out = json::Value::object()
                    .set("load_object", "<JAVA_CLASSES>")
                    .set("method", name)
                    .set("columns", listing["columns"])
                    .set("threshold", o.dthresh)
                    .set("rows", listing["rows"]);
  }
  return true;
}

}  // namespace erkit::views
