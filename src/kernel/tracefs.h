// The kernel's tracing file system: where it is (mounted on demand when er_kernel may), the
// numeric id of a tracepoint and the offsets of its fields (from its "format" file), so the
// raw data of sched_switch / sched_wakeup is read by name on any kernel version.
#pragma once
#include <cstdint>
#include <map>
#include <string>

namespace erkit::kernel {

struct TraceField {
  uint32_t offset = 0, size = 0;
  bool is_signed = false;
};

struct Tracepoint {
  int64_t id = -1;
  std::map<std::string, TraceField> fields;
};

// The tracefs directory ("/sys/kernel/tracing" or the debugfs one), mounting tracefs at
// /sys/kernel/tracing if nothing is mounted and this process may; "" with *why set if none.
std::string tracefs_dir(std::string* why);
// Reads "<dir>/events/<group>/<name>/{id,format}"; id -1 if missing.
Tracepoint read_tracepoint(const std::string& dir, const std::string& group, const std::string& name);
// Parses a tracepoint "format" file's field lines.
std::map<std::string, TraceField> parse_format(const std::string& text);
// An integer field of raw tracepoint data (0 if the field is missing or out of range).
int64_t field_value(const Tracepoint& tp, const std::string& field, const uint8_t* raw, size_t n);

}  // namespace erkit::kernel
