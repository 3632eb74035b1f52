// Archives of load objects (seed-spec §5.5, §11): for every object an experiment (and its
// descendants) mapped, the founder's archives/ directory holds its identity at the time of
// recording (path, build-id, size, mtime, checksum, host), optionally a copy of the file
// (-A copy, er_archive -A). Analysis reads the copy when the original changed or is missing,
// and warns when an object no longer matches what was recorded and there is no copy.
//
// Layout: archives/<basename>.<key>.archive, text lines "key=value" after the header line
// "erkit-archive 1"; the copy, if any, is archives/<basename>.<key>. <key> is 16 hex digits
// of a hash of the recorded path and build-id.
//
// Issue 18: renamed from reader/archive.h (which remains as a forwarding header): this module
// writes archives (write_archives; apply_archives, from open_experiment, archives an
// experiment its target's end left unarchived) as well as reading them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace erkit::reader {

struct Experiment;

struct ArchiveEntry {
  std::string path;        // as recorded in the map
  std::string build_id;    // as recorded in the map (from memory at run time)
  std::string file_build_id;  // of the file when it was archived
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  std::string checksum;    // "fnv64:<hex>" of the file's bytes
  std::string host;        // where it was archived
  std::string copy;        // file name of the copy inside archives/, "" if none
  std::vector<std::string> warnings;
  std::string entry_file;  // the .archive file
};

struct ArchiveOptions {
  bool copy = false;   // also copy every load object (collect -A copy, er_archive -A)
  bool force = false;  // rewrite existing entries (er_archive -F)
};

struct ArchiveReport {
  int archived = 0;  // entries written
  int copied = 0;    // objects copied
  int kept = 0;      // entries that existed already
  std::vector<std::string> warnings;  // one line each: object missing, changed, other machine
  std::string error;                  // fatal: not an experiment, cannot write
};

// Archives the load objects of `experiment` (founder or descendant: the founder's archives/
// receives them) and of all its descendants. Only regular ELF files of at most 1 GiB that the
// experiment's owner can read are read (identity) and copied; the others get an entry with
// the reason. Root works on another user's experiment with that user's rights
// (run_as_owner.h). Files are created new (never through a link) with the experiment's mode,
// copies never wider than their source's.
ArchiveReport write_archives(const std::string& experiment, const ArchiveOptions& options);
// The entries of an archives/ directory.
std::vector<ArchiveEntry> read_archives(const std::string& archives_dir);
// The directory holding an experiment's archives: its own archives/ if it has one (a copied
// descendant), else its founder's.
std::string archives_dir_for(const std::string& experiment);
// The GNU build-id of an ELF file in hex, "" if it has none or cannot be read.
std::string file_build_id(const std::string& path);
std::string file_build_id_of_fd(int fd);

// Used by open_experiment: archives an experiment that ended before collect could (first open
// after the target was killed), then decides for each load object which file to read (the
// original, or the archived copy) and records the mismatches as problems.
void apply_archives(Experiment& e);

}  // namespace erkit::reader
