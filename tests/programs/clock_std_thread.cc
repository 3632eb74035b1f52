// std::thread workers (libstdc++ calls pthread_create@GLIBC_2.34 from its own object), each
// burning CPU in its own function called from a lambda; truth as in clock_truth.h.
#include "clock_truth.h"

#include <cstdlib>
#include <thread>
#include <vector>

extern "C" {
__attribute__((noinline)) void std_worker_a(long ms) {
  burn_cpu_ms(ms);
  NO_TAIL();
}
__attribute__((noinline)) void std_worker_b(long ms) {
  burn_cpu_ms(ms);
  NO_TAIL();
}
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  long ms = argc > 2 ? std::atol(argv[2]) : 300;
  std::thread a([ms] {
    long long start = now_ns();
    std_worker_a(ms);
    truth_thread("std_worker_a", start);
  });
  std::thread b([ms] {
    long long start = now_ns();
    std_worker_b(2 * ms);
    truth_thread("std_worker_b", start);
  });
  a.join();
  b.join();
  truth_close();
  return 0;
}
