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

FuncId FunctionTable::intern(FunctionEntry e) {
  std::string key = fmt::format("{}\x1f{}", e.name, e.object);
  auto it = by_key_.find(key);
  if (it != by_key_.end()) {
    FunctionEntry& f = funcs_[it->second];
    // An inlined-only sighting may come first; keep the concrete range once known.
    if (f.size == 0 && e.size != 0) {
      f.addr = e.addr;
      f.size = e.size;
    }
    if (f.source_file.empty()) f.source_file = e.source_file;
    return it->second;
  }
  FuncId id = FuncId(funcs_.size());
  name_counts_[e.name]++;
  funcs_.push_back(std::move(e));
  by_key_.emplace(std::move(key), id);
  return id;
}

bool FunctionTable::name_is_unique(FuncId id) const {
  auto it = name_counts_.find(funcs_[id].name);
  return it == name_counts_.end() || it->second <= 1;
}

}  // namespace erkit::model
