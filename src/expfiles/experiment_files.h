// Experiments and groups as files: recognising them, reading group files, and copying, moving
// and removing an experiment directory as one unit (with its descendants and archives, which
// live inside it). Used by er_cp, er_mv and er_rm (seed-spec §11).
#pragma once
#include <string>
#include <vector>

namespace erkit::expfiles {

enum class PathKind {
  Missing,     // nothing at that path
  Experiment,  // a directory named *.er holding an erkit log
  Group,       // a file named *.erg starting with the group header line
  Other,       // anything else: never copied, moved or removed by these tools
};

struct Classified {
  PathKind kind = PathKind::Missing;
  std::string why;  // for Other: what makes it not an experiment or group
};

Classified classify(const std::string& path);

inline constexpr const char* kGroupHeader = "#analyzer experiment group";

struct GroupFile {
  std::vector<std::string> members;  // as written in the file
  std::vector<std::string> paths;    // resolved against the group file's directory
};
bool read_group(const std::string& path, GroupFile* out, std::string* error);
// Writes a group file listing `members` (paths as they should be written). Fails if it exists.
bool write_group(const std::string& path, const std::vector<std::string>& members, std::string* error);

// The experiment directory a descendant (…/parent.er/_f1.er) belongs to, or "" for a
// top-level experiment.
std::string parent_experiment(const std::string& path);

// Copies the experiment tree to dst (which must not exist). The copy is built beside dst under
// a temporary name and renamed into place, so dst either appears complete or not at all.
// Symbolic links are copied as links. `extra_archives`: an archives directory to copy into the
// copy's archives/ (a descendant copied on its own takes its parent's archives along).
bool copy_experiment(const std::string& src, const std::string& dst, std::string* error,
                     const std::string& extra_archives = "");
// Renames src to dst (must not exist); across file systems, copies then removes src.
bool move_experiment(const std::string& src, const std::string& dst, std::string* error);
// Removes the experiment tree.
bool remove_experiment(const std::string& path, std::string* error);

// Normalises a path for comparisons: absolute, lexically normal, no trailing slash.
std::string normal_path(const std::string& path);
std::string base_name(const std::string& path);
std::string dir_name(const std::string& path);  // "." for a bare name
bool ends_with(const std::string& s, const std::string& suffix);

}  // namespace erkit::expfiles
