/* A library whose constructor starts two threads before main, possibly before the collector
   initialised: a raw clone() thread and a pthread. They burn CPU once main has started (so all
   of it belongs to the experiment); clock_ctor_program links this and collects the truth.
   ctor_saw_collector says whether the collector had started when the constructor ran. */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int ctor_saw_collector = -1;
int ctor_clone_tid_word;
long long ctor_clone_user_ns, ctor_clone_cpu_ns;
long long ctor_pthread_user_ns, ctor_pthread_cpu_ns;
pthread_t ctor_pthread;
static volatile double sink;

static int g_go;  /* futex word: main has started */

static void wait_for_main(void) {
  while (!__atomic_load_n(&g_go, __ATOMIC_ACQUIRE)) syscall(SYS_futex, &g_go, FUTEX_WAIT, 0, NULL, NULL, 0);
}

void ctor_threads_go(void) {
  __atomic_store_n(&g_go, 1, __ATOMIC_RELEASE);
  syscall(SYS_futex, &g_go, FUTEX_WAKE, 16, NULL, NULL, 0);
}

static long long cpu_ns(void) {
  struct timespec t;
  syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}
static long long user_ns(void) {
  struct rusage ru;
  syscall(SYS_getrusage, RUSAGE_THREAD, &ru);
  return ru.ru_utime.tv_sec * 1000000000LL + ru.ru_utime.tv_usec * 1000LL;
}
static void burn(long ms) {
  long long end = cpu_ns() + ms * 1000000LL;
  double x = 0;
  do {
    for (int i = 0; i < 100000; i++) x += (double)i * 0.5;
    __asm__ volatile("" : "+x"(x));
  } while (cpu_ns() < end);
  sink = x;
}

__attribute__((noinline)) void ctor_clone_spin(void) {
  burn(250);
  __asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) void ctor_pthread_spin(void) {
  burn(250);
  __asm__ volatile("" ::: "memory");
}

static int clone_main(void* arg) {
  wait_for_main();
  ctor_clone_spin();
  ctor_clone_user_ns = user_ns();
  ctor_clone_cpu_ns = cpu_ns();
  __asm__ volatile("" ::: "memory");
  return 0;
}
static void* pthread_main(void* arg) {
  wait_for_main();
  ctor_pthread_spin();
  ctor_pthread_user_ns = user_ns();
  ctor_pthread_cpu_ns = cpu_ns();
  return NULL;
}

__attribute__((constructor)) static void start_threads(void) {
  ctor_saw_collector = getenv("ERKIT_STARTED") != NULL;
  size_t size = 1 << 20;
  char* stack = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
              CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
  clone(clone_main, stack + size, flags, NULL, &ctor_clone_tid_word, NULL, &ctor_clone_tid_word);
  pthread_create(&ctor_pthread, NULL, pthread_main, NULL);
}

/* 0: collector seen, 1: clone user, 2: clone cpu, 3: pthread user, 4: pthread cpu */
long long ctor_value(int which) {
  switch (which) {
    case 0: return ctor_saw_collector;
    case 1: return ctor_clone_user_ns;
    case 2: return ctor_clone_cpu_ns;
    case 3: return ctor_pthread_user_ns;
    default: return ctor_pthread_cpu_ns;
  }
}

void ctor_threads_wait(void) {
  int tid;
  while ((tid = __atomic_load_n(&ctor_clone_tid_word, __ATOMIC_ACQUIRE)) != 0)
    syscall(SYS_futex, &ctor_clone_tid_word, FUTEX_WAIT, tid, NULL, NULL, 0);
  pthread_join(ctor_pthread, NULL);
}
