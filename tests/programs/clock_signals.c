/* A program that uses SIGPROF itself, as the collector does: its own handler, its own
   ITIMER_PROF and timer_create timers, and blocking SIGPROF with sigprocmask/pthread_sigmask.
   It checks that it sees what it set up, and writes what it observed as "value" lines
   (clock_truth.h). Exits non-zero if its own view of its handler or mask is wrong.
   argv: truth-file */
#include "clock_truth.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>

static volatile int g_itimer, g_timer, g_timer_overruns, g_raised;

static void on_prof(int sig, siginfo_t* si, void* uc) {
  /* Expirations the kernel merged into this signal (timer checked late, on a loaded machine). */
  if (si->si_code == SI_TIMER && si->si_value.sival_int == 4242) g_timer++, g_timer_overruns += si->si_overrun;
  else if (si->si_code == SI_TKILL || si->si_code == SI_USER || si->si_code == SI_QUEUE) g_raised++;
  else g_itimer++;
}

__attribute__((noinline)) void with_itimer(void) { burn_cpu_ms(300); NO_TAIL(); }
__attribute__((noinline)) void with_timer(void) { burn_cpu_ms(200); NO_TAIL(); }
__attribute__((noinline)) void while_blocked(void) { burn_cpu_ms(300); NO_TAIL(); }
__attribute__((noinline)) void thread_blocked(void) { burn_cpu_ms(200); NO_TAIL(); }

static int prof_blocked(void) {
  sigset_t cur;
  sigprocmask(SIG_BLOCK, NULL, &cur);
  return sigismember(&cur, SIGPROF);
}

static void* blocked_thread(void* arg) {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGPROF);
  pthread_sigmask(SIG_BLOCK, &s, NULL);
  sigset_t cur;
  pthread_sigmask(SIG_BLOCK, NULL, &cur);
  truth_value("thread_mask_view", sigismember(&cur, SIGPROF));
  long long before = thread_cpu_ns();
  thread_blocked();
  truth_value("thread_blocked_cpu", (double)(thread_cpu_ns() - before));
  return arg;
}

int main(int argc, char** argv) {
  truth_open(argc, argv);
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_prof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGPROF, &sa, NULL) != 0) return 2;
  if (sigaction(SIGPROF, NULL, &old) != 0 || old.sa_sigaction != on_prof) return 3;

  /* 1. The program's own profiling interval timer. */
  struct itimerval it = {{0, 10000}, {0, 10000}}, off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_PROF, &it, NULL);
  long long c0 = thread_cpu_ns();
  with_itimer();
  setitimer(ITIMER_PROF, &off, NULL);
  truth_value("itimer_cpu", (double)(thread_cpu_ns() - c0));
  truth_value("itimer_signals", g_itimer);

  /* 2. Its own POSIX timer on SIGPROF. */
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_SIGNAL;
  sev.sigev_signo = SIGPROF;
  sev.sigev_value.sival_int = 4242;
  timer_t timer;
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &timer) != 0) return 4;
  struct itimerspec its = {{0, 10000000}, {0, 10000000}};
  timer_settime(timer, 0, &its, NULL);
  c0 = thread_cpu_ns();
  with_timer();
  timer_delete(timer);
  truth_value("timer_cpu", (double)(thread_cpu_ns() - c0));
  truth_value("timer_signals", g_timer);
  truth_value("timer_overruns", g_timer_overruns);

  /* 3. SIGPROF blocked: the program's own raise() waits until it unblocks. */
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGPROF);
  sigprocmask(SIG_BLOCK, &s, NULL);
  truth_value("mask_view", prof_blocked());
  raise(SIGPROF);
  truth_value("raised_while_blocked", g_raised);
  c0 = thread_cpu_ns();
  while_blocked();
  truth_value("while_blocked_cpu", (double)(thread_cpu_ns() - c0));
  sigprocmask(SIG_UNBLOCK, &s, NULL);
  truth_value("raised_after_unblock", g_raised);
  truth_value("mask_view_after", prof_blocked());

  /* 4. A thread that blocks SIGPROF with pthread_sigmask. */
  pthread_t t;
  pthread_create(&t, NULL, blocked_thread, NULL);
  pthread_join(t, NULL);
  truth_close();
  return 0;
}
