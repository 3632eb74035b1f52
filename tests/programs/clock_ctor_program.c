// link: -lclock_ctor_threads
/* Threads started by a library's constructor, before main and possibly before the collector:
   waits for them and writes the truth ("value" lines: each thread's user and CPU time, and
   whether the collector had started when the constructor ran). */
#include "clock_truth.h"

long long ctor_value(int which);
void ctor_threads_wait(void);
void ctor_threads_go(void);

int main(int argc, char** argv) {
  truth_open(argc, argv);
  ctor_threads_go();
  ctor_threads_wait();
  truth_value("ctor_saw_collector", ctor_value(0));
  truth_value("ctor_clone_user", ctor_value(1));
  truth_value("ctor_clone_cpu", ctor_value(2));
  truth_value("ctor_pthread_user", ctor_value(3));
  truth_value("ctor_pthread_cpu", ctor_value(4));
  truth_close();
  return 0;
}
