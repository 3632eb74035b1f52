#include "exporters/raw_dump.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>
#include <vector>

#include "common/text_escape.h"
#include "common/version.h"
#include "format/clock_compact.h"
#include "format/experiment_format.h"
#include "format/record_descriptors.h"

namespace erkit::exporters {
namespace {
namespace fs = std::filesystem;

struct Field {
  std::string name, type;
  uint32_t offset = 0;
  uint32_t count = 1;   // array length; 0 = runs to the end of the record
  uint32_t elem = 0;    // bytes per element
  bool is_signed = false, is_char = false;
};

struct RecordLayout {
  std::string name;
  std::vector<Field> fields;
};

// Parses a header's self-description: "<kind> <name> <size> field:type@offset ...".
std::map<uint32_t, RecordLayout> parse_descriptor(const std::string& text) {
  std::map<uint32_t, RecordLayout> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream in(line);
    uint32_t kind, size;
    RecordLayout r;
    if (!(in >> kind >> r.name >> size)) continue;
    std::string tok;
    while (in >> tok) {
      size_t colon = tok.find(':'), at = tok.find('@');
      if (colon == std::string::npos || at == std::string::npos || at < colon) continue;
      Field f;
      f.name = tok.substr(0, colon);
      f.type = tok.substr(colon + 1, at - colon - 1);
      f.offset = uint32_t(std::strtoul(tok.c_str() + at + 1, nullptr, 10));
      std::string base = f.type.substr(0, f.type.find('['));
      if (size_t br = f.type.find('['); br != std::string::npos)
        f.count = uint32_t(std::strtoul(f.type.c_str() + br + 1, nullptr, 10));
      f.is_char = base == "char";
      f.is_signed = base[0] == 'i';
      f.elem = f.is_char ? 1 : base == "u32" || base == "i32" ? 4 : base == "u64" || base == "i64" ? 8 : 0;
      if (f.elem) r.fields.push_back(f);
    }
    out[kind] = r;
  }
  return out;
}

struct MapEntry {
  std::string path;
  uint64_t bias, lo, hi;
};

std::vector<MapEntry> read_map(const std::string& dir) {
  std::vector<MapEntry> out;
  std::ifstream in(dir + "/" + format::kMapFile);
  std::string line;
  while (std::getline(in, line)) {
    auto ev = common::parse_text_event(line);
    if (!ev || ev->name != "load") continue;
    out.push_back({ev->get("path"), uint64_t(ev->get_int("bias").value_or(0)), uint64_t(ev->get_int("lo").value_or(0)),
                   uint64_t(ev->get_int("hi").value_or(0))});
  }
  return out;
}

std::string describe_pc(const std::vector<MapEntry>& map, uint64_t pc) {
  if (pc == format::kTruncatedMarkerPc) return "<truncated>";
  if (pc == format::kUnwindFailedPc) return "<unwind failed>";
  for (const auto& m : map)
    if (pc >= m.lo && pc < m.hi) return fmt::format("{}+{:#x}", fs::path(m.path).filename().string(), pc - m.bias);
  return "?";
}

bool hex_field(const std::string& name) {
  auto ends = [&](const char* s) { return name.size() >= strlen(s) && name.compare(name.size() - strlen(s), strlen(s), s) == 0; };
  return name == "id" || ends("_id") || ends("address") || name == "object" || name == "word";
}

std::string field_value(const Field& f, const uint8_t* rec, uint32_t size, const std::vector<MapEntry>& map) {
  uint32_t n = f.count ? f.count : (size > f.offset ? (size - f.offset) / f.elem : 0);
  if (f.offset + uint64_t(n) * f.elem > size) return "<beyond record>";
  const uint8_t* p = rec + f.offset;
  if (f.is_char) return common::quote_value(std::string(reinterpret_cast<const char*>(p), strnlen(reinterpret_cast<const char*>(p), n)));
  std::vector<std::string> vals;
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t u = 0;
    std::memcpy(&u, p + i * f.elem, f.elem);
    int64_t s = f.elem == 4 ? int64_t(int32_t(uint32_t(u))) : int64_t(u);
    if (f.name == "pcs") vals.push_back(fmt::format("{:#x}({})", u, describe_pc(map, u)));
    else if (hex_field(f.name)) vals.push_back(fmt::format("{:#x}", u));
    else if (f.is_signed) vals.push_back(fmt::format("{}", s));
    else vals.push_back(fmt::format("{}", u));
  }
  if (f.count == 1) return vals.empty() ? "" : vals[0];
  std::string s = "[";
  for (size_t i = 0; i < vals.size(); ++i) s += (i ? " " : "") + vals[i];
  return s + "]";
}

void dump_text_file(const std::string& path, const char* title, FILE* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fmt::print(out, "\n== {}: absent\n", title);
    return;
  }
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fmt::print(out, "\n== {} ({} bytes)\n", title, content.size());
  size_t start = 0, lineno = 1;
  while (start < content.size()) {
    size_t nl = content.find('\n', start);
    bool complete = nl != std::string::npos;
    std::string_view line(content.data() + start, (complete ? nl : content.size()) - start);
    fmt::print(out, "{:5} {}{}\n", lineno++, line, complete ? "" : "   <- incomplete line (no newline): ignored by readers");
    start = complete ? nl + 1 : content.size();
  }
}

void dump_data_file(const std::string& path, uint32_t kind, const std::vector<MapEntry>& map, FILE* out) {
  std::ifstream in(path, std::ios::binary);
  const char* name = format::kDataFileNames[kind];
  if (!in) {
    fmt::print(out, "\n== {}: absent\n", name);
    return;
  }
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fmt::print(out, "\n== {} ({} bytes)\n", name, data.size());
  if (data.size() < sizeof(format::FileHeader)) {
    fmt::print(out, "   truncated header: {} of {} bytes\n", data.size(), sizeof(format::FileHeader));
    return;
  }
  format::FileHeader h;
  std::memcpy(&h, data.data(), sizeof h);
  bool magic_ok = std::memcmp(h.magic, format::kFileMagic, sizeof h.magic) == 0;
  fmt::print(out, "   header: magic={}{} format_version={} header_size={} block_size={} data_kind={} endian_check={:#x}{} created_ns={}\n",
             std::string(h.magic, strnlen(h.magic, sizeof h.magic)), magic_ok ? "" : " (BAD)", h.format_version,
             h.header_size, h.block_size, h.data_kind, h.endian_check,
             h.endian_check == format::kEndianCheck ? "" : " (other byte order)", h.created_ns);
  if (!magic_ok) {
    fmt::print(out, "   not an erkit data file: records not dumped\n");
    return;
  }
  std::string desc(h.descriptor, strnlen(h.descriptor, sizeof h.descriptor));
  std::istringstream dl(desc);
  for (std::string l; std::getline(dl, l);) fmt::print(out, "   layout: {}\n", l);
  auto layouts = parse_descriptor(desc);
  if (layouts.empty()) {
    fmt::print(out, "   (no usable layout in the header: using this erkit's)\n");
    layouts = parse_descriptor(format::record_descriptor_text(format::DataKind(kind)));
  }
  uint32_t block = h.block_size ? h.block_size : format::kBlockSize;
  uint32_t header = h.header_size ? h.header_size : format::kHeaderSize;
  uint64_t records = 0, incomplete = 0;
  for (size_t start = header, b = 0; start < data.size(); start += block, ++b) {
    size_t end = std::min(data.size(), start + block);
    fmt::print(out, "-- block {} at offset {}{}\n", b, start, end - start < block ? " (truncated)" : "");
    size_t off = start;
    format::ClockCompactBase cbase{};  // compact clock samples decode against their block's earlier ones
    bool cvalid = true;
    while (off + 8 <= end) {
      uint32_t word;
      std::memcpy(&word, data.data() + off, 4);
      if (word == 0) break;
      uint32_t size = format::record_size(word), rk = format::record_kind(word);
      if (rk == format::kRecClockCompact && format::record_complete(word) && size >= 8 && !(size & 7) &&
          off + size <= end) {
        format::ClockFields f;
        if (cvalid && format::decode_clock_compact(&cbase, reinterpret_cast<const uint8_t*>(data.data()) + off, size, &f)) {
          fmt::print(out, "   @{} clock_sample (compact, {} bytes) tid={} tstamp_ns={} stack_id={:#x} cpu={} flags={} ns=[{}]\n",
                     off, size, f.tid, f.tstamp_ns, f.stack_id, f.cpu, f.flags, fmt::join(f.ns, " "));
        } else {
          fmt::print(out, "   @{} clock_compact ({} bytes) not decodable (damaged, or after an incomplete record)\n", off, size);
          cvalid = false;
        }
        ++records;
        off += size;
        continue;
      }
      if (size < 8 || (size & 7) || off + size > end) {
        fmt::print(out, "   @{} corrupt record word {:#010x} (size {}): rest of block skipped\n", off, word, size);
        break;
      }
      auto it = layouts.find(rk);
      std::string rname = it == layouts.end() ? fmt::format("kind{}", rk) : it->second.name;
      if (!format::record_complete(word)) {
        fmt::print(out, "   @{} {} INCOMPLETE ({} bytes; the writer stopped before finishing it)\n", off, rname, size);
        ++incomplete;
        cvalid = false;
      } else {
        std::string line = fmt::format("   @{} {}", off, rname);
        if (it != layouts.end()) {
          for (const Field& f : it->second.fields)
            if (f.name != "word") line += fmt::format(" {}={}", f.name, field_value(f, reinterpret_cast<const uint8_t*>(data.data()) + off, size, map));
        } else {
          line += fmt::format(" size={} (unknown record kind)", size);
        }
        fmt::print(out, "{}\n", line);
        ++records;
      }
      off += size;
    }
  }
  fmt::print(out, "   {} records, {} incomplete\n", records, incomplete);
}

}  // namespace

bool dump_experiment(const std::string& path_in, FILE* out, bool descendants, std::string* error) {
  std::string path = path_in;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *error = fmt::format("'{}': no such experiment directory", path);
    return false;
  }
  fmt::print(out, "# er_export {}: raw contents of {} (this layout may change between versions)\n", ERKIT_VERSION, path);
  dump_text_file(path + "/" + format::kLogFile, "log", out);
  dump_text_file(path + "/" + format::kMapFile, "map", out);
  if (fs::exists(path + "/" + format::kNotesFile)) dump_text_file(path + "/" + format::kNotesFile, "notes", out);
  auto map = read_map(path);
  // Stacks first: the records of the other files refer to them.
  dump_data_file(path + "/" + format::kDataFileNames[0], 0, map, out);
  for (uint32_t k = 1; k < uint32_t(format::DataKind::kCount); ++k)
    dump_data_file(path + "/" + format::kDataFileNames[k], k, map, out);
  // Everything else in the directory, so nothing goes unseen.
  std::vector<std::string> others, subexps;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::string rel = fs::relative(it->path(), path, ec).string();
    std::string top = rel.substr(0, rel.find('/'));
    bool known = top == format::kLogFile || top == format::kMapFile || top == format::kNotesFile ||
                 std::find(std::begin(format::kDataFileNames), std::end(format::kDataFileNames), top) !=
                     std::end(format::kDataFileNames);
    if (top.size() > 3 && top[0] == '_' && top.substr(top.size() - 3) == ".er") {
      if (rel == top) subexps.push_back(it->path().string());
      it.disable_recursion_pending();
      continue;
    }
    if (known || it->is_directory()) continue;
    std::error_code sec;
    auto size = it->is_regular_file(sec) ? it->file_size(sec) : 0;
    others.push_back(fmt::format("{} ({}{} bytes)", rel, it->is_symlink() ? "symbolic link, " : "", size));
  }
  std::sort(others.begin(), others.end());
  std::sort(subexps.begin(), subexps.end());
  fmt::print(out, "\n== other files: {}\n", others.size());
  for (const auto& o : others) fmt::print(out, "   {}\n", o);
  fmt::print(out, "\n== descendant experiments: {}\n", subexps.size());
  for (const auto& d : subexps) fmt::print(out, "   {}\n", d);
  if (descendants) {
    for (const auto& d : subexps) {
      fmt::print(out, "\n");
      if (!dump_experiment(d, out, false, error)) return false;
    }
  }
  return true;
}

}  // namespace erkit::exporters
