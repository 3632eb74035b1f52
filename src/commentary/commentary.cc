#include "commentary/commentary.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <zlib.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

namespace erkit::commentary {
namespace {

bool ends_with(const std::string& s, const char* suf) {
  size_t n = std::char_traits<char>::length(suf);
  return s.size() >= n && s.compare(s.size() - n, n, suf) == 0;
}

std::string base_name(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

std::string stem(const std::string& p) {
  std::string b = base_name(p);
  size_t d = b.rfind('.');
  return d == std::string::npos || d == 0 ? b : b.substr(0, d);
}

bool read_file(const std::string& path, std::string* out, std::string* error) {
  if (ends_with(path, ".gz")) {
    gzFile g = gzopen(path.c_str(), "rb");
    if (!g) {
      *error = path + ": cannot open";
      return false;
    }
    char buf[65536];
    int n;
    while ((n = gzread(g, buf, sizeof buf)) > 0) out->append(buf, size_t(n));
    bool ok = n == 0;
    if (!ok) *error = path + ": corrupt gzip data";
    gzclose(g);
    return ok;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot open";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

// Remark paths are usually relative to the compilation directory: compare the trailing
// components both paths have.
bool same_source(const std::string& recorded, const std::string& wanted) {
  if (recorded.empty() || wanted.empty()) return false;
  const std::string& longer = recorded.size() >= wanted.size() ? recorded : wanted;
  const std::string& shorter = recorded.size() >= wanted.size() ? wanted : recorded;
  std::string s = shorter;
  while (s.rfind("./", 0) == 0) s = s.substr(2);
  if (longer == s) return true;
  return longer.size() > s.size() && longer.compare(longer.size() - s.size(), s.size(), s) == 0 &&
         longer[longer.size() - s.size() - 1] == '/';
}

}  // namespace

bool is_record_file_name(const std::string& name) {
  return ends_with(name, ".opt.yaml") || ends_with(name, ".opt-record.json.gz") ||
         ends_with(name, ".opt-record.json") || ends_with(name, ".optinfo") || ends_with(name, ".opt-info");
}

bool read_record_file(const std::string& path, std::vector<Remark>* out, std::string* error) {
  std::string text;
  if (!read_file(path, &text, error)) return false;
  if (ends_with(path, ".opt.yaml")) {
    if (!read_clang_yaml(text, out, error)) return *error = path + ": " + *error, false;
    return true;
  }
  if (ends_with(path, ".json") || ends_with(path, ".json.gz")) {
    if (!read_gcc_json(text, out, error)) return *error = path + ": " + *error, false;
    return true;
  }
  read_gcc_opt_info(text, out);
  return true;
}

std::vector<std::string> find_record_files(const std::vector<std::string>& dirs, const std::string& source_file,
                                           const std::string& object_path) {
  std::set<std::string> stems;
  for (const auto& p : {source_file, object_path}) {
    if (p.empty()) continue;
    stems.insert(stem(p));
    stems.insert(base_name(p));
  }
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& d : dirs) {
    std::error_code ec;
    for (const auto& ent : std::filesystem::directory_iterator(d.empty() ? "." : d, ec)) {
      std::string name = ent.path().filename().string();
      if (!is_record_file_name(name)) continue;
      bool match = false;
      for (const auto& s : stems)
        match |= name.size() > s.size() && name.compare(0, s.size(), s) == 0 &&
                 (name[s.size()] == '.' || name[s.size()] == '-');
      // gcc -o prog x.c writes prog-x.c.opt-record.json.gz: the source name follows a '-'.
      if (!match && !source_file.empty()) match = name.find("-" + base_name(source_file) + ".") != std::string::npos;
      if (!match) continue;
      std::string full = std::filesystem::weakly_canonical(ent.path(), ec).string();
      if (seen.insert(full).second) out.push_back(full);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void Commentary::add(Remark r) {
  for (const auto& x : remarks_)
    if (x.line == r.line && x.text == r.text && x.file == r.file) return;
  remarks_.push_back(std::move(r));
}

void Commentary::add_file(const std::string& path) {
  if (std::find(files_.begin(), files_.end(), path) != files_.end()) return;
  files_.push_back(path);
  std::vector<Remark> rs;
  std::string error;
  if (!read_record_file(path, &rs, &error)) problems_.push_back(error);
  for (auto& r : rs) add(std::move(r));
}

std::vector<const Remark*> Commentary::for_line(const std::string& source_file, uint32_t line,
                                                uint32_t classes) const {
  std::vector<const Remark*> out;
  for (const auto& r : remarks_)
    if (r.line == line && (r.classes & classes) && same_source(r.file, source_file)) out.push_back(&r);
  // Both -fopt-info text and -fsave-optimization-record JSON of one compilation: the JSON's
  // remarks only (issue 15 item 9: each remark was printed twice, in two wordings).
  bool structured = std::any_of(out.begin(), out.end(), [](const Remark* r) { return !r->from_opt_info; });
  if (structured) std::erase_if(out, [](const Remark* r) { return r->from_opt_info; });
  // Several remarks at one line: in column order, as the compiler met them.
  std::stable_sort(out.begin(), out.end(), [](const Remark* a, const Remark* b) { return a->column < b->column; });
  return out;
}

std::vector<std::string> version_lines(const std::string& source_path, const std::string& producer) {
  std::vector<std::string> out;
  struct stat st;
  if (!source_path.empty() && ::stat(source_path.c_str(), &st) == 0) {
    char buf[64];
    struct tm tm;
    time_t t = st.st_mtime;
    localtime_r(&t, &tm);
    strftime(buf, sizeof buf, "%a %b %e %H:%M:%S %Y", &tm);
    out.push_back(fmt::format("Source file: {}", source_path));
    out.push_back(fmt::format("Last modified: {}", buf));
  }
  if (!producer.empty()) out.push_back(fmt::format("Compiled by: {}", producer));
  return out;
}

}  // namespace erkit::commentary
