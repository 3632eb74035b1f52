/* One CPU-burning thread of every kind a program can create, each in its own function, each
   reporting the kernel's accounting of itself (clock_truth.h):
     kind_pthread      pthread_create as this glibc binds it (pthread_create@GLIBC_2.34)
     kind_pthread_old  pthread_create@GLIBC_2.2.5, bound explicitly with .symver, as a program
                       built on an older glibc binds it
     kind_clone        a raw clone() thread, sharing its creator's TLS (no CLONE_SETTLS)
     kind_sigev        a thread libc creates internally (timer_create SIGEV_THREAD notification)
   argv: truth-file [ms-per-thread] */
#include "clock_truth.h"

#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>

extern int pthread_create_old(pthread_t*, const pthread_attr_t*, void* (*)(void*), void*);
__asm__(".symver pthread_create_old,pthread_create@GLIBC_2.2.5");

static long g_ms = 300;

__attribute__((noinline)) void kind_pthread(void) {
  burn_cpu_ms(g_ms);
  NO_TAIL();
}
__attribute__((noinline)) void kind_pthread_old(void) {
  burn_cpu_ms(g_ms);
  NO_TAIL();
}
__attribute__((noinline)) void kind_clone(void) {
  burn_cpu_ms(g_ms);
  NO_TAIL();
}
__attribute__((noinline)) void kind_sigev(void) {
  burn_cpu_ms(g_ms);
  NO_TAIL();
}

static void* run_pthread(void* arg) {
  long long start = now_ns();
  kind_pthread();
  truth_thread("kind_pthread", start);
  return arg;
}
static void* run_pthread_old(void* arg) {
  long long start = now_ns();
  kind_pthread_old();
  truth_thread("kind_pthread_old", start);
  return arg;
}

/* The clone()d thread shares TLS (errno, stdio locks) with main: raw system calls only. */
static struct truth_record g_clone_truth;
static int g_clone_tid_word;  /* cleared by the kernel when the thread exits */
static int clone_main(void* arg) {
  struct timespec t;
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
  kind_clone();
  truth_thread_raw(&g_clone_truth, ts_ns(t));
  return 0;
}

static volatile int g_sigev_done;
static void sigev_notify(union sigval v) {
  long long start = now_ns();
  kind_sigev();
  truth_thread("kind_sigev", start);
  g_sigev_done = 1;
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  if (argc > 2) g_ms = atol(argv[2]);
  pthread_t a, b;
  pthread_create(&a, NULL, run_pthread, NULL);
  pthread_create_old(&b, NULL, run_pthread_old, NULL);

  size_t stack_size = 1 << 20;
  char* stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
              CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
  int tid = clone(clone_main, stack + stack_size, flags, NULL, &g_clone_tid_word, NULL, &g_clone_tid_word);
  if (tid < 0) return 2;

  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD;
  sev.sigev_notify_function = sigev_notify;
  timer_t timer;
  if (timer_create(CLOCK_MONOTONIC, &sev, &timer) != 0) return 3;
  struct itimerspec its = {{0, 0}, {0, 1000000}};  /* once, in 1 ms */
  timer_settime(timer, 0, &its, NULL);

  pthread_join(a, NULL);
  pthread_join(b, NULL);
  while (__atomic_load_n(&g_clone_tid_word, __ATOMIC_ACQUIRE) != 0)
    syscall(SYS_futex, &g_clone_tid_word, FUTEX_WAIT, tid, NULL, NULL, 0);
  truth_write("kind_clone", &g_clone_truth);
  while (!g_sigev_done) usleep(1000);
  usleep(20000);  /* the notification thread ends */
  truth_close();
  return 0;
}
