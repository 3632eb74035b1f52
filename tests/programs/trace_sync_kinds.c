// link: -lpthread
// One wait of each kind, each in its own function and long enough to pass any calibrated
// threshold: join_wait (pthread_join, ~150 ms), sem_waiter (sem_wait, ~100 ms), rd_waiter and
// wr_waiter (rwlock read and write locks held 100 ms by a writer), spin_waiter (spin lock held
// 60 ms), barrier_waiter (barrier the other thread reaches 80 ms later), sem_timed (sem_timedwait
// timing out after 40 ms). Writes nothing.
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

static void sleep_ms(int ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0) {
  }
}

static void* sleeper(void* arg) {
  sleep_ms((int)(long)arg);
  return NULL;
}

__attribute__((noinline)) static void join_wait(void) {
  pthread_t t;
  pthread_create(&t, NULL, sleeper, (void*)150L);
  pthread_join(t, NULL);
}

static sem_t g_sem;
static void* poster(void* arg) {
  (void)arg;
  sleep_ms(100);
  sem_post(&g_sem);
  return NULL;
}
__attribute__((noinline)) static void sem_waiter(void) {
  sem_init(&g_sem, 0, 0);
  pthread_t t;
  pthread_create(&t, NULL, poster, NULL);
  sem_wait(&g_sem);
  pthread_join(t, NULL);
}

__attribute__((noinline)) static void sem_timed(void) {
  sem_t s;
  sem_init(&s, 0, 0);
  struct timespec at;
  clock_gettime(CLOCK_REALTIME, &at);
  at.tv_nsec += 40 * 1000000L;
  if (at.tv_nsec >= 1000000000L) at.tv_sec++, at.tv_nsec -= 1000000000L;
  while (sem_timedwait(&s, &at) != 0 && errno == EINTR) {
  }
}

static pthread_rwlock_t g_rw = PTHREAD_RWLOCK_INITIALIZER;
static sem_t g_held;
static void* writer(void* arg) {
  (void)arg;
  pthread_rwlock_wrlock(&g_rw);
  sem_post(&g_held);
  sleep_ms(100);
  pthread_rwlock_unlock(&g_rw);
  return NULL;
}
__attribute__((noinline)) static void rd_waiter(void) {
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  sem_wait(&g_held);
  pthread_rwlock_rdlock(&g_rw);
  pthread_rwlock_unlock(&g_rw);
  pthread_join(t, NULL);
}
__attribute__((noinline)) static void wr_waiter(void) {
  pthread_t t;
  pthread_create(&t, NULL, writer, NULL);
  sem_wait(&g_held);
  pthread_rwlock_wrlock(&g_rw);
  pthread_rwlock_unlock(&g_rw);
  pthread_join(t, NULL);
}

static pthread_spinlock_t g_spin;
static void* spin_holder(void* arg) {
  (void)arg;
  pthread_spin_lock(&g_spin);
  sem_post(&g_held);
  sleep_ms(60);
  pthread_spin_unlock(&g_spin);
  return NULL;
}
__attribute__((noinline)) static void spin_waiter(void) {
  pthread_spin_init(&g_spin, PTHREAD_PROCESS_PRIVATE);
  pthread_t t;
  pthread_create(&t, NULL, spin_holder, NULL);
  sem_wait(&g_held);
  pthread_spin_lock(&g_spin);
  pthread_spin_unlock(&g_spin);
  pthread_join(t, NULL);
}

static pthread_barrier_t g_bar;
static void* late_arrival(void* arg) {
  (void)arg;
  sleep_ms(80);
  pthread_barrier_wait(&g_bar);
  return NULL;
}
__attribute__((noinline)) static void barrier_waiter(void) {
  pthread_barrier_init(&g_bar, NULL, 2);
  pthread_t t;
  pthread_create(&t, NULL, late_arrival, NULL);
  pthread_barrier_wait(&g_bar);
  pthread_join(t, NULL);
}

int main(void) {
  sem_init(&g_held, 0, 0);
  join_wait();
  sem_waiter();
  sem_timed();
  rd_waiter();
  wr_waiter();
  spin_waiter();
  barrier_waiter();
  return 0;
}
