#include "kernel/tracefs.h"

#include <sys/mount.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "kernel/kallsyms.h"

namespace erkit::kernel {

namespace {
bool has_events(const std::string& dir) {
  struct stat st;
  return stat((dir + "/events/sched").c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
}  // namespace

std::string tracefs_dir(std::string* why) {
  for (const char* d : {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"})
    if (has_events(d)) return d;
  if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr) == 0 && has_events("/sys/kernel/tracing"))
    return "/sys/kernel/tracing";
  if (why)
    *why = std::string("tracefs is not mounted and could not be mounted at /sys/kernel/tracing (") +
           std::strerror(errno) + "): mount -t tracefs nodev /sys/kernel/tracing as root";
  return "";
}

std::map<std::string, TraceField> parse_format(const std::string& text) {
  std::map<std::string, TraceField> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t f = line.find("field:");
    size_t o = line.find("offset:");
    size_t s = line.find("size:");
    size_t g = line.find("signed:");
    if (f == std::string::npos || o == std::string::npos || s == std::string::npos) continue;
    std::string decl = line.substr(f + 6, line.find(';', f) - f - 6);
    size_t br = decl.find('[');
    if (br != std::string::npos) decl.resize(br);
    size_t sp = decl.find_last_of(" *");
    std::string name = sp == std::string::npos ? decl : decl.substr(sp + 1);
    TraceField tf;
    tf.offset = uint32_t(std::strtoul(line.c_str() + o + 7, nullptr, 10));
    tf.size = uint32_t(std::strtoul(line.c_str() + s + 5, nullptr, 10));
    tf.is_signed = g != std::string::npos && line[g + 7] == '1';
    out[name] = tf;
  }
  return out;
}

Tracepoint read_tracepoint(const std::string& dir, const std::string& group, const std::string& name) {
  Tracepoint tp;
  std::string base = dir + "/events/" + group + "/" + name + "/";
  std::string id = read_text_file(base + "id");
  if (id.empty()) return tp;
  tp.id = std::strtoll(id.c_str(), nullptr, 10);
  tp.fields = parse_format(read_text_file(base + "format"));
  return tp;
}

int64_t field_value(const Tracepoint& tp, const std::string& field, const uint8_t* raw, size_t n) {
  auto it = tp.fields.find(field);
  if (it == tp.fields.end()) return 0;
  const TraceField& f = it->second;
  if (f.offset + f.size > n) return 0;
  switch (f.size) {
    case 1: { int8_t v; std::memcpy(&v, raw + f.offset, 1); return f.is_signed ? v : uint8_t(v); }
    case 2: { int16_t v; std::memcpy(&v, raw + f.offset, 2); return f.is_signed ? v : uint16_t(v); }
    case 4: { int32_t v; std::memcpy(&v, raw + f.offset, 4); return f.is_signed ? v : uint32_t(v); }
    case 8: { int64_t v; std::memcpy(&v, raw + f.offset, 8); return v; }
  }
  return 0;
}

}  // namespace erkit::kernel
