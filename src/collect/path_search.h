// Finding executables for collect: the target program (launch.cc) and the emulator that runs a
// target built for another machine (emulation.cc) are looked up the same way.
#pragma once
#include <string>

namespace erkit::collect {

// A regular file this user may execute.
bool is_executable_file(const std::string& path);

// The first executable regular file `name` in the directories of PATH (unset: /usr/local/bin,
// /usr/bin, /bin; an empty entry is the current directory, as for execvp), as an absolute,
// normalised path; empty when there is none.
std::string find_in_path(const std::string& name);

}  // namespace erkit::collect
