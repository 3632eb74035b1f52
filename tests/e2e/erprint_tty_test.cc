// End-to-end: interactive er_print on a pseudo-terminal (issue 14 items 13 and 15). The keys
// ESC x " Enter crashed it in libedit's command parser, random bytes on a pty crashed it two
// times in three, and names holding escape sequences reached the terminal raw.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {

namespace fs = std::filesystem;

// er_print started on a new pseudo-terminal; its output is drained while input is written
// (a full pty buffer would block it).
class Pty {
 public:
  Pty(const std::string& dir, const std::vector<std::string>& args) {
    pid_ = forkpty(&fd_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      if (chdir(dir.c_str()) != 0) _exit(126);
      setenv("HOME", dir.c_str(), 1);  // its history file goes to the scratch directory
      setenv("TERM", "xterm", 1);
      std::vector<char*> argv;
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
  }
  ~Pty() {
    if (fd_ >= 0) close(fd_);
    if (pid_ > 0 && !reaped_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  bool started() const { return pid_ > 0; }
  // Reads what is there for up to ms milliseconds.
  void drain(int ms) {
    auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    while (std::chrono::steady_clock::now() < end) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 10) <= 0) continue;
      char buf[4096];
      ssize_t n = read(fd_, buf, sizeof buf);
      if (n <= 0) return;
      out_.append(buf, size_t(n));
    }
  }
  void type(const std::string& bytes) {
    for (size_t i = 0; i < bytes.size(); i += 32) {
      std::string chunk = bytes.substr(i, 32);
      if (write(fd_, chunk.data(), chunk.size()) < 0) return;
      drain(5);
    }
    drain(50);
  }
  // Waits for the end (closing the terminal after grace_ms, as when a window is closed); the
  // wait status, or -1 if it did not end within 30 s (a hang).
  int finish(int grace_ms) {
    drain(grace_ms);
    close(fd_);
    fd_ = -1;
    for (int i = 0; i < 3000; ++i) {
      int st;
      if (waitpid(pid_, &st, WNOHANG) == pid_) {
        reaped_ = true;
        return st;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }
  const std::string& output() const { return out_; }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  bool reaped_ = false;
  std::string out_;
};

// A crash is death by a signal the program did not receive from outside: the terminal's end
// (SIGHUP) is not one.
bool crashed(int st) {
  if (st == -1 || !WIFSIGNALED(st)) return false;
  int s = WTERMSIG(st);
  return s == SIGSEGV || s == SIGBUS || s == SIGABRT || s == SIGILL || s == SIGFPE || s == SIGSYS;
}
std::string describe(int st) {
  if (st == -1) return "hung";
  if (WIFSIGNALED(st)) return fmt::format("killed by signal {} ({})", WTERMSIG(st), strsignal(WTERMSIG(st)));
  return fmt::format("exit {}", WEXITSTATUS(st));
}

class ErPrintTty : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    base_ = new std::string(make_workdir("erprint_tty_base"));
    // A program whose name holds an escape sequence (an xterm title change and a screen clear).
    std::string evil = *base_ + "/evil\x1b]0;owned\x07\x1b[2J";
    fs::copy_file(program("work_ratio"), evil);
    ok_ = run("cd " + *base_ + " && " + bin("collect") + " -o t.er -p on '" + evil + "'").status == 0;
  }
  static void TearDownTestSuite() {
    fs::remove_all(*base_);
    delete base_;
  }
  void SetUp() override { ASSERT_TRUE(ok_) << "could not record the experiment"; }
  std::vector<std::string> er_print() const { return {bin("er_print"), *base_ + "/t.er"}; }
  static std::string* base_;
  static bool ok_;
};
std::string* ErPrintTty::base_ = nullptr;
bool ErPrintTty::ok_ = false;

// Item 13: ESC x opened libedit's ":" command line; the quote crashed its parser.
TEST_F(ErPrintTty, LibeditCommandKeysDoNotReachItsParser) {
  for (const char* keys : {"\x1bx\"\r", "\x1bx\"a b\\\r", "\xf8\"\r"}) {
    Pty p(*base_, er_print());
    ASSERT_TRUE(p.started());
    p.drain(300);
    p.type(keys);
    p.type("\"\r");  // the quote, now typed as text, opened an argument: close it
    p.type("version\r");
    p.type("quit\r");
    int st = p.finish(200);
    EXPECT_TRUE(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0) << describe(st) << "\n" << p.output();
    EXPECT_NE(p.output().find("er_print: erkit"), std::string::npos) << p.output();
  }
}

TEST_F(ErPrintTty, RandomBytesOnATerminalNeverCrash) {
  // 12 sessions of 400 random bytes each, less the keys that make the terminal signal or stop
  // er_print (Ctrl-C, Ctrl-Z, Ctrl-\) or pause output (Ctrl-S, Ctrl-O) and end of input (Ctrl-D);
  // then the terminal is closed. ESC x and ':' appear often: every byte of 0..255 is possible.
  std::mt19937 rng(13);
  int crashes = 0;
  for (int round = 0; round < 12; ++round) {
    std::string bytes;
    while (bytes.size() < 400) {
      unsigned char c = static_cast<unsigned char>(rng());
      if (c == 3 || c == 4 || c == 0x1a || c == 0x1c || c == 0x13 || c == 0x11 || c == 0x0f) continue;
      bytes += char(c);
      if (rng() % 40 == 0) bytes += "\x1bx";
    }
    std::string dir = make_workdir("erprint_tty_round");  // commands it types write here
    Pty p(dir, er_print());
    ASSERT_TRUE(p.started());
    p.drain(200);
    p.type(bytes);
    p.type("\r\x1b\x1b\rquit\r");
    int st = p.finish(300);
    if (crashed(st) || st == -1) {
      ++crashes;
      ADD_FAILURE() << "round " << round << ": " << describe(st);
    }
    fs::remove_all(dir);
  }
  EXPECT_EQ(crashes, 0);
}

// Item 15: a program name with escape sequences reached the terminal raw in -header, and so did
// a mistyped command.
TEST_F(ErPrintTty, ControlCharactersAreEscaped) {
  Pty p(*base_, er_print());
  ASSERT_TRUE(p.started());
  p.drain(300);
  p.type("header\r");
  p.type("fu\x1b[2Jnctions\r");
  p.type("quit\r");
  int st = p.finish(200);
  EXPECT_TRUE(st != -1 && WIFEXITED(st)) << describe(st);
  const std::string& o = p.output();
  EXPECT_NE(o.find("evil\\x1b]0;owned\\x07\\x1b[2J"), std::string::npos) << o;
  EXPECT_EQ(o.find("\x1b]0;owned"), std::string::npos) << o;
  EXPECT_EQ(o.find("owned\x07"), std::string::npos) << o;
  // Through pipes as well (scripts, er_print -header > file): the same escaping.
  auto r = run("printf 'header\\nfu\\033[2Jnctions\\n' | " + bin("er_print") + " " + *base_ + "/t.er");
  EXPECT_NE(r.err.find("unknown command 'fu\\x1b[2Jnctions'"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("evil\\x1b]0;owned\\x07\\x1b[2J"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
}

// The small tools print the same names: escaped too (er_export's raw dump, er_src's listings).
TEST_F(ErPrintTty, SmallToolsEscapeControlCharacters) {
  std::string evil = *base_ + "/evil\x1b]0;owned\x07\x1b[2J";
  auto dump = run(bin("er_export") + " " + *base_ + "/t.er");
  EXPECT_EQ(dump.status, 0) << dump.err;
  EXPECT_NE(dump.out.find("evil\\x1b]0;owned\\x07\\x1b[2J"), std::string::npos) << dump.out.substr(0, 2000);
  EXPECT_EQ(dump.out.find('\x1b'), std::string::npos);
  auto listing = run(bin("er_src") + " -func '" + evil + "'");
  EXPECT_EQ(listing.status, 0) << listing.err;
  EXPECT_NE(listing.out.find("Functions of " + *base_ + "/evil\\x1b]0;owned\\x07\\x1b[2J"), std::string::npos)
      << listing.out;
  EXPECT_NE(listing.out.find("main"), std::string::npos) << listing.out;
  EXPECT_EQ(listing.out.find('\x1b'), std::string::npos);
  auto missing = run(bin("er_src") + " -func '" + evil + ".gone'");
  EXPECT_NE(missing.status, 0);
  EXPECT_EQ(missing.err.find('\x1b'), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace erkit::e2e
