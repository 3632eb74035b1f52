#include "common/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace erkit::common {
namespace {

const char* g_tool = "erkit";
int g_state = -1;  // -1 unknown, 0 off, 1 on

std::chrono::milliseconds delay() {
  const char* e = std::getenv("ERKIT_PROGRESS_DELAY_MS");
  return std::chrono::milliseconds(e && *e ? std::atol(e) : 1000);
}

std::string count(uint64_t n) {
  if (n >= 10'000'000) return fmt::format("{:.1f} M", double(n) / 1e6);
  if (n >= 10'000) return fmt::format("{} k", n / 1000);
  return fmt::format("{}", n);
}

}  // namespace

void Progress::set_tool(const char* tool) { g_tool = tool; }
void Progress::disable() { g_state = 0; }
bool Progress::enabled() {
  if (g_state < 0) g_state = isatty(STDERR_FILENO) ? 1 : 0;
  return g_state == 1;
}

Progress::Progress(std::string what, std::string subject, uint64_t total)
    : what_(std::move(what)), subject_(std::move(subject)), total_(total), active_(enabled()) {
  if (active_) start_ = last_ = std::chrono::steady_clock::now();
  if (active_ && delay().count() == 0) poll();
}

Progress::~Progress() {
  if (shown_) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
}

void Progress::poll() {
  if (!enabled()) return;
  auto now = std::chrono::steady_clock::now();
  if (now - start_ < delay()) return;
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  double secs = std::chrono::duration<double>(now - start_).count();
  std::string amount = total_ ? fmt::format("{}% ({} of {})", std::min<uint64_t>(100, done_ * 100 / total_), count(done_), count(total_))
                              : count(done_);
  fmt::print(stderr, "\r{}: {} {}: {} ({:.1f} s)\033[K", g_tool, what_, subject_, amount, secs);
  std::fflush(stderr);
}

}  // namespace erkit::common
