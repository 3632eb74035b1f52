#include "views/disasm_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <cstdint>
#include <set>

namespace erkit::views {
namespace {

// Source text of the files the listing interleaves, each looked up once.
class SourceCache {
 public:
  SourceCache(const SourcePaths& p, const std::string& object) : paths_(p), object_(object) {}
  // comp_dir: the compilation directory of the code's unit, for a relative file name.
  const std::vector<std::string>* get(const std::string& file, const std::string& comp_dir) {
    auto it = files_.find(file);
    if (it == files_.end()) {
      std::vector<std::string> lines;
      FoundSource f = find_source(paths_, file, comp_dir, object_);
      if (f.path.empty() || !read_lines(f.path, &lines)) {
        missing_.push_back(f.message);
        lines.clear();
      } else if (!f.message.empty()) {
        missing_.push_back(f.message);
      }
      it = files_.emplace(file, std::move(lines)).first;
    }
    return it->second.empty() ? nullptr : &it->second;
  }
  const std::vector<std::string>& messages() const { return missing_; }
  // Lines of `file` that generated code in this object.
  const std::set<uint32_t>& code_lines(const disasm::LineTable& lt, const std::string& file) {
    auto it = code_.find(file);
    if (it != code_.end()) return it->second;
    std::set<uint32_t> lines;
    for (const auto& [line, ranges] : lt.lines_of(lt.files_matching(file))) lines.insert(line);
    return code_.emplace(file, std::move(lines)).first->second;
  }

 private:
  const SourcePaths& paths_;
  std::string object_;
  std::map<std::string, std::vector<std::string>> files_;
  std::map<std::string, std::set<uint32_t>> code_;
  std::vector<std::string> missing_;
};

std::string hex_bytes(const disasm::Instruction& i) {
  std::string s;
  for (uint8_t k = 0; k < i.size && k < sizeof i.bytes; ++k) s += fmt::format("{}{:02x}", k ? " " : "", i.bytes[k]);
  return s;
}

}  // namespace

std::string render_disasm(ObjectCodeIndex& obj, const std::vector<symbols::FunctionInfo>& fns,
                          const AnnotationMetrics& m, const SourceOptions& o, json::Value* json_out) {
  const bool src = o.dcc.src || o.dcc.asrc;
  SourceCache sources(o.paths, obj.path());
  commentary::Commentary com;
  uint32_t com_classes = o.dcc.classes;
  if (com_classes && src) load_commentary(obj, fns, o, &com);
  std::map<std::string, std::set<uint32_t>> printed;  // file -> source lines already shown
  std::vector<FunctionCode> codes;
  size_t hex_width = 0;
  for (const auto& f : fns) {
    codes.push_back(obj.function(f));
    if (o.dcc.hex)
      for (const auto& ci : codes.back().instrs) hex_width = std::max(hex_width, hex_bytes(ci.ins).size());
  }
  AnnotatedListing l(m.cols, m.totals);
  auto kind = [](const char* k) { return json::Value::object().set("kind", k); };
  const std::string indent(8, ' ');
  uint32_t fn_lo = 0;  // lowest primary-file line of the function being listed
  std::string comp_dir;  // of the function being listed
  auto emit_source = [&](const std::string& file, uint32_t line, bool primary) {
    const auto* text = sources.get(file, comp_dir);
    auto& done = printed[file];
    if (done.count(line)) return;
    // Show the unprinted lines of this function leading up to this one, and before its
    // first line the comment and signature lines without code; optimised code runs lines
    // out of order, so never go back past a printed line.
    uint32_t from = line;
    if (primary) {
      const auto& code = sources.code_lines(obj.lines(), file);
      while (from > 1 && !done.count(from - 1) && (from > fn_lo || !code.count(from - 1))) --from;
    }
    for (uint32_t n = from; n <= line; ++n) {
      done.insert(n);
      for (const auto* r : com.for_line(file, n, com_classes))
        l.add_text(indent + "  " + r->text, kind("commentary").set("file", file).set("line", n));
      std::string body = text && n <= text->size() ? (*text)[n - 1] : "";
      std::string t = fmt::format("{:>6}. {}", n, body);
      if (!primary && n == line && !text) t += fmt::format("  ({})", file);
      json::Value info = kind("source").set("file", file).set("line", n).set("source", body);
      if (o.dcc.asrc) l.add(m.line_values(file, n), t, false, std::move(info));
      else l.add_text(t, std::move(info));
    }
  };
  for (const auto& fc : codes) {
    std::set<uint64_t> targets;
    uint64_t lo = fc.info.addr, hi = fc.info.addr + fc.info.size;
    for (const auto& ci : fc.instrs)
      if (ci.ins.has_target && ci.ins.flow != disasm::Flow::Call && ci.ins.target >= lo && ci.ins.target < hi)
        targets.insert(ci.ins.target);
    bool index_done = false;
    const auto* cu = obj.lines().cu_at(fc.info.addr);
    comp_dir = cu ? cu->comp_dir : "";
    fn_lo = UINT32_MAX;
    for (const auto& ci : fc.instrs)
      if (ci.line() && ci.file() == fc.default_file) fn_lo = std::min(fn_lo, ci.line());
    std::string shown = index_name(fc.info, fc.entry_line);
    auto index = [&] {
      if (!index_done) l.add_text(indent + fmt::format("<Function: {}>", shown), kind("index").set("function", shown));
      index_done = true;
    };
    if (!src || fc.instrs.empty() || fc.instrs.front().line() == 0) index();
    if (fc.instrs.empty()) l.add_text(indent + fmt::format("(no instructions: {})", fc.error));
    for (const auto& ci : fc.instrs) {
      uint32_t line = ci.line();
      if (src && line) emit_source(ci.file(), line, ci.file() == fc.default_file);
      index();
      const auto& in = ci.ins;
      std::string ops = in.operands;
      if (!ci.call_symbol.empty()) {
        ops = ci.call_symbol;  // a .o's call or jump to a function it does not define
      } else if (in.flow == disasm::Flow::Call && in.has_target) {
        std::string name = obj.target_name(in.target);
        if (!name.empty()) ops = fmt::format("{} ! {:#x}", name, obj.shown_addr(in.target));
      } else if (in.has_target && (in.target < lo || in.target >= hi)) {
        std::string name = obj.target_name(in.target);
        if (!name.empty()) ops += fmt::format(" <{}>", name);
      }
      std::string where = line ? fmt::format("[{:>4}]", line) : "[   ?]";
      std::string hex = o.dcc.hex ? fmt::format("{:<{}}  ", hex_bytes(in), hex_width) : "";
      const bool target = targets.count(in.addr) != 0;
      std::string t = fmt::format("{} {}{:>8x}:  {}{:<7} {}", where, target ? '>' : ' ', obj.shown_addr(in.addr), hex, in.mnemonic, ops);
      auto v = m.instr_values(obj.path(), in.addr, in.size);
      if (!v) v = ExclIncl{};
      json::Value info = kind("instruction").set("function", fc.info.name).set("address", in.addr);
      info.set("line", line ? json::Value(line) : json::Value()).set("branch_target", target);
      if (o.dcc.hex) info.set("bytes", hex_bytes(in));
      info.set("mnemonic", in.mnemonic).set("operands", ops);
      l.add(v, t, true, std::move(info));
    }
  }
  std::string head = fmt::format("Load Object: {}\n", obj.path());
  const disasm::CompileUnit* cu = fns.empty() ? nullptr : obj.lines().cu_at(fns.front().addr);
  if (cu) head += fmt::format("Source file: {}\n", cu->name);
  std::set<std::string> seen;
  json::Value msgs = json::Value::array();
  if (src)
    for (const auto& msg : sources.messages())
      if (!msg.empty() && seen.insert(msg).second) head += msg + "\n", msgs.push(msg);
  if (json_out) {
    json::Value listing = l.to_json(o.dthresh);
    *json_out = json::Value::object().set("load_object", obj.path());
    if (cu) json_out->set("source_file", cu->name);
    json_out->set("messages", std::move(msgs))
        .set("columns", listing["columns"])
        .set("threshold", o.dthresh)
        .set("rows", listing["rows"]);
  }
  return head + "\n" + l.render(o.dthresh);
}

}  // namespace erkit::views
