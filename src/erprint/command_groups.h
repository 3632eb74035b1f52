// The groups of er_print commands, each in its own file, and helpers they share. The trace
// (trace_commands.cc) and source (source_commands.cc) groups have their own headers.
#pragma once
#include <string>
#include <vector>

#include "erprint/commands.h"

namespace erkit::erprint {

void add_function_commands(std::vector<Command>& t);  // functions, metrics, sort, callers-callees...
void add_select_commands(std::vector<Command>& t);    // filters, *_select, object_*
void add_setting_commands(std::vector<Command>& t);   // limit, name, outfile, dmetrics, metric_list...
void add_misc_commands(std::vector<Command>& t);      // mapfile, dataspace and memory objects
void add_compare_commands(std::vector<Command>& t);   // compare on|off|delta|ratio (compare_commands.cc)
// The function list in compare mode, when compare is on and two or more sides are loaded.
bool compare_active(const Session& s);
CommandResult compare_functions(Session& s);
void add_gprof_commands(std::vector<Command>& t);     // gprof (gprof_commands.cc)

inline CommandResult command_ok() { return {}; }
inline CommandResult command_error(std::string m) { return {false, false, std::move(m)}; }

// Emits a report that is only text (its JSON form carries the text).
inline CommandResult emit_text(Session& s, const std::string& command, std::string text) {
  s.emit(Report{command, std::move(text), {}, {}});
  return {};
}
inline CommandResult emit_report(Session& s, const std::string& command, std::string text, json::Value data,
                                 std::vector<std::string> warnings = {}) {
  s.emit(Report{command, std::move(text), std::move(data), std::move(warnings)});
  return {};
}

// Joins a command's arguments back into one string (for specs and expressions that may have
// been split on blanks when not quoted).
std::string join_args(const std::vector<std::string>& a);

}  // namespace erkit::erprint
