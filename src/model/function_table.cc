#include "model/function_table.h"

#include <fmt/format.h>

namespace erkit::model {

FunctionTable::FunctionTable() {
  objects_.push_back({"", "<pseudo>", ""});
  for (const char* n : {"<Total>", "<Unknown>", "<Truncated-stack>"}) {
    FunctionEntry e;
    e.name = e.short_name = n;
    e.pseudo = true;
    intern(std::move(e));
  }
}

ObjId FunctionTable::intern_object(const std::string& path, const std::string& build_id, const std::string& file) {
  std::string key = path + '\0' + build_id;
  auto it = objects_by_key_.find(key);
  if (it != objects_by_key_.end()) return it->second;
  LoadObjectInfo o;
  o.path = path;
  size_t slash = path.rfind('/');
  o.name = slash == std::string::npos ? path : path.substr(slash + 1);
  o.build_id = build_id;
  if (file != path) o.file = file;
  ObjId id = ObjId(objects_.size());
  objects_.push_back(std::move(o));
  objects_by_key_.emplace(std::move(key), id);
  return id;
}

namespace {

bool has_range(const FunctionEntry& e) { return e.addr != 0 || e.size != 0; }

// "x.c" and "/src/x.c" name the same file.
bool same_file(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  const std::string& l = a.size() >= b.size() ? a : b;
  const std::string& s = a.size() >= b.size() ? b : a;
  if (l.size() == s.size()) return l == s;
  return l.compare(l.size() - s.size(), s.size(), s) == 0 && l[l.size() - s.size() - 1] == '/';
}

}  // namespace

std::string FunctionTable::name_key(const FunctionEntry& e) { return fmt::format("{}\x1f{}", e.name, e.object); }

FuncId FunctionTable::add(FunctionEntry e, const std::string& key) {
  FuncId id = FuncId(funcs_.size());
  name_counts_[e.name]++;
  if (has_range(e)) by_addr_[e.object].emplace(e.addr, id);
  funcs_.push_back(std::move(e));
  by_name_[key].push_back(id);
  return id;
}

FuncId FunctionTable::intern(FunctionEntry e, const std::string& file_hint) {
  std::string key = name_key(e);
  auto named = by_name_.find(key);
  if (has_range(e)) {
    auto& at = by_addr_[e.object];
    auto it = at.find(e.addr);
    if (it != at.end()) {
      FunctionEntry& f = funcs_[it->second];
      if (f.source_file.empty()) f.source_file = e.source_file;
      return it->second;
    }
    // An inlined-only sighting of the name may come first: it becomes this copy.
    if (named != by_name_.end())
      for (FuncId id : named->second) {
        FunctionEntry& f = funcs_[id];
        if (has_range(f)) continue;
        f.addr = e.addr;
        f.size = e.size;
        if (f.source_file.empty()) f.source_file = e.source_file;
        by_addr_[f.object].emplace(f.addr, id);
        return id;
      }
    return add(std::move(e), key);
  }
  if (named == by_name_.end()) return add(std::move(e), key);
  const auto& ids = named->second;
  FuncId pick = ids.front();
  if (ids.size() > 1)
    for (FuncId id : ids)
      if (same_file(funcs_[id].source_file, file_hint)) {
        pick = id;
        break;
      }
  if (funcs_[pick].source_file.empty()) funcs_[pick].source_file = e.source_file;
  return pick;
}

FuncId FunctionTable::intern_named(FunctionEntry e) {
  std::string key = name_key(e);
  auto named = by_name_.find(key);
  if (named == by_name_.end()) return add(std::move(e), key);
  FunctionEntry& f = funcs_[named->second.front()];
  if (!has_range(f) && has_range(e)) {
    f.addr = e.addr;
    f.size = e.size;
  }
  if (f.source_file.empty()) f.source_file = e.source_file;
  return named->second.front();
}

bool FunctionTable::name_is_unique(FuncId id) const {
  auto it = name_counts_.find(funcs_[id].name);
  return it == name_counts_.end() || it->second <= 1;
}

bool FunctionTable::name_is_unique_in_object(FuncId id) const {
  auto it = by_name_.find(name_key(funcs_[id]));
  return it == by_name_.end() || it->second.size() <= 1;
}

}  // namespace erkit::model
