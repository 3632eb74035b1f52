#include "analyzer/security.h"

#include <sys/random.h>

#include <cstdint>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include <fmt/format.h>

namespace erkit::analyzer {

std::string random_token() {
  uint8_t bytes[16] = {};
  size_t got = 0;
  while (got < sizeof bytes) {
    ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n > 0) got += size_t(n);
    else if (n < 0 && errno != EINTR) break;
  }
  if (got < sizeof bytes) {
    // getrandom cannot fail on Linux >= 3.17 with a valid buffer; refuse to run with a
    // guessable token rather than fall back to one.
    std::fprintf(stderr, "analyzer: no random source (getrandom failed)\n");
    std::abort();
  }
  std::string out;
  for (uint8_t b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

std::string token_cookie_name(int port) { return fmt::format("erkit_analyzer_{}", port); }

std::string_view cookie_value(std::string_view cookies, std::string_view name) {
  size_t pos = 0;
  while (pos < cookies.size()) {
    size_t end = cookies.find(';', pos);
    if (end == std::string_view::npos) end = cookies.size();
    std::string_view item = cookies.substr(pos, end - pos);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    size_t eq = item.find('=');
    if (eq != std::string_view::npos && item.substr(0, eq) == name) return item.substr(eq + 1);
    pos = end + 1;
  }
  return {};
}

namespace {

bool host_matches(std::string_view host, int port) {
  return host == fmt::format("127.0.0.1:{}", port) || host == fmt::format("localhost:{}", port);
}

bool origin_matches(std::string_view origin, int port) {
  return origin == fmt::format("http://127.0.0.1:{}", port) || origin == fmt::format("http://localhost:{}", port);
}

}  // namespace

bool request_allowed(const Access& a, const RequestFacts& r, std::string* why) {
  if (!host_matches(r.host, a.port)) {
    *why = fmt::format("Host '{}' is not this server", r.host);
    return false;
  }
  if (!r.origin.empty() && !origin_matches(r.origin, a.port)) {
    *why = fmt::format("Origin '{}' is not this server", r.origin);
    return false;
  }
  std::string_view t = r.header_token;
  if (t.empty()) t = r.query_token;
  if (t.empty()) t = cookie_value(r.cookies, token_cookie_name(a.port));
  if (t.empty() || a.token.empty() || !constant_time_equal(t, a.token)) {
    *why = t.empty() ? "no token" : "wrong token";
    return false;
  }
  return true;
}

}  // namespace erkit::analyzer
