// er_export's raw text dump of an experiment directory: the log and map lines, every record
// of every data file decoded with the layout the file's own header describes (so a file from
// another erkit version still dumps), stack PCs located in the map's load objects, damage
// (truncation, corrupt or incomplete records) shown where it is, and every other file listed.
#pragma once
#include <cstdio>
#include <string>

namespace erkit::exporters {

// Dumps `path` to `out`; with `descendants`, each _*.er subexperiment follows.
bool dump_experiment(const std::string& path, FILE* out, bool descendants, std::string* error);

}  // namespace erkit::exporters
