#include "collect/java_launch.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace erkit::collect {

bool java_launcher(const std::string& program) {
  return std::filesystem::path(program).filename() == "java";
}

bool starts_jvm(const std::string& program_path) {
  if (java_launcher(program_path)) return true;
  std::error_code ec;
  auto real = std::filesystem::canonical(program_path, ec);
  if (!ec && java_launcher(real.string())) return true;
  // An ELF file that needs libjvm.so names it in its dynamic string table.
  std::ifstream in(program_path, std::ios::binary);
  if (!in) return false;
  char magic[4] = {};
  if (!in.read(magic, 4) || std::string(magic, 4) != "\x7f" "ELF") return false;
  in.seekg(0);
  std::string data;
  data.resize(8u << 20);
  in.read(data.data(), std::streamsize(data.size()));
  data.resize(size_t(in.gcount()));
  return data.find(std::string("libjvm.so\0", 10)) != std::string::npos;
}

std::vector<std::string> split_jvm_options(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  bool have = false;
  char quote = 0;
  for (char c : s) {
    if (quote) {
      if (c == quote) quote = 0;
      else cur += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      have = true;
    } else if (c == ' ' || c == '\t') {
      if (have) out.push_back(cur);
      cur.clear();
      have = false;
    } else {
      cur += c;
      have = true;
    }
  }
  if (have) out.push_back(cur);
  return out;
}

std::vector<std::string> java_command(const std::vector<std::string>& target, const std::string& agent,
                                      const std::vector<std::string>& jvm_options) {
  std::vector<std::string> args;
  args.push_back(target.at(0));
  args.push_back("-agentpath:" + agent);
  args.insert(args.end(), jvm_options.begin(), jvm_options.end());
  args.insert(args.end(), std::next(target.begin()), target.end());
  return args;
}

std::string java_tool_options(const std::string& agent, const std::vector<std::string>& jvm_options,
                              const char* existing) {
  std::string s = "-agentpath:" + agent;
  for (const auto& o : jvm_options) s += " " + o;
  if (existing && *existing) s += std::string(" ") + existing;
  return s;
}

std::string find_java_agent(const std::string& collector_lib, std::string* error) {
  auto lib = std::filesystem::path(collector_lib).parent_path() / "libcollector-java.so";
  if (std::filesystem::exists(lib)) return lib.string();
  *error = fmt::format("{} not found: Java profiling needs it (build erkit with a JDK's jvmti.h; "
                       "or -j off)", lib.string());
  return {};
}

}  // namespace erkit::collect
