#include "analyzer/server.h"

#include <fmt/format.h>
#include <httplib.h>

#include <charconv>
#include <filesystem>

#include "analyzer/assets.h"
#include "common/version.h"
#include "views/json.h"

namespace erkit::analyzer {

namespace {

void set_common_headers(httplib::Response& res) {
  // Nothing from elsewhere: no CDN, no framing, no referrer (the URL holds the token). Inline
  // style attributes are allowed (bar widths, indentation); scripts only from the page's files.
  res.set_header("Content-Security-Policy",
                 "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
                 "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
  res.set_header("X-Frame-Options", "DENY");
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Referrer-Policy", "no-referrer");
  res.set_header("Cache-Control", "no-store");
}

std::string json_string(std::string_view s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\', o += c;
    else if (static_cast<unsigned char>(c) < 0x20) o += fmt::format("\\u{:04x}", int(c));
    else o += c;
  }
  return o + '"';
}

void json_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(fmt::format("{{\"error\":{}}}", json_string(message)), "application/json");
}

}  // namespace

AnalyzerServer::AnalyzerServer(ErModel& model, std::string token)
    : model_(model), access_{std::move(token), 0}, http_(std::make_unique<httplib::Server>()) {
  routes();
}

AnalyzerServer::~AnalyzerServer() = default;

bool AnalyzerServer::bind(int port, std::string* error) {
  if (port == 0) {
    int p = http_->bind_to_any_port("127.0.0.1");
    if (p <= 0) {
      *error = "cannot bind a port on 127.0.0.1";
      return false;
    }
    access_.port = p;
    return true;
  }
  if (!http_->bind_to_port("127.0.0.1", port)) {
    *error = fmt::format("cannot listen on 127.0.0.1:{} (in use?)", port);
    return false;
  }
  access_.port = port;
  return true;
}

std::string AnalyzerServer::url() const {
  return fmt::format("http://127.0.0.1:{}/?token={}", access_.port, access_.token);
}

void AnalyzerServer::serve() { http_->listen_after_bind(); }
void AnalyzerServer::stop() { http_->stop(); }

void AnalyzerServer::set_collect(std::string program, CollectRequest initial) {
  collect_program_ = std::move(program);
  collect_initial_ = std::move(initial);
}

void AnalyzerServer::routes() {
  collect_routes();
  http_->set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    set_common_headers(res);
    // No compression: on the loopback it saves nothing, and cpp-httplib's brotli at its
    // default quality took seconds for a 1.5 MB call tree (docs/performance.md, section 10).
    // The request object is the server's own, not a const one.
    const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
    RequestFacts f;
    const std::string host = req.get_header_value("Host"), origin = req.get_header_value("Origin");
    const std::string qt = req.get_param_value("token"), ht = req.get_header_value("X-Erkit-Token");
    const std::string cookies = req.get_header_value("Cookie");
    f.host = host;
    f.origin = origin;
    f.query_token = qt;
    f.header_token = ht;
    f.cookies = cookies;
    std::string why;
    if (!request_allowed(access_, f, &why)) {
      res.status = 403;
      res.set_content(fmt::format("403 Forbidden: {}\n", why), "text/plain; charset=utf-8");
      return httplib::Server::HandlerResponse::Handled;
    }
    // The page's own requests then carry the token as a cookie (module scripts, fetch).
    if (!qt.empty())
      res.set_header("Set-Cookie", fmt::format("{}={}; Path=/; HttpOnly; SameSite=Strict",
                                               token_cookie_name(access_.port), access_.token));
    return httplib::Server::HandlerResponse::Unhandled;
  });

  http_->Get("/", [](const httplib::Request&, httplib::Response& res) {
    const Asset* a = find_asset("index.html");
    if (!a) return json_error(res, 500, "index.html is not embedded");
    res.set_content(a->data.data(), a->data.size(), std::string(a->type).c_str());
  });

  // Only names of the embedded table: no file system, so no path can escape.
  http_->Get(R"(/assets/([A-Za-z0-9_.-]+))", [](const httplib::Request& req, httplib::Response& res) {
    const Asset* a = find_asset(req.matches[1].str());
    if (!a) {
      res.status = 404;
      res.set_content("404 Not Found\n", "text/plain");
      return;
    }
    res.set_content(a->data.data(), a->data.size(), std::string(a->type).c_str());
  });

  http_->Get("/api/info", [this](const httplib::Request&, httplib::Response& res) {
    std::string o = fmt::format(
        "{{\"tool\":\"analyzer\",\"version\":{},\"prewarmed\":{},\"prewarm_kept\":{},\"prewarm_swaps\":{},"
        "\"prewarm_build_skips\":{},\"page_build_waits\":{},\"load_seconds\":{:.3f},"
        "\"functions_seconds\":{:.3f},\"load_cpu_seconds\":{:.3f},\"functions_cpu_seconds\":{:.3f},\"warnings\":[",
        json_string(ERKIT_VERSION), model_.prewarmed() ? "true" : "false", model_.prewarm_kept(), model_.prewarm_swaps(),
        model_.prewarm_build_skips(), model_.page_build_waits(), model_.load_seconds(),
        model_.first_report_seconds(), model_.load_cpu_seconds(), model_.first_report_cpu_seconds());
    bool first = true;
    for (const auto& w : model_.warnings()) {
      if (!first) o += ',';
      o += json_string(w);
      first = false;
    }
    o += "],\"experiments\":[";
    first = true;
    for (const auto& e : model_.paths()) {
      if (!first) o += ',';
      o += json_string(e);
      first = false;
    }
    o += "],\"commands\":[";
    first = true;
    for (const auto& c : ErModel::api_commands()) {
      if (!first) o += ',';
      o += json_string(c);
      first = false;
    }
    o += "]}";
    res.set_content(o, "application/json");
  });

  // GET /api/run?c=functions&c=calltree: er_print's JSON objects of those commands, in order.
  http_->Get("/api/run", [this](const httplib::Request& req, httplib::Response& res) {
    std::vector<std::string> lines;
    size_t n = req.get_param_value_count("c");
    for (size_t i = 0; i < n; ++i) {
      std::string line = req.get_param_value("c", i), why;
      if (!ErModel::allowed_command(line, &why)) return json_error(res, 400, why);
      lines.push_back(std::move(line));
    }
    if (lines.empty()) return json_error(res, 400, "no command (c=...)");
    res.set_content(model_.run(lines), "application/json");
  });

  // GET /api/calltree?nodes=20000: er_print's calltree, its first N nodes depth-first.
  http_->Get("/api/calltree", [this](const httplib::Request& req, httplib::Response& res) {
    const std::string ns = req.get_param_value("nodes");
    size_t n = 0;
    auto [p, ec] = std::from_chars(ns.data(), ns.data() + ns.size(), n);
    if (ns.empty() || ec != std::errc() || p != ns.data() + ns.size())
      return json_error(res, 400, fmt::format("bad node count '{}'", ns));
    res.set_content(model_.calltree(n), "application/json");
  });

  // POST /api/save-rc {"commands":["metrics ...","sort ...","name ...","viewmode ..."]}: Set
  // Data Presentation's Save, into ./.er.rc of the directory the analyzer runs in.
  http_->Post("/api/save-rc", [](const httplib::Request& req, httplib::Response& res) {
    json::Value body;
    std::string error;
    if (!json::parse(req.body, &body, &error)) return json_error(res, 400, "bad JSON: " + error);
    std::vector<std::string> lines;
    for (const auto& c : body["commands"].elements()) lines.push_back(c.as_string());
    std::string path;
    std::error_code ec;
    if (!ErModel::save_rc(lines, std::filesystem::current_path(ec).string(), &path, &error))
      return json_error(res, 400, error);
    res.set_content(fmt::format("{{\"path\":{}}}", json_string(path)), "application/json");
  });

  // GET /api/events?t0=0&t1=0&buckets=800[&by=cpu]: the per-thread (or per-CPU) timeline's
  // events (er_model_events.cc).
  http_->Get("/api/events", [this](const httplib::Request& req, httplib::Response& res) {
    uint64_t v[3] = {0, 0, 800};
    const char* names[3] = {"t0", "t1", "buckets"};
    for (int k = 0; k < 3; ++k) {
      if (!req.has_param(names[k])) continue;
      const std::string s = req.get_param_value(names[k]);
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v[k]);
      if (s.empty() || ec != std::errc() || p != s.data() + s.size())
        return json_error(res, 400, fmt::format("bad {} '{}'", names[k], s));
    }
    if (v[2] == 0 || v[2] > 20000) return json_error(res, 400, "buckets: 1 to 20000");
    const std::string by = req.has_param("by") ? req.get_param_value("by") : "thread";
    if (by != "thread" && by != "cpu") return json_error(res, 400, fmt::format("by: thread or cpu, not '{}'", by));
    res.set_content(model_.timeline_events(v[0], v[1], uint32_t(v[2]), by == "cpu"), "application/json");
  });

  // GET /api/fnid?name=two: the ids of the functions of that name (er_print's name rule).
  http_->Get("/api/fnid", [this](const httplib::Request& req, httplib::Response& res) {
    std::string o = "{\"ids\":[";
    bool first = true;
    for (uint64_t id : model_.function_ids(req.get_param_value("name"))) {
      o += fmt::format("{}{}", first ? "" : ",", id);
      first = false;
    }
    res.set_content(o + "]}", "application/json");
  });

  // POST /api/notes {"experiment": 1, "text": "..."}: the Experiments tab's notes, saved into
  // that experiment's notes file (er_model_notes.cc).
  http_->Post("/api/notes", [this](const httplib::Request& req, httplib::Response& res) {
    json::Value body;
    std::string error;
    if (!json::parse(req.body, &body, &error)) return json_error(res, 400, "bad JSON: " + error);
    if (body["experiment"].kind() != json::Value::Kind::Int || body["text"].kind() != json::Value::Kind::String)
      return json_error(res, 400, "expected {\"experiment\": N, \"text\": \"...\"}");
    const int64_t x = body["experiment"].as_int();
    if (x < 1 || x > 1000000) return json_error(res, 400, fmt::format("no experiment {}", x));
    if (!model_.save_notes(uint32_t(x), body["text"].as_string(), &error)) return json_error(res, 400, error);
    res.set_content("{\"saved\":true}", "application/json");
  });

  // GET /api/mapfile?object=NAME&format=lld: Create Mapfile's text (the browser saves it).
  http_->Get("/api/mapfile", [this](const httplib::Request& req, httplib::Response& res) {
    std::string error;
    std::string text = model_.mapfile(req.get_param_value("object"), req.get_param_value("format"), &error);
    if (!error.empty()) return json_error(res, 400, error);
    res.set_content(text, "text/plain; charset=utf-8");
  });

  // GET /api/fn?cmd=source&id=12: a per-function report (fsingle, csingle, source, disasm).
  http_->Get("/api/fn", [this](const httplib::Request& req, httplib::Response& res) {
    const std::string cmd = req.get_param_value("cmd"), ids = req.get_param_value("id");
    uint64_t id = 0;
    auto [p, ec] = std::from_chars(ids.data(), ids.data() + ids.size(), id);
    if (ids.empty() || ec != std::errc() || p != ids.data() + ids.size())
      return json_error(res, 400, fmt::format("bad function id '{}'", ids));
    std::string error;
    std::string out = model_.run_for_function(cmd, id, &error);
    if (!error.empty()) return json_error(res, 400, error);
    res.set_content(out, "application/json");
    // The Summary of a newly selected function: its other tabs' reports are computed next.
    if (cmd == "fsingle") model_.want_function(id);
  });
}

}  // namespace erkit::analyzer
