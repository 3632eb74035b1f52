#include "collect/path_search.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

namespace erkit::collect {

bool is_executable_file(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::string find_in_path(const std::string& name) {
  const char* path = getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    // An empty entry is ".": built whole (assigning "." to the empty string trips GCC 12's
    // -Wrestrict false positive).
    std::string cand = (end == start ? std::string(".") : dirs.substr(start, end - start)) + "/" + name;
    if (is_executable_file(cand)) return std::filesystem::absolute(cand).lexically_normal().string();
    start = end + 1;
  }
  return {};
}

}  // namespace erkit::collect
