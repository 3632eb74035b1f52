// The analyzer's one door to the data (docs/analyzer.md, "Equal to er_print"): every number
// the page shows is a report of er_print's own command code, run in JSON mode over one
// er_print session, so the page and `er_print -json` agree by construction. Keep every data
// access of the analyzer in this adapter, so that it can move to the model's query API
// (issue 18) in one place.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace erkit::erprint {
class Session;
}

namespace erkit::analyzer {

class ErModel {
 public:
  ErModel();
  ~ErModel();
  ErModel(const ErModel&) = delete;
  ErModel& operator=(const ErModel&) = delete;

  // Opens experiments, groups and descendants as er_print does (with the .er.rc files).
  // False with *error set when one cannot be read.
  bool load(const std::vector<std::string>& paths, std::string* error);
  // Loading warnings (shown on the Experiments tab).
  std::vector<std::string> warnings() const;

  // Whether a command line may come through the API: reports and view settings only (no
  // outfile, script, or file names: source and disasm go through run_for_function).
  static bool allowed_command(const std::string& line, std::string* why);

  // Runs command lines in order; returns a JSON array holding, per line, the objects
  // `er_print -json` prints for it (a report, or {"error": ...}).
  std::string run(const std::vector<std::string>& lines);

  // Runs `command "name" N` for function `id` (fsingle, csingle, source, disasm), naming the
  // function the way er_print's N rule needs. "" with *error when the id or command is bad.
  std::string run_for_function(const std::string& command, uint64_t id, std::string* error);

  // er_print's calltree report cut after `nodes` nodes in depth-first order (its `limit`), the
  // session's limit unchanged.
  std::string calltree(size_t nodes);

  // Set Data Presentation's Save: writes the settings (metrics, sort, name, viewmode, given
  // as er_print commands; metrics and sort are saved as dmetrics and dsort) into dir/.er.rc,
  // replacing those commands there and keeping the file's other lines. False with *error.
  static bool save_rc(const std::vector<std::string>& lines, const std::string& dir, std::string* path,
                      std::string* error);

  // The experiments as given.
  std::vector<std::string> paths() const;

  // Commands the page may send through run (for docs and tests).
  static const std::vector<std::string>& api_commands();

 private:
  mutable std::mutex mu_;
  std::unique_ptr<erprint::Session> session_;
  std::string run_locked(const std::vector<std::string>& lines);
  std::string run_locked_keyed(const std::string& line, const std::string& key);
  // One command's JSON lines; reports are kept (by key) until a setting changes.
  std::string run_one(const std::string& line, const std::string& cache_key);
  std::map<std::string, std::string> cache_;
  size_t cached_bytes_ = 0;
};

}  // namespace erkit::analyzer
