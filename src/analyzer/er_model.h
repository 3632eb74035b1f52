// The analyzer's one door to the data (docs/analyzer.md, "Equal to er_print"): every number
// the page shows is a report of er_print's own command code, run in JSON mode over one
// er_print session, so the page and `er_print -json` agree by construction. Keep every data
// access of the analyzer in this adapter, so that it can move to the model's query API
// (issue 18) in one place.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
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
  // Before a load() in another thread: every request waits until that load() ends, so the
  // server can answer the page's files while the experiments are read.
  void start_loading() {
    std::lock_guard<std::mutex> l(mu_);
    loading_ = true;
  }
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

  // The ids of the functions er_print's name rule finds for `name` (as `fsingle name` would),
  // for rows that carry a name only (the compare list).
  std::vector<uint64_t> function_ids(const std::string& name);

  // er_print's calltree report cut after `nodes` nodes in depth-first order (its `limit`), the
  // session's limit unchanged.
  std::string calltree(size_t nodes);

  // Set Data Presentation's Save: writes the settings (metrics, sort, name, viewmode, given
  // as er_print commands; metrics and sort are saved as dmetrics and dsort) into dir/.er.rc,
  // replacing those commands there and keeping the file's other lines. False with *error.
  static bool save_rc(const std::vector<std::string>& lines, const std::string& dir, std::string* path,
                      std::string* error);

  // Computes reports ahead of the page's requests (kept as run() keeps them), in order, until
  // stop_prewarm(): the first screen's function list first, on the page's session; then, once
  // the page has it, the others on a second session of the same experiments (the prewarm
  // session, er_model_prewarm.cc), so that a page request never waits for a prewarm report
  // (docs/performance.md, section 10). The prewarm session follows the page's settings (it
  // replays them) and a report it computed is kept only if no setting changed meanwhile. Two
  // entries are no command but builds: "#edges" (every function's callers and callees, kept
  // by the model) and "#annotation" (the line and PC metrics source and disasm share). A build
  // is made once: the prewarm session skips one the page's session has made, and a page
  // request that needs the build the prewarm session is making (same settings) waits for it
  // and gets the prewarm session (the two trade places), instead of making it a second time.
  // "#swap" hands the prewarm session, with what it built, to the page when both have the
  // same settings and the page would lose no build by it.
  void prewarm(const std::vector<std::string>& lines, size_t tree_nodes);
  void stop_prewarm() {
    {
      std::lock_guard<std::mutex> l(selection_mu_);  // no lost wake-up in prewarm_selections
      stop_prewarm_ = true;
    }
    selection_cv_.notify_all();
  }
  // After prewarm(): until stop_prewarm(), computes csingle, source and disasm of each function
  // the page selects (want_function) on the prewarm session.
  void prewarm_selections();
  void want_function(uint64_t id) {
    {
      std::lock_guard<std::mutex> l(selection_mu_);
      wanted_ = int64_t(id);
    }
    selection_cv_.notify_all();
  }
  // Reports the prewarm session computed and the page's cache kept (for tests and /api/info).
  size_t prewarm_kept() const { return prewarm_kept_; }
  size_t prewarm_swaps() const { return prewarm_swaps_; }
  // Builds the prewarm session skipped (the page's session had made them) and page requests
  // that waited for a build of the prewarm session (for tests and /api/info).
  size_t prewarm_build_skips() const { return build_skips_; }
  size_t page_build_waits() const { return build_waits_; }
  // For tests: called on the prewarm thread while a build is under way (after the page can
  // see it), so a test can send a page request at that moment.
  void on_build_for_test(std::function<void(const std::string&)> f) { build_hook_ = std::move(f); }
  // For tests: holds the prewarm session as a long prewarm report does.
  std::unique_lock<std::mutex> hold_prewarm_session() { return std::unique_lock<std::mutex>(warm_mu_); }
  // Whether prewarm() has run through its list (for the bench and /api/info).
  bool prewarmed() const { return prewarmed_; }
  // Wall seconds of the last load() and of prewarm()'s "functions" (for the bench, /api/info).
  double load_seconds() const { return load_seconds_; }
  double first_report_seconds() const { return first_report_seconds_; }
  // The same in CPU seconds of the process (user + system; the load's threads included).
  double load_cpu_seconds() const { return load_cpu_seconds_; }
  double first_report_cpu_seconds() const { return first_report_cpu_seconds_; }

  // The experiments as given.
  std::vector<std::string> paths() const;

  // The per-thread timeline (er_model_events.cc): per experiment and thread its events of each
  // data kind (counts of all, and the first event of each of `buckets` equal slices of
  // [t0, t1) ns with its stack), the stacks (function ids, leaf first) and their names.
  // t1 <= t0: the whole run. by_cpu: per experiment and CPU instead (the events whose CPU was
  // recorded; "has_cpu" says whether any was).
  std::string timeline_events(uint64_t t0, uint64_t t1, uint32_t buckets, bool by_cpu = false);

  // The Experiments tab's notes (er_model_notes.cc): writes `text` as the notes file of
  // experiment `expid` (1-based, as header numbers them) and shows it in the model's header.
  // False with *error.
  bool save_notes(uint32_t expid, const std::string& text, std::string* error);
  // Create Mapfile: er_print's `mapfile OBJECT - FORMAT` text (format gnu, gold or lld);
  // nothing is written on the server. "" with *error.
  std::string mapfile(const std::string& object, const std::string& format, std::string* error);

  // Commands the page may send through run (for docs and tests).
  static const std::vector<std::string>& api_commands();

 private:
  mutable std::mutex mu_;
  std::unique_ptr<erprint::Session> session_;
  using Lock = std::unique_lock<std::mutex>;
  std::string run_locked(Lock& lock, const std::vector<std::string>& lines);
  std::string run_locked_keyed(Lock& lock, const std::string& line, const std::string& key, size_t limit = 0);
  // One command's JSON lines; reports are kept (by key) until a setting changes. A report the
  // prewarm session is computing under the same settings is waited for, not computed twice.
  std::string run_one(Lock& lock, const std::string& line, const std::string& cache_key, size_t limit = 0);
  std::map<std::string, std::string> cache_;
  // The page session's settings: the setting commands run since the load, in order (the
  // prewarm session replays them), and the load they follow (a new load starts again).
  std::vector<std::string> settings_;
  uint64_t load_epoch_ = 0;
  std::vector<std::string> load_paths_;
  // The report the prewarm session computes now (its key, "" when none) and the settings it
  // was computed under; warm_cv_ (with mu_) tells when it is kept or dropped.
  std::string warm_key_;
  uint64_t warm_epoch_ = 0;
  size_t warm_settings_ = 0;
  std::condition_variable warm_cv_;
  // The prewarm session (er_model_prewarm.cc); lock order: warm_mu_ before mu_.
  std::mutex warm_mu_;
  std::unique_ptr<erprint::Session> warm_;
  uint64_t warm_loaded_epoch_ = 0;
  size_t warm_applied_ = 0;  // settings_ replayed on it
  std::atomic<size_t> prewarm_kept_{0}, prewarm_swaps_{0}, build_skips_{0}, build_waits_{0};
  // The build the prewarm session makes now ("#edges", "#annotation"; "" none), the settings
  // it is made under, and the page requests that came to wait for it (all under mu_; warm_cv_
  // tells when it ends).
  std::string build_key_;
  uint64_t build_epoch_ = 0;
  size_t build_settings_ = 0;
  int build_waiters_ = 0;
  std::function<void(const std::string&)> build_hook_;
  // The builds each session has made and the (load, settings) they were made under; they
  // trade places with the sessions. page_built_ under mu_; warm_built_ under warm_mu_ (and
  // mu_ to swap).
  using Builds = std::map<std::string, std::pair<uint64_t, size_t>>;
  Builds page_built_, warm_built_;
  bool has(const Builds& b, const std::string& what) const {  // under the current settings (mu_)
    auto it = b.find(what);
    return it != b.end() && it->second == std::make_pair(load_epoch_, settings_.size());
  }
  // The build a report makes ("#edges", "#annotation") or "".
  static std::string build_of(const std::string& line);
  // On the prewarm session (warm_mu_ held): makes build `what` unless the page's session has
  // it, and hands the prewarm session to a page request waiting for it.
  void warm_build(const std::string& what);
  // With mu_ and warm_mu_ held: the two sessions trade places (their builds with them).
  void swap_sessions();
  // On the prewarm session (warm_mu_ held): loads it if needed, replays the page's settings,
  // computes `line` and keeps it under `key` if the page's settings are still those.
  void warm_report(const std::string& line, const std::string& key, size_t limit);
  bool warm_sync();  // loads and replays; false when there is nothing to compute on
  // A command line's JSON lines on session `s` (an error as er_print's JSON error object).
  static std::string capture(erprint::Session& s, const std::string& line, bool* ok);
  // The line `command "name" N` naming function `id` of `s`; false with *error.
  static bool function_line(erprint::Session& s, const std::string& command, uint64_t id, std::string* line,
                            std::string* error);
  // A session of `paths` with the .er.rc files, in JSON mode; *ok false (with *error) when one
  // cannot be read.
  static std::unique_ptr<erprint::Session> open_session(const std::vector<std::string>& paths, bool* ok,
                                                        std::string* error);
  static double cpu_seconds();  // of the process, user + system
  // Whether a line is a report (kept) or a setting (changes every report).
  static void classify(const std::string& line, bool* report, bool* setting);
  std::atomic<bool> stop_prewarm_{false}, prewarmed_{false};
  std::atomic<double> load_seconds_{0}, first_report_seconds_{0}, load_cpu_seconds_{0}, first_report_cpu_seconds_{0};
  // Set once the page has fetched the function list: prewarm() computes nothing after the
  // function list before that (or a few seconds without a page), so the first screen's
  // requests never wait behind a later report.
  std::atomic<bool> first_screen_{false};
  std::mutex selection_mu_;
  std::condition_variable selection_cv_;
  int64_t wanted_ = -1;
  // The page's requests: the page's session, once loaded (the prewarm session never holds it
  // longer than to look at the settings and to keep a report).
  std::unique_lock<std::mutex> page_lock() { return loaded_lock(); }
  // The lock, once no load is under way (start_loading).
  std::unique_lock<std::mutex> loaded_lock() const {
    std::unique_lock<std::mutex> l(mu_);
    loaded_cv_.wait(l, [&] { return !loading_; });
    return l;
  }
  bool loading_ = false;
  mutable std::condition_variable loaded_cv_;
  size_t cached_bytes_ = 0;
};

}  // namespace erkit::analyzer
