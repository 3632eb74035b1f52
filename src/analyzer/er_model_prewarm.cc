// Prewarming (docs/performance.md, section 10): the reports of the tabs are computed ahead of
// the page's requests, on a second er_print session of the same experiments (the prewarm
// session), so that a click is never queued behind a prewarm report: the page's session is
// free for the page all the time. The prewarm session replays the page's setting commands
// before each report, and its report is kept in the page's cache only when the page's
// settings did not change while it ran. A page request for the very report the prewarm
// session is computing under the same settings waits for it instead of computing it twice;
// the same for the builds a report needs (every function's edges, the line and PC metrics):
// each is made on one session only (warm_build, ErModel::run_one), and a page request waiting
// for the prewarm session's build takes that session when it is made.
#include <fmt/format.h>

#include <chrono>
#include <thread>

#include "analyzer/er_model.h"
#include "erprint/commands.h"
#include "erprint/session.h"
#include "erprint/source_commands.h"

namespace erkit::analyzer {

namespace {
constexpr size_t kCacheBytes = size_t(256) << 20;  // as er_model.cc's
}

bool ErModel::warm_sync() {
  std::vector<std::string> paths, pending;
  uint64_t epoch = 0;
  {
    auto lock = loaded_lock();
    if (!session_) return false;
    epoch = load_epoch_;
    if (warm_ && warm_loaded_epoch_ == epoch) pending.assign(settings_.begin() + ptrdiff_t(warm_applied_), settings_.end());
    else paths = load_paths_;
  }
  if (!warm_ || warm_loaded_epoch_ != epoch) {
    // Another load (the Collect window's experiment) or none yet: a session of these paths.
    warm_.reset();
    bool ok = false;
    std::string error;
    auto s = open_session(paths, &ok, &error);
    if (!ok) return false;
    warm_ = std::move(s);
    warm_loaded_epoch_ = epoch;
    warm_applied_ = 0;
    return warm_sync();  // the settings the page made meanwhile
  }
  for (const auto& l : pending) {
    bool ok = false;
    capture(*warm_, l, &ok);  // a setting that failed on the page fails here the same way
  }
  warm_applied_ += pending.size();
  return true;
}

void ErModel::warm_build(const std::string& what) {
  if (!warm_sync()) return;
  {
    auto lock = loaded_lock();
    if (!session_ || warm_loaded_epoch_ != load_epoch_ || warm_applied_ != settings_.size()) return;
    if (has(warm_built_, what)) return;
    if (has(page_built_, what)) {  // the page's session made it (a click came first): not twice
      ++build_skips_;
      return;
    }
    build_key_ = what;  // a page request that needs it waits from now on (run_one)
    build_waiters_ = 0;
    build_epoch_ = load_epoch_;
    build_settings_ = warm_applied_;
  }
  if (build_hook_) build_hook_(what);
  if (what == "#edges") warm_->profile().callers_callees(model::FuncId(0));  // every function's edges
  else erprint::warm_annotation_metrics(*warm_);  // the line and PC metrics of source and disasm
  {
    std::lock_guard<std::mutex> lock(mu_);
    warm_built_[what] = {build_epoch_, build_settings_};
    // A page request waits for this build: it gets this session, under the same settings.
    if (build_waiters_ > 0 && session_ && build_epoch_ == load_epoch_ && build_settings_ == settings_.size())
      swap_sessions();
    build_key_.clear();
    build_waiters_ = 0;  // those of the next build count afresh
  }
  warm_cv_.notify_all();
}

void ErModel::warm_report(const std::string& line, const std::string& key, size_t limit) {
  if (!warm_sync()) return;
  const std::string build = build_of(line);
  {
    auto lock = loaded_lock();
    if (warm_loaded_epoch_ != load_epoch_ || warm_applied_ != settings_.size()) return;  // changed: next one
    if (cache_.count(key)) return;
    if (!build.empty() && has(page_built_, build) && !has(warm_built_, build)) {
      ++build_skips_;  // it would make again what the page's session has: the page's is cheap
      return;
    }
    warm_key_ = key;
    warm_epoch_ = load_epoch_;
    warm_settings_ = warm_applied_;
  }
  const size_t keep = warm_->limit;
  if (limit) warm_->limit = limit;
  bool ok = false;
  std::string text = capture(*warm_, line, &ok);
  warm_->limit = keep;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (ok && !build.empty()) warm_built_[build] = {warm_epoch_, warm_settings_};
    // Kept only under the settings it was computed with (and never over the page's own).
    if (ok && warm_epoch_ == load_epoch_ && warm_settings_ == settings_.size() && !cache_.count(key) &&
        cached_bytes_ + text.size() <= kCacheBytes) {
      cached_bytes_ += text.size();
      cache_.emplace(key, std::move(text));
      ++prewarm_kept_;
    }
    warm_key_.clear();
  }
  warm_cv_.notify_all();
}

void ErModel::prewarm(const std::vector<std::string>& lines, size_t tree_nodes) {
  const auto start = std::chrono::steady_clock::now();
  for (const auto& l : lines) {
    if (stop_prewarm_) return;
    if (l == lines.front()) {
      // The first screen's report, on the page's session (the page asks for it next).
      auto lock = loaded_lock();
      if (!session_) return;
      const auto t0 = std::chrono::steady_clock::now();
      const double cpu0 = cpu_seconds();
      run_one(lock, l, l);
      if (l == "functions") {
        first_report_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        first_report_cpu_seconds_ = cpu_seconds() - cpu0;
      }
      continue;
    }
    // Nothing after the first report before the page has it (or 5 s without a page): the
    // prewarm session's load and reports would take CPU from the first screen.
    while (!first_screen_ && !stop_prewarm_ && std::chrono::steady_clock::now() - start < std::chrono::seconds(5))
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (stop_prewarm_) return;
    std::lock_guard<std::mutex> wl(warm_mu_);
    if (l == "calltree") {
      warm_report("calltree", fmt::format("calltree#{}", tree_nodes), tree_nodes);
    } else if (l == "#edges" || l == "#annotation") {
      // Every function's caller and callee edges (Callers-Callees); the line and PC metrics
      // every Source and Disassembly report shares. Made once, on one of the two sessions.
      warm_build(l);
    } else if (l == "#swap") {
      // The page gets the session whose edges and line metrics are built; the sessions are
      // interchangeable when the same settings were applied to both, and the page gives up
      // no build of its own. A page request waiting (warm_cv_) takes the session afresh
      // after its wait.
      if (warm_sync()) {
        std::lock_guard<std::mutex> lock(mu_);
        bool gains = false, loses = false;
        for (const char* b : {"#edges", "#annotation"}) {
          gains |= has(warm_built_, b) && !has(page_built_, b);
          loses |= has(page_built_, b) && !has(warm_built_, b);
        }
        if (session_ && warm_loaded_epoch_ == load_epoch_ && warm_applied_ == settings_.size() && gains && !loses)
          swap_sessions();
      }
    } else {
      warm_report(l, l, 0);
    }
  }
  prewarmed_ = true;
}

void ErModel::prewarm_selections() {
  for (;;) {
    int64_t id;
    {
      std::unique_lock<std::mutex> l(selection_mu_);
      selection_cv_.wait(l, [&] { return stop_prewarm_ || wanted_ >= 0; });
      if (stop_prewarm_) return;
      id = wanted_;
      wanted_ = -1;
    }
    for (const char* cmd : {"csingle", "source", "disasm"}) {
      if (stop_prewarm_) return;
      {
        std::lock_guard<std::mutex> wl(warm_mu_);
        std::string line, error;
        if (warm_sync() && function_line(*warm_, cmd, uint64_t(id), &line, &error)) warm_report(line, line, 0);
      }
      std::lock_guard<std::mutex> l(selection_mu_);
      if (wanted_ >= 0) break;  // another selection: that one now
    }
  }
}

}  // namespace erkit::analyzer
