#include "model/viewmode/java_info.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include "format/experiment_format.h"

namespace erkit::model {
namespace {

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> f;
  size_t start = 0;
  for (;;) {
    size_t t = line.find('\t', start);
    f.push_back(line.substr(start, t == std::string::npos ? std::string::npos : t - start));
    if (t == std::string::npos) return f;
    start = t + 1;
  }
}

bool to_u64(const std::string& s, uint64_t* v, int base) {
  const char* b = s.data();
  const char* e = b + s.size();
  if (base == 16 && s.size() > 2 && s[0] == '0' && s[1] == 'x') b += 2;
  auto r = std::from_chars(b, e, *v, base);
  return r.ec == std::errc() && r.ptr == e && b != e;
}

}  // namespace

uint32_t JavaMethod::line_at(uint32_t bci) const {
  uint32_t line = 0;
  for (const auto& [start, l] : lines) {
    if (start > bci) break;
    line = l;
  }
  return line;
}

JavaInfo parse_java_info(const std::string& text) {
  JavaInfo info;
  info.present = true;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    auto f = split_tabs(line);
    if (f[0] == "thread" && f.size() == 3) {
      uint64_t tid;
      if (!to_u64(f[1], &tid, 10)) { ++info.bad_lines; continue; }
      // The first name wins: the launcher's main thread attaches again as "DestroyJavaVM" at
      // the end, under the same tid.
      info.threads.try_emplace(uint32_t(tid), f[2]);
    } else if (f[0] == "method" && f.size() == 7) {
      uint64_t id;
      if (!to_u64(f[1], &id, 16)) { ++info.bad_lines; continue; }
      JavaMethod m;
      m.class_name = f[2];
      m.name = f[3];
      m.source = f[4];
      m.native = f[5] == "native";
      size_t start = 0;
      const std::string& t = f[6];
      bool ok = true;
      while (start < t.size()) {
        size_t comma = t.find(',', start);
        std::string pair = t.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        size_t colon = pair.find(':');
        uint64_t bci, l;
        if (colon == std::string::npos || !to_u64(pair.substr(0, colon), &bci, 10) ||
            !to_u64(pair.substr(colon + 1), &l, 10)) {
          ok = false;
          break;
        }
        m.lines.emplace_back(uint32_t(bci), uint32_t(l));
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      if (!ok) { ++info.bad_lines; continue; }
      std::sort(m.lines.begin(), m.lines.end());
      info.methods[id & 0xffffffffffffull] = std::move(m);
    } else if (f[0] == "code" && f.size() == 3) {
      // The bytecodes of the method named just before (hex, two digits a byte).
      uint64_t id;
      const std::string& h = f[2];
      auto it = to_u64(f[1], &id, 16) ? info.methods.find(id & 0xffffffffffffull) : info.methods.end();
      if (it == info.methods.end() || h.size() % 2) { ++info.bad_lines; continue; }
      std::vector<uint8_t> code(h.size() / 2);
      bool ok = true;
      for (size_t i = 0; i < code.size() && ok; ++i) {
        uint64_t v;
        ok = to_u64(h.substr(2 * i, 2), &v, 16);
        code[i] = uint8_t(v);
      }
      if (!ok) { ++info.bad_lines; continue; }
      it->second.code = std::move(code);
    } else if (f[0] == "version" && f.size() == 2) {
      uint64_t v;
      if (!to_u64(f[1], &v, 10)) { ++info.bad_lines; continue; }
      info.version = uint32_t(v);
    } else if (f[0] == "class" && f.size() == 3) {
      // Classes are known through their methods.
    } else {
      ++info.bad_lines;  // a line cut by a kill, or of a newer agent
    }
  }
  return info;
}

const JavaMethod* find_java_method_code(const JavaInfo& info, const std::string& name) {
  for (const auto& [id, m] : info.methods)
    if (m.name == name && !m.code.empty()) return &m;
  return nullptr;
}

JavaInfo load_java_info(const std::string& experiment_path) {
  std::ifstream in(experiment_path + "/" + format::kJavaFile, std::ios::binary);
  if (!in) return {};
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_java_info(ss.str());
}

}  // namespace erkit::model
