#include "analyzer/er_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <sys/resource.h>

#include "common/progress.h"
#include "erprint/commands.h"
#include "erprint/function_lookup.h"
#include "erprint/session.h"
#include "erprint/source_commands.h"
#include "rcfile.h"
#include "views/json.h"

namespace erkit::analyzer {

namespace {

// CPU seconds (user + system) of the whole process so far.
double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// The .er.rc files er_print reads: ./.er.rc, ~/.er.rc, then the system er.rc (or the
// built-in defaults when the installation has none).
rcfile::RcDefaults load_defaults() {
  const std::string sys = erprint::system_rc_path();
  rcfile::RcDefaults d = rcfile::load_rc(rcfile::standard_paths(sys));
  std::error_code ec;
  if (sys.empty() || !std::filesystem::is_regular_file(sys, ec))
    rcfile::process_rc_text(
        fmt::format("dmetrics {}\ndsort {}\n", erprint::kBuiltinDefaultMetrics, erprint::kBuiltinDefaultSort),
        "(built-in defaults)", d);
  return d;
}

}  // namespace

const std::vector<std::string>& ErModel::api_commands() {
  static const std::vector<std::string> k = {
      // reports
      "functions", "fsummary", "callers-callees", "calltree", "lines", "lsummary", "pcs", "psummary", "header",
      "experiment_list", "sample_list", "thread_list", "lwp_list", "cpu_list", "overview", "statistics", "objects",
      "object_list", "leaks", "allocs", "heapstat", "ioactivity", "iodetail", "iocallstack", "iostat", "syncstat",
      "rank_list", "procstats", "version", "metric_list", "cmetric_list", "data_objects", "data_layout",
      "memobj", "mobj_list", "data_single",
      // settings of the view
      "metrics", "cmetrics", "sort", "csort", "limit", "name", "viewmode", "filters", "sample_select",
      "thread_select", "lwp_select", "cpu_select", "object_select", "object_show", "object_hide", "tabs", "tlmode",
      "tldata", "sthresh", "dthresh", "scc", "dcc", "en_desc", "compare"};
  return k;
}

ErModel::ErModel() = default;
ErModel::~ErModel() = default;

std::unique_ptr<erprint::Session> ErModel::open_session(const std::vector<std::string>& paths, bool* ok,
                                                        std::string* error) {
  auto s = std::make_unique<erprint::Session>(load_defaults());
  *ok = true;
  for (const auto& p : paths)
    if (!(*ok = s->load(p, error))) break;
  if (*ok) {
    s->finish_loading();
    s->format = erprint::OutputFormat::Json;
  }
  return s;
}

double ErModel::cpu_seconds() { return process_cpu_seconds(); }

bool ErModel::load(const std::vector<std::string>& paths, std::string* error) {
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  std::unique_lock<std::mutex> lock(mu_);
  common::Progress::disable();
  cache_.clear();
  cached_bytes_ = 0;
  settings_.clear();
  ++load_epoch_;  // the prewarm session, if any, is of other experiments now
  load_paths_ = paths;
  warm_cv_.notify_all();
  bool ok = false;
  session_ = open_session(paths, &ok, error);
  loading_ = false;
  load_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  load_cpu_seconds_ = process_cpu_seconds() - cpu0;
  lock.unlock();
  loaded_cv_.notify_all();
  return ok;
}

std::vector<std::string> ErModel::warnings() const {
  auto lock = loaded_lock();
  std::vector<std::string> w = session_ ? session_->warnings : std::vector<std::string>{};
  if (session_)
    for (const auto& x : session_->rc.warnings) w.push_back(x);
  return w;
}

bool ErModel::allowed_command(const std::string& line, std::string* why) {
  std::string err;
  auto words = erprint::split_command_line(line, &err);
  if (!err.empty() || words.empty()) {
    *why = err.empty() ? "empty command" : err;
    return false;
  }
  const erprint::Command* c = erprint::find_command(words[0], &err);
  if (!c) {
    *why = err;
    return false;
  }
  const auto& k = api_commands();
  if (std::find(k.begin(), k.end(), c->name) == k.end()) {
    *why = fmt::format("'{}' is not available through the analyzer", c->name);
    return false;
  }
  return true;
}

namespace {

// Reports: their output depends only on the session's settings, so it is kept until a setting
// changes (an API command with arguments that is not a report).
bool is_report(const std::string& name) {
  static const std::vector<std::string> k = {
      "functions", "fsummary", "callers-callees", "calltree", "lines", "lsummary", "pcs", "psummary", "header",
      "experiment_list", "sample_list", "thread_list", "lwp_list", "cpu_list", "overview", "statistics", "objects",
      "object_list", "leaks", "allocs", "heapstat", "ioactivity", "iodetail", "iocallstack", "iostat", "syncstat",
      "rank_list", "procstats", "version", "metric_list", "cmetric_list", "data_objects", "data_layout",
      "fsingle", "csingle", "source", "disasm", "memobj", "mobj_list", "data_single"};
  return std::find(k.begin(), k.end(), name) != k.end();
}

constexpr size_t kCacheBytes = size_t(256) << 20;

}  // namespace

void ErModel::classify(const std::string& line, bool* report, bool* setting) {
  std::string err;
  auto words = erprint::split_command_line(line, &err);
  const erprint::Command* c = words.empty() ? nullptr : erprint::find_command(words[0], &err);
  *report = c && is_report(c->name);
  *setting = c && !*report && words.size() > 1;
}

std::string ErModel::capture(erprint::Session& s, const std::string& line, bool* ok) {
  // The session writes JSON lines to its sink; they are captured per command.
  char* buf = nullptr;
  size_t len = 0;
  FILE* mem = open_memstream(&buf, &len);
  *ok = false;
  if (!mem) return "";
  s.set_output(mem);
  // execute() without its stderr message (the page shows the error): the same JSON object.
  erprint::CommandResult r = erprint::run_command_line(s, line);
  if (!r.ok) {
    std::string err;
    auto words = erprint::split_command_line(line, &err);
    json::Value v = json::Value::object()
                        .set("schema", "erkit.er_print")
                        .set("version", erprint::kJsonSchemaVersion)
                        .set("command", words.empty() ? "" : words[0])
                        .set("error", r.error);
    std::string text = v.dump() + "\n";
    std::fwrite(text.data(), 1, text.size(), mem);
  }
  s.set_output(stdout);  // closes mem
  std::string text(buf, len);
  std::free(buf);
  *ok = r.ok;
  return text;
}

std::string ErModel::build_of(const std::string& line) {
  std::string err;
  auto words = erprint::split_command_line(line, &err);
  const erprint::Command* c = words.empty() ? nullptr : erprint::find_command(words[0], &err);
  if (!c) return "";
  if (c->name == "csingle" || c->name == "callers-callees") return "#edges";
  if (c->name == "source" || c->name == "disasm") return "#annotation";
  return "";
}

void ErModel::swap_sessions() {
  std::swap(session_, warm_);
  std::swap(page_built_, warm_built_);
  ++prewarm_swaps_;
}

std::string ErModel::run_one(Lock& lock, const std::string& line, const std::string& cache_key, size_t limit) {
  bool report = false, setting = false;
  classify(line, &report, &setting);
  const std::string need = report ? build_of(line) : std::string();
  if (report) {
    // The prewarm session computing this report under the same settings: wait for it.
    warm_cv_.wait(lock, [&] {
      return warm_key_ != cache_key || warm_epoch_ != load_epoch_ || warm_settings_ != settings_.size();
    });
    auto it = cache_.find(cache_key);
    if (it != cache_.end()) return it->second;
    if (!need.empty() && !has(page_built_, need)) {
      // The build this report needs: the prewarm session making it now under the same
      // settings, wait and take that session (warm_build hands it over); made already there,
      // take it if the prewarm session is free; else it is made here (and skipped there).
      auto building = [&] {
        return build_key_ == need && build_epoch_ == load_epoch_ && build_settings_ == settings_.size();
      };
      if (building()) {
        ++build_waiters_;  // warm_build counts them for this build and sets 0 when it ends
        ++build_waits_;
        warm_cv_.wait(lock, [&] { return !building(); });
      } else if (std::unique_lock<std::mutex> wl(warm_mu_, std::try_to_lock);  // never waits: lock order
                 wl && warm_ && session_ && has(warm_built_, need) && warm_loaded_epoch_ == load_epoch_ &&
                 warm_applied_ == settings_.size()) {
        swap_sessions();
      }
      if (!session_) return "";
      it = cache_.find(cache_key);
      if (it != cache_.end()) return it->second;
    }
  } else if (setting) {
    cache_.clear();  // a setting changed: every report may change
    cached_bytes_ = 0;
    settings_.push_back(line);  // the prewarm session replays it
    warm_cv_.notify_all();      // a report waited for is now of other settings
  }
  bool ok = false;
  // A limit for this report alone (the call tree's node count), the session's own restored:
  // set here, after any wait above, on the session that computes it.
  const size_t keep = session_->limit;
  if (limit) session_->limit = limit;
  std::string text = capture(*session_, line, &ok);
  if (limit) session_->limit = keep;
  if (ok && !need.empty()) page_built_[need] = {load_epoch_, settings_.size()};
  if (report && ok && cached_bytes_ + text.size() <= kCacheBytes) {
    cached_bytes_ += text.size();
    cache_.emplace(cache_key, text);
  }
  return text;
}

std::string ErModel::run_locked(Lock& lock, const std::vector<std::string>& lines) {
  std::string out = "[";
  bool first = true;
  for (const auto& l : lines) {
    const std::string text = run_one(lock, l, l);
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      if (nl == std::string::npos) nl = text.size();
      if (nl > pos) {
        if (!first) out += ',';
        out.append(text, pos, nl - pos);
        first = false;
      }
      pos = nl + 1;
    }
  }
  out += ']';
  return out;
}

std::string ErModel::calltree(size_t nodes) {
  auto lock = page_lock();
  if (!session_) return "[]";
  // er_print's limit cuts the tree after `nodes` rows in depth-first order, as in its text
  // form; the session's own limit is restored, so no setting changes.
  return run_locked_keyed(lock, "calltree", fmt::format("calltree#{}", nodes), nodes);
}

std::string ErModel::run_locked_keyed(Lock& lock, const std::string& line, const std::string& key, size_t limit) {
  std::string text = run_one(lock, line, key, limit);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return "[" + text + "]";
}

std::string ErModel::run(const std::vector<std::string>& lines) {
  auto lock = page_lock();
  if (!session_) return "[]";
  std::string out = run_locked(lock, lines);
  if (std::find(lines.begin(), lines.end(), "functions") != lines.end()) first_screen_ = true;
  return out;
}

bool ErModel::function_line(erprint::Session& s, const std::string& command, uint64_t id, std::string* line,
                            std::string* error) {
  static const std::vector<std::string> k = {"fsingle", "csingle", "source", "disasm"};
  if (std::find(k.begin(), k.end(), command) == k.end()) {
    *error = fmt::format("'{}' does not take a function", command);
    return false;
  }
  const auto& ft = s.profile().functions();
  if (id >= ft.size()) {
    *error = fmt::format("no function {}", id);
    return false;
  }
  const std::string& name = ft.at(model::FuncId(id)).name;
  if (name.find('"') != std::string::npos) {
    *error = fmt::format("function {} has a double quote in its name", id);
    return false;
  }
  auto cands = erprint::find_functions(s, name);
  auto it = std::find(cands.begin(), cands.end(), model::FuncId(id));
  if (it == cands.end()) {
    *error = fmt::format("function {} cannot be named", id);
    return false;
  }
  *line = fmt::format("{} \"{}\"", command, name);
  if (cands.size() > 1) *line += fmt::format(" {}", (it - cands.begin()) + 1);
  return true;
}

std::string ErModel::run_for_function(const std::string& command, uint64_t id, std::string* error) {
  auto lock = page_lock();
  if (!session_) return "[]";
  std::string line;
  if (!function_line(*session_, command, id, &line, error)) return "";
  return run_locked_keyed(lock, line, line);
}

std::vector<uint64_t> ErModel::function_ids(const std::string& name) {
  auto lock = page_lock();
  std::vector<uint64_t> out;
  if (!session_) return out;
  for (model::FuncId f : erprint::find_functions(*session_, name)) out.push_back(f);
  return out;
}

std::vector<std::string> ErModel::paths() const {
  auto lock = loaded_lock();
  return session_ ? session_->experiment_paths() : std::vector<std::string>{};
}

bool ErModel::save_rc(const std::vector<std::string>& lines, const std::string& dir, std::string* path,
                      std::string* error) {
  std::vector<std::string> out_lines, replaced;
  for (const auto& l : lines) {
    std::string err;
    auto words = erprint::split_command_line(l, &err);
    const erprint::Command* c = words.empty() ? nullptr : erprint::find_command(words[0], &err);
    if (!c) {
      *error = err.empty() ? "empty setting" : err;
      return false;
    }
    std::string name = c->name == "metrics" ? "dmetrics" : c->name == "sort" ? "dsort" : c->name;
    if (name != "dmetrics" && name != "dsort" && name != "name" && name != "viewmode") {
      *error = fmt::format("'{}' is not a setting Save writes", c->name);
      return false;
    }
    if (words.size() != 2) {
      *error = fmt::format("{}: expects one argument", c->name);
      return false;
    }
    out_lines.push_back(fmt::format("{} {}", name, words[1]));
    replaced.push_back(name);
  }
  *path = (std::filesystem::path(dir) / ".er.rc").string();
  std::string kept;
  if (FILE* f = std::fopen(path->c_str(), "r")) {
    char* line = nullptr;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
      std::string l(line, size_t(n));
      std::string first = l.substr(0, l.find_first_of(" \t\n"));
      if (std::find(replaced.begin(), replaced.end(), first) == replaced.end()) kept += l;
    }
    std::free(line);
    std::fclose(f);
  }
  if (!kept.empty() && kept.back() != '\n') kept += '\n';
  for (const auto& l : out_lines) kept += l + "\n";
  const std::string tmp = *path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f || std::fwrite(kept.data(), 1, kept.size(), f) != kept.size() || std::fclose(f) != 0) {
    *error = fmt::format("cannot write {}", tmp);
    std::remove(tmp.c_str());
    return false;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, *path, ec);
  if (ec) {
    *error = fmt::format("cannot write {}: {}", *path, ec.message());
    return false;
  }
  return true;
}

}  // namespace erkit::analyzer
