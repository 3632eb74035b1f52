#include "views/dynamic_disasm.h"

#include <fmt/format.h>

#include <set>

#include "disasm/disassembler.h"

namespace erkit::views {
namespace {

uint32_t line_at(const RecordedCode& c, uint64_t offset) {
  uint32_t line = 0;
  for (const auto& [off, l] : c.lines) {
    if (off > offset) break;
    line = l;
  }
  return line;
}

disasm::Arch host_arch() {
#if defined(__aarch64__)
  return disasm::Arch::AArch64;
#else
  return disasm::Arch::X86_64;
#endif
}

}  // namespace

bool render_recorded_disasm(const RecordedCode& c, const AnnotationMetrics& m, const SourceOptions& o,
                            std::string* out, std::string* error, json::Value* json_out) {
  if (c.code.empty()) {
    *error = fmt::format("{} ({}): its code was not recorded (a perf map names JIT code but does not copy it; "
                         "collector_func_load and a jitdump file do)",
                         c.name, c.object);
    return false;
  }
  // Recorded on the machine that ran the program, which is the one the collector ran on.
  auto dis = disasm::Disassembler::create(host_arch(), disasm::Syntax::Att, error);
  if (!dis) return false;
  auto instrs = dis->decode(c.code.data(), c.code.size(), c.vaddr);
  const uint64_t lo = c.vaddr, hi = c.vaddr + c.code.size();
  std::set<uint64_t> targets;
  for (const auto& in : instrs)
    if (in.has_target && in.flow != disasm::Flow::Call && in.target >= lo && in.target < hi) targets.insert(in.target);
  AnnotatedListing l(m.cols, m.totals);
  auto kind = [](const char* k) { return json::Value::object().set("kind", k); };
  l.add_text(fmt::format("        <Function: {}>", c.name), kind("index").set("function", c.name));
  for (const auto& in : instrs) {
    uint32_t line = line_at(c, in.addr - c.vaddr);
    std::string where = line ? fmt::format("[{:>4}]", line) : "[   ?]";
    std::string hex;
    if (o.dcc.hex) {
      for (uint8_t k = 0; k < in.size && k < sizeof in.bytes; ++k) hex += fmt::format("{}{:02x}", k ? " " : "", in.bytes[k]);
      hex += "  ";
    }
    std::string ops = in.operands;
    if (in.has_target && (in.target < lo || in.target >= hi)) ops += fmt::format(" <{:#x}>", in.target);
    const bool target = targets.count(in.addr) != 0;
    std::string t = fmt::format("{} {}{:>8x}:  {}{:<7} {}", where, target ? '>' : ' ', in.addr, hex, in.mnemonic, ops);
    auto v = m.instr_values(c.object, in.addr, in.size);
    if (!v) v = ExclIncl{};
    json::Value info = kind("instruction").set("function", c.name).set("address", in.addr);
    info.set("line", line ? json::Value(line) : json::Value()).set("branch_target", target);
    info.set("mnemonic", in.mnemonic).set("operands", ops);
    l.add(v, t, true, std::move(info));
  }
  std::string head = fmt::format("Load Object: {}\n", c.object);
  if (!c.source.empty()) head += fmt::format("Source file: {}\n", c.source);
  head += fmt::format("(decoded from the {} bytes of code recorded in the experiment)\n", c.code.size());
  if (json_out) {
    json::Value listing = l.to_json(o.dthresh);
    *json_out = json::Value::object().set("load_object", c.object);
    if (!c.source.empty()) json_out->set("source_file", c.source);
    json_out->set("messages", json::Value::array())
        .set("columns", listing["columns"])
        .set("threshold", o.dthresh)
        .set("rows", listing["rows"]);
  }
  *out = head + "\n" + l.render(o.dthresh);
  return true;
}

}  // namespace erkit::views
