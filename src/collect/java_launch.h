// collect's Java side (-j, -J; docs/java.md): whether the target is a JVM, where the JVMTI agent
// (libcollector-java.so) is, and how it reaches the JVM: -agentpath: on a java launcher's command
// line, JAVA_TOOL_OPTIONS for another program that starts a JVM.
#pragma once
#include <string>
#include <vector>

namespace erkit::collect {

// A java launcher by name: "java", "/usr/bin/java", ".../bin/java".
bool java_launcher(const std::string& program);
// A program that starts a JVM: a java launcher, or an ELF file that needs libjvm.so.
bool starts_jvm(const std::string& program_path);
// Splits -J's value into JVM options (blanks separate, quotes group: -J "-Xmx1g -Dk='a b'").
std::vector<std::string> split_jvm_options(const std::string& s);
// The java command line with the agent and -J's options after the launcher's name.
std::vector<std::string> java_command(const std::vector<std::string>& target, const std::string& agent,
                                      const std::vector<std::string>& jvm_options);
// JAVA_TOOL_OPTIONS for a program that is not a java launcher: the agent, -J's options, and
// what the variable held already.
std::string java_tool_options(const std::string& agent, const std::vector<std::string>& jvm_options,
                              const char* existing);
// libcollector-java.so beside the collector library; empty with *error set if absent.
std::string find_java_agent(const std::string& collector_lib, std::string* error);

}  // namespace erkit::collect
