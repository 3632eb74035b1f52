#include "source/source_files.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <fstream>

namespace erkit::source {
namespace {

bool is_file(const std::string& p) {
  struct stat st;
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string base_name(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::string join(const std::string& dir, const std::string& rel) {
  if (dir.empty() || dir == ".") return rel;
  return dir.back() == '/' ? dir + rel : dir + "/" + rel;
}

}  // namespace

std::vector<std::string> SourcePaths::split_path_list(const std::string& list) {
  std::vector<std::string> out;
  std::string cur;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] == '\\' && i + 1 < list.size() && list[i + 1] == ':') {
      cur += ':';
      ++i;
    } else if (list[i] == ':') {
      if (!cur.empty()) out.push_back(cur == "$" ? "$expts" : cur);
      cur.clear();
    } else {
      cur += list[i];
    }
  }
  if (!cur.empty()) out.push_back(cur == "$" ? "$expts" : cur);
  return out;
}

std::string SourcePaths::search_string() const {
  std::string out;
  for (const auto& s : search) {
    std::string e;
    for (char c : s) e += c == ':' ? std::string("\\:") : std::string(1, c);
    out += (out.empty() ? "" : ":") + e;
  }
  return out;
}

FoundSource find_source(const SourcePaths& paths, const std::string& recorded, const std::string& comp_dir,
                        const std::string& object) {
  FoundSource r;
  std::string full = recorded;
  if (!full.empty() && full[0] != '/' && !comp_dir.empty()) full = join(comp_dir, full);
  // Path maps rewrite the recorded name first (sources moved since compilation).
  std::string mapped = full;
  for (const auto& [from, to] : paths.pathmaps) {
    if (!from.empty() && mapped.compare(0, from.size(), from) == 0) {
      mapped = to + mapped.substr(from.size());
      break;
    }
  }
  std::string rel = mapped;
  while (!rel.empty() && rel[0] == '/') rel = rel.substr(1);
  std::vector<std::string> candidates;
  for (const auto& dir : paths.search) {
    if (dir == "$expts") {
      for (const auto& e : paths.experiments) {
        candidates.push_back(join(e, "archives/" + rel));
        candidates.push_back(join(e, "archives/" + base_name(mapped)));
        candidates.push_back(join(e, base_name(mapped)));
      }
    } else {
      candidates.push_back(join(dir, base_name(mapped)));
      if (rel != base_name(mapped)) candidates.push_back(join(dir, rel));
    }
  }
  if (mapped != full) candidates.push_back(mapped);
  candidates.push_back(full);
  for (const auto& c : candidates) {
    r.tried.push_back(c);
    if (is_file(c)) {
      r.path = c;
      break;
    }
  }
  if (r.path.empty()) {
    r.message = fmt::format("Source file {} not found (searched {}; use setpath, addpath or pathmap)", full,
                            paths.search_string());
    return r;
  }
  struct stat s, o;
  if (!object.empty() && ::stat(r.path.c_str(), &s) == 0 && ::stat(object.c_str(), &o) == 0 && s.st_mtime > o.st_mtime)
    r.message = fmt::format("Warning: source file {} is newer than the object file {}; the annotations may not match",
                            r.path, object);
  return r;
}

bool read_lines(const std::string& path, std::vector<std::string>* lines) {
  std::ifstream in(path);
  if (!in) return false;
  std::string l;
  while (std::getline(in, l)) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines->push_back(l);
  }
  return true;
}

}  // namespace erkit::source
