// Helpers of the trace end-to-end tests: a fixture that collects in a fresh directory, and
// parsers for er_print's leaks/allocs blocks and for function rows found by name prefix.
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace erkit::e2e {

class TraceTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_workdir("trace"); }
  void TearDown() override {
    if (!HasFailure()) std::filesystem::remove_all(dir_);
  }
  RunResult collect(const std::string& args) { return run("cd " + dir_ + " && " + bin("collect") + " " + args); }
  RunResult er_print(const std::string& args) { return run("cd " + dir_ + " && " + bin("er_print") + " " + args); }
  std::string file(const std::string& name) {
    std::ifstream in(dir_ + "/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::string dir_;
};

// One block of a leaks or allocs report.
struct HeapBlock {
  long instances = 0, bytes = 0;
  std::vector<std::string> frames;  // function names, leaf first (offsets removed)
  bool has(const std::string& fn) const {
    for (const auto& f : frames)
      if (f == fn || f.rfind(fn + " (", 0) == 0) return true;
    return false;
  }
};

struct HeapReport {
  long distinct = -1, instances = -1, bytes = -1;
  std::vector<HeapBlock> blocks;
};

// Parses "Summary Results: Distinct X = a, Total Instances = b, Total Bytes Y = c" and the
// "X #n, Instances = i, Bytes Y = j" blocks with their frame lines.
inline HeapReport parse_heap_report(const std::string& text) {
  HeapReport r;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("Summary Results:", 0) == 0) {
      auto num_after = [&](const std::string& key) {
        auto p = line.find(key);
        return p == std::string::npos ? -1L : std::stol(line.substr(p + key.size()));
      };
      auto d = line.find("Distinct ");
      r.distinct = std::stol(line.substr(line.find("= ", d) + 2));
      r.instances = num_after("Total Instances = ");
      auto b = line.rfind("= ");
      r.bytes = std::stol(line.substr(b + 2));
    } else if (line.find(", Instances = ") != std::string::npos && line[0] != ' ') {
      HeapBlock blk;
      blk.instances = std::stol(line.substr(line.find("Instances = ") + 12));
      blk.bytes = std::stol(line.substr(line.rfind("= ") + 2));
      r.blocks.push_back(blk);
    } else if (line.rfind("    ", 0) == 0 && !r.blocks.empty()) {
      std::string f = line.substr(4);
      auto plus = f.find(" + 0x");
      if (plus != std::string::npos) f = f.substr(0, plus);
      r.blocks.back().frames.push_back(f);
    }
  }
  return r;
}

// The row of a function list whose name is `name` or starts with "name (" (a name shared by
// several load objects is shown with its object: libc's pthread_mutex_lock, seen in the clock
// profile, and the collector's wrapper); of several, the one with the largest first value.
inline const FunctionRow* find_row(const std::map<std::string, FunctionRow>& rows, const std::string& name) {
  const FunctionRow* best = nullptr;
  for (const auto& [n, row] : rows)
    if ((n == name || n.rfind(name + " (", 0) == 0) &&
        (!best || (!row.values.empty() && row.values[0] > best->values[0])))
      best = &row;
  return best;
}

// The number after `label` on the first line that starts with it ("Total calls   12"), -1 if
// there is none.
inline long stat_value(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(label, 0) == 0) return std::stol(line.substr(label.size()));
  return -1;
}

}  // namespace erkit::e2e
