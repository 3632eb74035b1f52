#include "expfiles/experiment_files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "format/experiment_format.h"

namespace erkit::expfiles {
namespace fs = std::filesystem;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

static std::string strip_slashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

std::string base_name(const std::string& path) {
  std::string p = strip_slashes(path);
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::string dir_name(const std::string& path) {
  std::string p = strip_slashes(path);
  size_t s = p.rfind('/');
  if (s == std::string::npos) return ".";
  return s == 0 ? "/" : p.substr(0, s);
}

std::string normal_path(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  if (ec) p = path;
  std::string s = p.lexically_normal().string();
  return strip_slashes(s);
}

Classified classify(const std::string& path_in) {
  std::string path = strip_slashes(path_in);
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) return {PathKind::Missing, "no such file or directory"};
  if (S_ISLNK(st.st_mode))
    return {PathKind::Other, "is a symbolic link (give the experiment's real path)"};
  if (S_ISDIR(st.st_mode)) {
    if (!ends_with(path, ".er")) return {PathKind::Other, "is a directory whose name does not end in .er"};
    std::ifstream log(path + "/" + format::kLogFile);
    std::string first;
    if (!log || !std::getline(log, first)) return {PathKind::Other, "has no experiment log (not an experiment)"};
    if (first.rfind(std::string(format::kLogMagic) + " ", 0) != 0)
      return {PathKind::Other, "has a log that is not an erkit experiment log"};
    return {PathKind::Experiment, ""};
  }
  if (S_ISREG(st.st_mode) && ends_with(path, ".erg")) {
    std::ifstream in(path);
    std::string first;
    if (!in || !std::getline(in, first) || first != kGroupHeader)
      return {PathKind::Other, fmt::format("is not an experiment group (first line is not '{}')", kGroupHeader)};
    return {PathKind::Group, ""};
  }
  return {PathKind::Other, "is neither an experiment (*.er directory) nor an experiment group (*.erg)"};
}

bool read_group(const std::string& path, GroupFile* out, std::string* error) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line) || line != kGroupHeader) {
    *error = fmt::format("'{}' is not an experiment group", path);
    return false;
  }
  std::string dir = dir_name(path);
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    out->members.push_back(line);
    out->paths.push_back(line[0] == '/' || dir == "." ? line : dir + "/" + line);
  }
  return true;
}

bool write_group(const std::string& path, const std::vector<std::string>& members, std::string* error) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = fmt::format("cannot create '{}': {}", path, std::strerror(errno));
    return false;
  }
  std::string text = std::string(kGroupHeader) + "\n";
  for (const auto& m : members) text += m + "\n";
  bool ok = write(fd, text.data(), text.size()) == ssize_t(text.size());
  ok = close(fd) == 0 && ok;
  if (!ok) {
    *error = fmt::format("cannot write '{}': {}", path, std::strerror(errno));
    unlink(path.c_str());
  }
  return ok;
}

std::string parent_experiment(const std::string& path) {
  std::string base = base_name(path);
  if (base.size() < 4 || base[0] != '_' || !ends_with(base, ".er")) return "";
  std::string parent = dir_name(path);
  return classify(parent).kind == PathKind::Experiment ? parent : "";
}

namespace {

// rename(2) that never replaces an existing destination (an empty directory would be).
int rename_noreplace(const std::string& from, const std::string& to) {
  if (renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
  // File systems without RENAME_NOREPLACE: check, then rename (a small race, as in mv -n).
  struct stat st;
  if (lstat(to.c_str(), &st) == 0) {
    errno = EEXIST;
    return -1;
  }
  return rename(from.c_str(), to.c_str());
}

std::string temp_name_beside(const std::string& dst) {
  return fmt::format("{}/.{}.er_tmp.{}", dir_name(dst), base_name(dst), getpid());
}

}  // namespace

bool copy_experiment(const std::string& src_in, const std::string& dst_in, std::string* error,
                     const std::string& extra_archives) {
  std::string src = strip_slashes(src_in), dst = strip_slashes(dst_in);
  std::string tmp = temp_name_beside(dst);
  std::error_code ec;
  fs::remove_all(tmp, ec);
  fs::copy(src, tmp, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (!ec && !extra_archives.empty() && fs::is_directory(extra_archives)) {
    fs::path archives = fs::path(tmp) / format::kArchivesDir;
    fs::create_directories(archives, ec);
    if (!ec)
      fs::copy(extra_archives, archives,
               fs::copy_options::recursive | fs::copy_options::copy_symlinks | fs::copy_options::skip_existing, ec);
  }
  if (ec) {
    *error = fmt::format("cannot copy '{}' to '{}': {}", src, dst, ec.message());
    std::error_code ignored;
    fs::remove_all(tmp, ignored);
    return false;
  }
  if (rename_noreplace(tmp, dst) != 0) {
    *error = fmt::format("cannot create '{}': {}", dst, std::strerror(errno));
    fs::remove_all(tmp, ec);
    return false;
  }
  return true;
}

bool move_experiment(const std::string& src_in, const std::string& dst_in, std::string* error) {
  std::string src = strip_slashes(src_in), dst = strip_slashes(dst_in);
  if (rename_noreplace(src, dst) == 0) return true;
  if (errno != EXDEV) {
    *error = fmt::format("cannot move '{}' to '{}': {}", src, dst, std::strerror(errno));
    return false;
  }
  // Another file system: the copy appears complete or not at all; only then is src removed.
  if (!copy_experiment(src, dst, error)) return false;
  return remove_experiment(src, error);
}

bool remove_experiment(const std::string& path, std::string* error) {
  std::error_code ec;
  fs::remove_all(strip_slashes(path), ec);
  if (ec) {
    *error = fmt::format("cannot remove '{}': {}", path, ec.message());
    return false;
  }
  return true;
}

}  // namespace erkit::expfiles
