// Linker ordering files from a profile (er_print `mapfile`, seed-spec §7.17, §8.10): the
// functions of one load object in the order of the current sort metric, so the hottest code
// is laid out together. Link the object with -ffunction-sections and:
//   gnu:  gcc ... -Wl,-T,<file>            (a GNU ld script fragment with INSERT BEFORE .text)
//   gold: gcc -fuse-ld=gold ... -Wl,--section-ordering-file,<file>
//   lld:  clang -fuse-ld=lld ... -Wl,--symbol-ordering-file,<file>
#pragma once
#include <string>
#include <vector>

#include "model/profile.h"
#include "views/function_views.h"

namespace erkit::views {

enum class MapfileFormat { Gnu, Gold, Lld };

// Functions of object o with their own code (not inline-only), hottest first by `sort`.
std::vector<model::FuncId> mapfile_functions(const model::Profile& p, model::ObjId o, const SortSpec& sort);
std::string render_mapfile(const model::Profile& p, model::ObjId o, const SortSpec& sort, MapfileFormat f);

}  // namespace erkit::views
