// Debug info fetched from debuginfod (DEBUGINFOD_URLS) for a fully stripped object: a local
// python http.server on the loopback serves /buildid/<id>/debuginfo as a static file.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "symbols/symbols.h"

namespace erkit::symbols {
namespace {

const std::string kBin = SYMBOLS_TESTDATA_BIN;
const std::string kSrc = SYMBOLS_TESTDATA_SRC;

uint32_t marker_line(const std::string& file, const std::string& tag) {
  std::ifstream in(kSrc + "/" + file);
  std::string text;
  for (uint32_t n = 1; std::getline(in, text); ++n)
    if (text.find("LINE:" + tag) != std::string::npos) return n;
  return 0;
}

// A free loopback port (bound then released).
int free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  int port = -1;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
    port = ntohs(a.sin_port);
  close(fd);
  return port;
}

bool accepts(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(uint16_t(port));
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(fd);
  return ok;
}

class Debuginfod : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = "/tmp/erkit_debuginfod_" + std::to_string(getpid());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (server_ > 0) {
      kill(server_, SIGTERM);
      waitpid(server_, nullptr, 0);
    }
    unsetenv("DEBUGINFOD_URLS");
    unsetenv("DEBUGINFOD_CACHE_PATH");
    std::filesystem::remove_all(dir_);
  }
  // Serves `root` on the loopback; returns the port, or -1.
  int serve(const std::string& root) {
    int port = free_port();
    if (port < 0) return -1;
    server_ = fork();
    if (server_ == 0) {
      std::string p = std::to_string(port);
      execlp("python3", "python3", "-m", "http.server", p.c_str(), "--bind", "127.0.0.1", "--directory", root.c_str(),
             static_cast<char*>(nullptr));
      _exit(127);
    }
    for (int i = 0; i < 100; ++i) {
      if (accepts(port)) return port;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -1;
  }
  std::string dir_;
  pid_t server_ = -1;
};

TEST_F(Debuginfod, FetchesDebugInfoOfAFullyStrippedObject) {
  // No debuglink, no symbols: only the build-id can find the debug info.
  const std::string prog = dir_ + "/prog";
  ASSERT_EQ(std::system(("objcopy --remove-section=.gnu_debuglink " + kBin + "/sym_inline_stripped " + prog).c_str()),
            0);
  const std::string id = read_build_id(prog);
  ASSERT_EQ(id.size(), 40u);
  {
    unsetenv("DEBUGINFOD_URLS");
    std::string err;
    auto o = ObjectSymbols::open(prog, "", &err);
    ASSERT_TRUE(o) << err;
    EXPECT_FALSE(o->has_dwarf());
  }
  const std::string root = dir_ + "/srv";
  std::filesystem::create_directories(root + "/buildid/" + id);
  std::filesystem::copy_file(kBin + "/sym_inline_stripped.debug", root + "/buildid/" + id + "/debuginfo");
  const int port = serve(root);
  ASSERT_GT(port, 0) << "python3 -m http.server did not start";
  setenv("DEBUGINFOD_URLS", ("http://127.0.0.1:" + std::to_string(port)).c_str(), 1);
  setenv("DEBUGINFOD_CACHE_PATH", (dir_ + "/cache").c_str(), 1);
  std::string err;
  auto o = ObjectSymbols::open(prog, "", &err);
  ASSERT_TRUE(o) << err;
  ASSERT_TRUE(o->has_dwarf());
  // libdwfl does not tell the path debuginfod stored the file at, so debug_file() stays "".
  const uint32_t body = marker_line("inline.c", "square_body");
  auto ranges = o->line_addresses("inline.c", body);
  ASSERT_FALSE(ranges.empty());
  auto fr = o->lookup(ranges[0].lo);
  ASSERT_FALSE(fr.empty());
  EXPECT_EQ(fr[0].name, "square");
  EXPECT_EQ(fr[0].loc.line, body);
}

}  // namespace
}  // namespace erkit::symbols
