// The Collect window's API (docs/analyzer.md, "Collect"): preview, run, progress, the
// pause/resume/sample signals, and opening the new experiment. Every request passed the
// token, Host and Origin checks of the pre-routing handler (server.cc); collect runs from an
// argv array, never through a shell.
#include <httplib.h>

#include <cstdlib>
#include <filesystem>

#include "analyzer/server.h"
#include "views/json.h"

namespace erkit::analyzer {

namespace {

void reply(httplib::Response& res, const json::Value& v, int status = 200) {
  res.status = status;
  res.set_content(v.dump(), "application/json");
}
void error_reply(httplib::Response& res, const std::string& message, int status = 400) {
  reply(res, json::Value::object().set("error", message), status);
}

json::Value request_json(const CollectRequest& r) {
  json::Value args = json::Value::array();
  for (const auto& a : r.args) args.push(a);
  return json::Value::object()
      .set("target", r.target)
      .set("args", std::move(args))
      .set("clock", r.clock)
      .set("hwc", r.hwc)
      .set("sync", r.sync)
      .set("heap", r.heap)
      .set("io", r.io)
      .set("samples", r.samples)
      .set("descendants", r.descendants)
      .set("name", r.name)
      .set("java", r.java)
      .set("java_args", r.java_args)
      .set("group", r.group)
      .set("archive", r.archive)
      .set("signals", r.signals);
}

bool parse_request(const std::string& body, CollectRequest* r, std::string* error) {
  json::Value v;
  if (!json::parse(body, &v, error)) {
    *error = "bad JSON: " + *error;
    return false;
  }
  if (v.kind() != json::Value::Kind::Object) {
    *error = "expected a JSON object";
    return false;
  }
  auto str = [&](const char* k) {
    const json::Value& x = v[k];
    return x.kind() == json::Value::Kind::String ? x.as_string() : std::string();
  };
  r->target = str("target");
  r->clock = str("clock");
  r->hwc = str("hwc");
  r->sync = str("sync");
  r->heap = str("heap");
  r->io = str("io");
  r->samples = str("samples");
  r->descendants = str("descendants");
  r->name = str("name");
  r->java = str("java");
  r->java_args = str("java_args");
  r->group = str("group");
  r->archive = str("archive");
  r->signals = v["signals"].is_null() || v["signals"].as_bool();
  r->args.clear();
  for (const auto& a : v["args"].elements()) {
    if (a.kind() != json::Value::Kind::String) {
      *error = "args: expected strings";
      return false;
    }
    r->args.push_back(a.as_string());
  }
  return true;
}

std::string working_dir() {
  std::error_code ec;
  return std::filesystem::current_path(ec).string();
}

json::Value argv_json(const std::vector<std::string>& argv) {
  json::Value a = json::Value::array();
  for (const auto& w : argv) a.push(w);
  return a;
}

}  // namespace

void AnalyzerServer::collect_routes() {
  // GET /api/collect/initial: the form's fields from the command line, and whether any
  // experiment is loaded (none: the page opens the Collect window at once).
  http_->Get("/api/collect/initial", [this](const httplib::Request&, httplib::Response& res) {
    reply(res, json::Value::object()
                   .set("request", request_json(collect_initial_))
                   .set("experiments", int64_t(model_.paths().size()))
                   .set("directory", working_dir())
                   .set("pause_signal", kPauseSignal)
                   .set("sample_signal", kSampleSignal));
  });

  // POST /api/collect/preview {form}: the exact command line Run would run.
  http_->Post("/api/collect/preview", [](const httplib::Request& req, httplib::Response& res) {
    CollectRequest r;
    std::string error;
    std::vector<std::string> argv;
    if (!parse_request(req.body, &r, &error) || !collect_command(r, working_dir(), &argv, &error))
      return error_reply(res, error);
    reply(res, json::Value::object().set("argv", argv_json(argv)).set("command", shell_quote_command(argv)));
  });

  // POST /api/collect/run {form}: starts collect (one run at a time).
  http_->Post("/api/collect/run", [this](const httplib::Request& req, httplib::Response& res) {
    CollectRequest r;
    std::string error;
    std::vector<std::string> argv;
    const std::string dir = working_dir();
    if (!parse_request(req.body, &r, &error) || !collect_command(r, dir, &argv, &error)) return error_reply(res, error);
    if (collect_program_.empty()) return error_reply(res, "no collect program next to the analyzer", 500);
    // argv[0] names collect; the program run is the one installed beside the analyzer.
    const std::string name = argv[argv.size() - 1 - r.args.size() - 1];  // the word after -o
    const std::string exp = (std::filesystem::path(dir) / name).string();
    if (!runner_.start(collect_program_, argv, dir, exp, &error)) return error_reply(res, error, 409);
    reply(res, json::Value::object().set("command", shell_quote_command(argv)).set("experiment", exp));
  });

  // GET /api/collect/status?from=N: running or how it ended, the output from byte N on.
  http_->Get("/api/collect/status", [this](const httplib::Request& req, httplib::Response& res) {
    size_t from = 0;
    if (req.has_param("from")) from = size_t(std::strtoull(req.get_param_value("from").c_str(), nullptr, 10));
    CollectRunner::Status s = runner_.status(from);
    reply(res, json::Value::object()
                   .set("started", s.started)
                   .set("running", s.running)
                   .set("exit_code", s.exit_code)
                   .set("signal", s.term_signal)
                   .set("pid", int64_t(s.pid))
                   .set("experiment", s.experiment)
                   .set("command", shell_quote_command(s.argv))
                   .set("output", s.output)
                   .set("next", int64_t(s.output_end)));
  });

  // POST /api/collect/signal {"what":"pause"|"resume"|"sample"}: the -y / -l signals.
  http_->Post("/api/collect/signal", [this](const httplib::Request& req, httplib::Response& res) {
    json::Value v;
    std::string error;
    if (!json::parse(req.body, &v, &error)) return error_reply(res, "bad JSON: " + error);
    if (!runner_.signal(v["what"].as_string(), &error)) return error_reply(res, error, 409);
    reply(res, json::Value::object().set("sent", v["what"].as_string()));
  });

  // POST /api/collect/open: loads the experiment the last run recorded (only that one: the
  // page cannot name a path), in place of the loaded ones.
  http_->Post("/api/collect/open", [this](const httplib::Request&, httplib::Response& res) {
    CollectRunner::Status s = runner_.status(0);
    if (!s.started || s.running) return error_reply(res, "no finished collect run", 409);
    std::string error;
    if (!model_.load({s.experiment}, &error)) return error_reply(res, error, 500);
    reply(res, json::Value::object().set("experiment", s.experiment));
  });
}

}  // namespace erkit::analyzer
