// libFuzzer target: collect's command-line parser. The input is an argument vector, arguments
// separated by NUL bytes; parsing must succeed or fail with a message, never crash.
#include <string>
#include <vector>

#include "collect/options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args;
  std::string cur;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      args.push_back(cur);
      cur.clear();
    } else {
      cur += char(data[i]);
    }
  }
  if (!cur.empty()) args.push_back(cur);
  auto r = erkit::collect::parse_options(args);
  if (!r.options && r.error.empty()) __builtin_trap();  // a refusal must say why
  std::string warning;
  if (!args.empty()) (void)erkit::collect::parse_clock_interval(args[0], 1000, &warning);
  if (!args.empty()) (void)erkit::collect::parse_signal(args.back());
  return 0;
}
