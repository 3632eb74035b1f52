// Starts descendants in every way collect -F follows, as told by its arguments (one step each,
// in order). Each step's CPU work is done in a function named after how the process started,
// so a test can find every descendant's own work in its own experiment.
//   burn:MS           burn MS ms of CPU in burn_main (this process)
//   fork:MS           fork; the child burns MS ms in burn_forked and exits 0; wait for it
//   vfork:MS          vfork + exec of this program with "burn:MS"; wait for it
//   clone:MS          clone without CLONE_VM; the child burns MS ms in burn_cloned; wait
//   exec:STEPS        exec this program with STEPS ('+' separates steps), never returns
//   execfail          exec a program that does not exist; go on
//   execstatic:PATH   fork; the child execs PATH (a static program); wait
//   spawn:STEPS       posix_spawn this program with STEPS; wait
//   system:STEPS      system("<this program> STEPS")
//   popen:STEPS       popen("<this program> STEPS", "r"), read to the end, pclose
//   exit:N            exit(N) now
//   _exit:N           _exit(N) now
//   abort             abort()
//   raise:SIG         raise SIG (USR1, USR2, KILL, SEGV, TERM) to this process
//   burnA:MS, burnB:MS  burn in burn_a / burn_b (recorded and paused periods)
//   threads:N:MS      N threads, each burning MS ms in burn_thread; join them
//   forever           burn in burn_forever until killed
//   write:KB          write KB KiB to /dev/null; read:KB read KB KiB from /dev/zero
//   sleep:MS          sleep MS ms
//   say:TEXT          print TEXT on a line of its own
//   env:FILE          write this process's environment to FILE
//   spawnp:PROG+ARGS  posix_spawnp PROG (searched in PATH) with ARGS; wait
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char** environ;
static char self[4096];

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile double sink;
// Each burner adds its own constant: identical bodies would be merged into one function
// (GCC's identical code folding at -O2) and show under one name.
#define BURNER(name, k)                                \
  __attribute__((noinline)) static void name(int ms) { \
    double end = cpu_now() + ms / 1000.0;              \
    double x = 1;                                      \
    while (cpu_now() < end)                            \
      for (int i = 0; i < 10000; ++i) x = x * 1.0000001 + k; \
    sink = x;                                          \
  }
BURNER(burn_main, 0.5)
BURNER(burn_forked, 0.25)
BURNER(burn_cloned, 0.125)
BURNER(burn_a, 0.375)
BURNER(burn_b, 0.625)
BURNER(burn_thread, 0.75)
__attribute__((noinline)) static void burn_forever(void) {
  double x = 1;
  for (;;) {
    for (int i = 0; i < 10000; ++i) x = x * 1.0000001 + 0.5;
    sink = x;
  }
}

static void* thread_main(void* arg) {
  burn_thread((int)(long)arg);
  return NULL;
}

static int signal_number(const char* s) {
  if (!strcmp(s, "USR1")) return SIGUSR1;
  if (!strcmp(s, "USR2")) return SIGUSR2;
  if (!strcmp(s, "KILL")) return SIGKILL;
  if (!strcmp(s, "SEGV")) return SIGSEGV;
  if (!strcmp(s, "TERM")) return SIGTERM;
  return atoi(s);
}

static void wait_child(pid_t pid) {
  int st;
  while (waitpid(pid, &st, 0) < 0) {
  }
}

// STEPS "a+b+c" -> argv {self, a, b, c, NULL}
static char** steps_argv(const char* steps) {
  static char buf[4096];
  static char* argv[64];
  snprintf(buf, sizeof buf, "%s", steps);
  int n = 0;
  argv[n++] = self;
  for (char* t = strtok(buf, "+"); t && n < 63; t = strtok(NULL, "+")) argv[n++] = t;
  argv[n] = NULL;
  return argv;
}

static const char* steps_command(const char* steps) {
  static char cmd[4200];
  snprintf(cmd, sizeof cmd, "%s %s", self, steps);
  for (char* p = cmd; *p; ++p)
    if (*p == '+') *p = ' ';
  return cmd;
}

static char clone_stack[256 * 1024];
static int clone_ms;
static int cloned_main(void* arg) {
  (void)arg;
  burn_cloned(clone_ms);
  return 0;
}

int main(int argc, char** argv) {
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = 0;
  setvbuf(stdout, NULL, _IOLBF, 0);
  for (int i = 1; i < argc; ++i) {
    char* a = argv[i];
    char* arg = strchr(a, ':');
    if (arg) *arg++ = 0;
    if (!strcmp(a, "burn")) {
      burn_main(atoi(arg));
    } else if (!strcmp(a, "fork")) {
      pid_t pid = fork();
      if (pid == 0) {
        burn_forked(atoi(arg));
        exit(0);
      }
      wait_child(pid);
    } else if (!strcmp(a, "vfork")) {
      char step[64];
      snprintf(step, sizeof step, "burn:%s", arg);
      pid_t pid = vfork();
      if (pid == 0) {
        execl(self, self, step, (char*)NULL);
        _exit(127);
      }
      wait_child(pid);
    } else if (!strcmp(a, "clone")) {
      clone_ms = atoi(arg);
      pid_t pid = clone(cloned_main, clone_stack + sizeof clone_stack, SIGCHLD, NULL);
      if (pid > 0) wait_child(pid);
    } else if (!strcmp(a, "exec")) {
      execv(self, steps_argv(arg));
      perror("exec");
      return 1;
    } else if (!strcmp(a, "execfail")) {
      execl("/nonexistent/program", "program", (char*)NULL);
      printf("exec failed as expected\n");
    } else if (!strcmp(a, "execstatic")) {
      pid_t pid = fork();
      if (pid == 0) {
        execl(arg, arg, (char*)NULL);
        _exit(127);
      }
      wait_child(pid);
    } else if (!strcmp(a, "spawn")) {
      pid_t pid;
      if (posix_spawn(&pid, self, NULL, NULL, steps_argv(arg), environ) == 0) wait_child(pid);
    } else if (!strcmp(a, "system")) {
      int st = system(steps_command(arg));
      printf("system status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    } else if (!strcmp(a, "popen")) {
      FILE* f = popen(steps_command(arg), "r");
      char line[256];
      int lines = 0;
      while (f && fgets(line, sizeof line, f)) ++lines;
      int st = f ? pclose(f) : -1;
      printf("popen lines %d status %d\n", lines, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    } else if (!strcmp(a, "exit")) {
      exit(atoi(arg));
    } else if (!strcmp(a, "_exit")) {
      _exit(atoi(arg));
    } else if (!strcmp(a, "abort")) {
      abort();
    } else if (!strcmp(a, "raise")) {
      kill(getpid(), signal_number(arg));
    } else if (!strcmp(a, "burnA")) {
      burn_a(atoi(arg));
    } else if (!strcmp(a, "burnB")) {
      burn_b(atoi(arg));
    } else if (!strcmp(a, "threads")) {
      int count = atoi(arg);
      const char* ms = strchr(arg, ':');
      pthread_t t[256];
      if (count > 256) count = 256;
      for (int k = 0; k < count; ++k) pthread_create(&t[k], NULL, thread_main, (void*)(long)(ms ? atoi(ms + 1) : 10));
      for (int k = 0; k < count; ++k) pthread_join(t[k], NULL);
    } else if (!strcmp(a, "forever")) {
      burn_forever();
    } else if (!strcmp(a, "write") || !strcmp(a, "read")) {
      static char block[1024];
      int fd = open(a[0] == 'w' ? "/dev/null" : "/dev/zero", a[0] == 'w' ? O_WRONLY : O_RDONLY);
      for (int k = 0; k < atoi(arg); ++k)
        if ((a[0] == 'w' ? write(fd, block, sizeof block) : read(fd, block, sizeof block)) < 0) break;
      close(fd);
    } else if (!strcmp(a, "say")) {
      printf("%s\n", arg);
    } else if (!strcmp(a, "env")) {
      FILE* f = fopen(arg, "w");
      for (char** e = environ; f && *e; ++e) fprintf(f, "%s\n", *e);
      if (f) fclose(f);
    } else if (!strcmp(a, "spawnp")) {
      char** av = steps_argv(arg);
      pid_t pid;
      if (posix_spawnp(&pid, av[1], NULL, NULL, av + 1, environ) == 0) wait_child(pid);
    } else if (!strcmp(a, "sleep")) {
      struct timespec ts = {atoi(arg) / 1000, (atoi(arg) % 1000) * 1000000L};
      nanosleep(&ts, NULL);
    } else {
      fprintf(stderr, "unknown step %s\n", a);
      return 2;
    }
  }
  return 0;
}
