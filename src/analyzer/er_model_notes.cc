// The Experiments tab's editable notes and the Create Mapfile dialog (docs/analyzer.md,
// "Dialogs"): the two places where the analyzer writes or makes a file, each confined to what
// the manual describes (an experiment's notes file, chosen by its number; the mapfile text,
// handed to the browser to save).
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "analyzer/er_model.h"
#include "erprint/session.h"
#include "format/experiment_format.h"
#include "views/json.h"

namespace erkit::analyzer {

bool ErModel::save_notes(uint32_t expid, const std::string& text, std::string* error) {
  auto lock = page_lock();
  if (!session_) {
    *error = "no experiment loaded";
    return false;
  }
  auto& p = session_->profile();
  if (expid < 1 || expid > p.experiments().size()) {
    *error = fmt::format("no experiment {}", expid);
    return false;
  }
  if (text.size() > (1u << 20)) {
    *error = "notes: at most 1 MB";
    return false;
  }
  for (char c : text)
    if (c == '\0') {
      *error = "notes: text only (a NUL byte)";
      return false;
    }
  const std::string dir = p.experiments()[expid - 1].path;
  const std::string path = (std::filesystem::path(dir) / format::kNotesFile).string(), tmp = path + ".tmp";
  std::string body = text;
  if (!body.empty() && body.back() != '\n') body += '\n';
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f || std::fwrite(body.data(), 1, body.size(), f) != body.size() || std::fclose(f) != 0) {
    *error = fmt::format("cannot write {}", tmp);
    std::remove(tmp.c_str());
    return false;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    *error = fmt::format("cannot write {}: {}", path, ec.message());
    return false;
  }
  // The model's copy, as the reader splits the file (one entry per line).
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < body.size()) {
    size_t nl = body.find('\n', pos);
    lines.push_back(body.substr(pos, nl - pos));
    pos = nl + 1;
  }
  p.set_notes(expid - 1, std::move(lines));
  cache_.clear();  // header shows the notes
  cached_bytes_ = 0;
  // The prewarm session reads the experiments again (its notes are the file's now).
  ++load_epoch_;
  warm_cv_.notify_all();
  return true;
}

std::string ErModel::mapfile(const std::string& object, const std::string& format, std::string* error) {
  if (format != "gnu" && format != "gold" && format != "lld") {
    *error = fmt::format("mapfile: unknown format '{}' (gnu, gold or lld)", format);
    return "";
  }
  if (object.empty() || object.find_first_of("\"\n") != std::string::npos) {
    *error = fmt::format("mapfile: bad load object name '{}'", object);
    return "";
  }
  auto lock = page_lock();
  if (!session_) {
    *error = "no experiment loaded";
    return "";
  }
  // er_print's text form, to standard output ("-"): the session writes nothing on disk.
  session_->format = erprint::OutputFormat::Text;
  bool ok = false;
  std::string text = capture(*session_, fmt::format("mapfile \"{}\" - {}", object, format), &ok);
  session_->format = erprint::OutputFormat::Json;
  if (!ok) {
    json::Value v;
    std::string perr;
    *error = json::parse(text, &v, &perr) && !v["error"].as_string().empty() ? v["error"].as_string() : "mapfile failed";
    return "";
  }
  return text;
}

}  // namespace erkit::analyzer
