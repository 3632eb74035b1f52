// Security tests (tests/e2e/security_test.cc): a program run as root that gives up its rights
// or its root directory before starting a child, as daemons do. argv[1]: "setuid" (become
// nobody, uid/gid 65534) or "chroot" (chroot into the empty directory argv[2]). Then it forks
// a child that works a little and exits; the parent waits and exits 0 (1 if the drop failed).
// "exec PROG": the child execs PROG with the argument "noop" instead; "noop" exits 0.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  if (strcmp(argv[1], "noop") == 0) return 0;
  const char* prog = NULL;
  if (strcmp(argv[1], "exec") == 0 && argc > 2) {
    prog = argv[2];
  } else if (strcmp(argv[1], "setuid") == 0) {
    if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0) return 1;
  } else if (strcmp(argv[1], "chroot") == 0 && argc > 2) {
    if (chroot(argv[2]) != 0 || chdir("/") != 0) return 1;
  } else {
    return 2;
  }
  pid_t pid = fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    if (prog) {
      execl(prog, prog, "noop", (char*)NULL);
      _exit(127);
    }
    for (int i = 0; i < 1000000; ++i) sink += i * 0.5;
    _exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
