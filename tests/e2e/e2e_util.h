// Helpers for end-to-end tests: run erkit's tools and purpose-built programs, and read
// er_print's function list back into numbers.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace erkit::e2e {

struct RunResult {
  int status = -1;  // exit status (128+signal when killed)
  std::string out;  // stdout
  std::string err;  // stderr
};

RunResult run(const std::string& command);
std::string bin(const std::string& tool);        // build/bin/<tool>
std::string program(const std::string& name);    // build/tests/programs/<name>
// A fresh empty working directory for one test; removed by the caller's fixture.
std::string make_workdir(const std::string& stem);

struct FunctionRow {
  std::vector<double> values;  // metric columns in order
  std::string name;
};
// Parses the rows of an er_print function list (after the header lines).
std::map<std::string, FunctionRow> parse_function_list(const std::string& text);
// Column `column` of function `fn` in such a list, summed over the rows that name it (a name
// may carry a compiler suffix: burn.constprop.0); 0 when there is none.
double function_value(const std::map<std::string, FunctionRow>& rows, const std::string& fn, size_t column);

// The rows of `er_print -json -functions` output (the "functions" report): name -> values, in
// the report's column order; time columns are exact nanoseconds, percent columns are as printed.
std::map<std::string, std::vector<double>> parse_json_function_rows(const std::string& json);

// Margins from what an experiment recorded (for statistical checks under load):
// the CPU time (user + system) of its largest clock sample, in seconds. A sample straddling
// the start or end of a phase credits its whole weight to one side, so a phase's recorded time
// can be off by that much at each end; under load CPU timers fire late and samples grow
// (10 ms at -p on on an idle machine, 40-80 ms seen with both cores busy).
double largest_cpu_sample_seconds(const std::string& experiment);
// The number of blocked-time records (the sampler's looks that classified off-CPU time).
size_t blocked_records(const std::string& experiment);

// The first metric (Excl. User CPU seconds) of the annotated-source row containing `marker`;
// -1 when there is none or its cells are blank.
double row_value(const std::string& listing, const std::string& marker);

// "<name> <ns>" lines a test program wrote (work_ratio: the kernel's CPU time of each call), in
// seconds by name; empty when the file is missing.
std::map<std::string, double> read_seconds_by_name(const std::string& path);

}  // namespace erkit::e2e
