// link: -lpthread
// Tracers under fork, exec and signal handlers.
//   trace_robust fork TRUTH   parent leaks 2 x 40 (parent_work) and writes 100 bytes to
//                             parent.dat; its child leaks 3 x 60 (child_work), writes 200 bytes
//                             to child.dat and exits; the parent waits for it.
//   trace_robust exec TRUTH   leaks 1 x 70 (before_exec), then execs itself as "trace_robust
//                             after TRUTH", which leaks 4 x 80 (after_exec) and writes 300
//                             bytes to after.dat.
//   trace_robust signals TRUTH  a 1 ms interval timer's SIGALRM handler (on_alarm) writes one
//                             byte to a pipe and maps and unmaps a page, while main allocates
//                             and frees in a loop and locks a mutex, until 300 signals were
//                             handled; writes "handled N" to TRUTH.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

void* volatile g_keep[16];
static char g_buf[512];

static void write_file(const char* name, size_t n) {
  int fd = open(name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || write(fd, g_buf, n) != (ssize_t)n) _exit(3);
  close(fd);
}

__attribute__((noinline)) static void parent_work(void) {
  for (int i = 0; i < 2; ++i) g_keep[i] = malloc(40);
  write_file("parent.dat", 100);
}

__attribute__((noinline)) static void child_work(void) {
  for (int i = 0; i < 3; ++i) g_keep[4 + i] = malloc(60);
  write_file("child.dat", 200);
}

__attribute__((noinline)) static void before_exec(void) { g_keep[8] = malloc(70); }

__attribute__((noinline)) static void after_exec(void) {
  for (int i = 0; i < 4; ++i) g_keep[9 + i] = malloc(80);
  write_file("after.dat", 300);
}

static int g_pipe[2];
static volatile sig_atomic_t g_handled;

static void on_alarm(int sig) {
  (void)sig;
  char c = 'a';
  if (write(g_pipe[1], &c, 1) != 1) _exit(5);
  void* p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) _exit(5);
  munmap(p, 4096);
  g_handled++;
}

static pthread_mutex_t g_m = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) static void busy_main(void) {
  while (g_handled < 300) {
    void* p = malloc(32 + (g_handled & 63));
    pthread_mutex_lock(&g_m);
    g_keep[15] = p;
    pthread_mutex_unlock(&g_m);
    free(p);
    for (volatile int k = 0; k < 5000; ++k) {  // keep the recording small: a few allocations per ms
    }
  }
}

static void truth(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  if (!f) _exit(4);
  fputs(text, f);
  fclose(f);
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const char* mode = argv[1];
  if (!strcmp(mode, "fork")) {
    parent_work();
    pid_t pid = fork();
    if (pid == 0) {
      child_work();
      _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    truth(argv[2], WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "child ok\n" : "child failed\n");
    return 0;
  }
  if (!strcmp(mode, "exec")) {
    before_exec();
    execl("/proc/self/exe", argv[0], "after", argv[2], (char*)NULL);
    return 6;
  }
  if (!strcmp(mode, "after")) {
    after_exec();
    truth(argv[2], "exec ok\n");
    return 0;
  }
  if (!strcmp(mode, "signals")) {
    if (pipe(g_pipe) != 0) return 1;
    fcntl(g_pipe[1], F_SETFL, O_NONBLOCK);
    fcntl(g_pipe[0], F_SETFL, O_NONBLOCK);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 1000}, {0, 1000}};
    setitimer(ITIMER_REAL, &it, NULL);
    busy_main();
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    char text[64];
    snprintf(text, sizeof text, "handled %d\n", (int)g_handled);
    truth(argv[2], text);
    return 0;
  }
  return 2;
}
