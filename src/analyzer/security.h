// The analyzer's access rules (docs/analyzer.md, "Security"): the server listens on 127.0.0.1
// only, and a request is answered only when it carries the session's random token and names
// the served address in Host (and Origin, when a browser sends one). This stops other local
// users (no token), web pages in the user's browser (cross-origin requests carry their own
// Origin) and DNS rebinding (the Host header names the attacker's domain).
#pragma once
#include <string>
#include <string_view>

namespace erkit::analyzer {

// 32 hexadecimal digits from the kernel's random source (getrandom).
std::string random_token();

// Equal strings, in time that does not depend on where they differ.
bool constant_time_equal(std::string_view a, std::string_view b);

// The name of the cookie that carries the token; per port, since cookies are shared between
// the ports of one host.
std::string token_cookie_name(int port);

struct Access {
  std::string token;
  int port = 0;
};

// What a request shows of itself.
struct RequestFacts {
  std::string_view host;          // Host header
  std::string_view origin;        // Origin header ("" when absent)
  std::string_view query_token;   // ?token=
  std::string_view header_token;  // X-Erkit-Token
  std::string_view cookies;       // Cookie header
};

// True when the request may be answered; otherwise *why says which rule it broke.
bool request_allowed(const Access& a, const RequestFacts& r, std::string* why);

// The value of cookie `name` in a Cookie header ("" when absent).
std::string_view cookie_value(std::string_view cookies, std::string_view name);

}  // namespace erkit::analyzer
