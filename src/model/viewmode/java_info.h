// What the Java agent recorded about a JVM (the experiment's "java" file; docs/java.md,
// docs/experiment-format.md): its Java threads and the methods of its classes by jmethodID.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/viewmode/view_mode.h"

namespace erkit::model {


struct JavaMethod {
  std::string class_name;  // "pkg.Hot"
  std::string name;        // "pkg.Hot.spin(int)"
  std::string source;      // "Hot.java" (the class's SourceFile attribute)
  bool native = false;
  std::vector<std::pair<uint32_t, uint32_t>> lines;  // (start bci, line), ascending bci
  std::vector<uint8_t> code;  // its bytecodes ("code" records; empty: native, abstract, older agent)
  uint32_t line_at(uint32_t bci) const;
};

struct JavaInfo {
  bool present = false;  // the experiment has a "java" file
  std::unordered_map<uint64_t, JavaMethod> methods;  // by jmethodID (48 bits)
  std::unordered_map<uint32_t, std::string> threads;  // tid -> Java thread name
  uint32_t version = 1;  // the file's "version" record (absent: 1, written before it existed)
  uint64_t bad_lines = 0;  // lines that could not be read (reported once by the caller)
};

// Reads <experiment>/java; an absent file gives present = false.
JavaInfo load_java_info(const std::string& experiment_path);
// The method of that name (pkg.Hot.spin(int)) with bytecodes, or nullptr.
const JavaMethod* find_java_method_code(const JavaInfo& info, const std::string& name);
// Parses the file's text (for tests).
JavaInfo parse_java_info(const std::string& text);

}  // namespace erkit::model
