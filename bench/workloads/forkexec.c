// Process-heavy: fork + exec of itself many times (each child does ~1 ms of work and exits), as
// build systems and shell scripts do. Profilers that follow descendants pay per process.
// Usage: forkexec [children]
#include <sys/wait.h>

#include "bench_common.h"

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) {
    unsigned long long x = 1;
    for (int i = 0; i < 700000; ++i) x = x * 6364136223846793005ULL + 1442695040888963407ULL + (x >> 29);
    bench_sink = x;
    return 0;
  }
  long n = bench_units(argc, argv, 40);
  for (long i = 0; i < n; ++i) {
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
      execl("/proc/self/exe", argv[0], "child", (char*)NULL);
      _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1;
  }
  bench_report_count("children", n);
  return 0;
}
