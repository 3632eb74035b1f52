// The analyzer's HTTP server (cpp-httplib): the page's embedded assets and the JSON API over
// ErModel, on 127.0.0.1 only, every request checked by security.h.
#pragma once
#include <memory>
#include <string>

#include "analyzer/collect_runner.h"
#include "analyzer/er_model.h"
#include "analyzer/security.h"

namespace httplib {
class Server;
}

namespace erkit::analyzer {

class AnalyzerServer {
 public:
  AnalyzerServer(ErModel& model, std::string token);
  ~AnalyzerServer();
  // Binds 127.0.0.1:port (0: a free port). False with *error when the port is taken.
  bool bind(int port, std::string* error);
  int port() const { return access_.port; }
  const std::string& token() const { return access_.token; }
  std::string url() const;  // http://127.0.0.1:PORT/?token=TOKEN
  // Serves until stop() (from another thread or a signal-watching thread).
  void serve();
  void stop();
  // The Collect window: the collect executable it runs, and the form's initial fields
  // (`analyzer [collect options] target args`).
  void set_collect(std::string program, CollectRequest initial);

 private:
  void routes();
  void collect_routes();  // server_collect.cc
  std::string collect_program_;
  CollectRequest collect_initial_;
  CollectRunner runner_;
  ErModel& model_;
  Access access_;
  std::unique_ptr<httplib::Server> http_;
};

}  // namespace erkit::analyzer
