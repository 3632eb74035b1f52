/* OpenMP scenarios with a known imbalance (docs/openmp.md), built with GCC (libgomp) and Clang
   (libomp). Usage: omp_imbalance MODE UNIT COUNT (tasks, nested: below)
     imbalance  COUNT parallel regions; thread 0 runs work(3*UNIT), every other thread work(UNIT)
     critical   each thread enters a critical section COUNT times and runs work(UNIT) inside it
     lock       the same with an omp_lock_t
     fine       COUNT parallel-for regions of UNIT iterations each (a fine-grained loop: bench/)
   work(n) is n dependent floating-point additions: its CPU time is proportional to n. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile double sink;

__attribute__((noinline)) void work(long n) {
  double x = 0;
  for (long i = 0; i < n; ++i) x += (double)i * 1e-9;
  sink += x;
}

__attribute__((noinline)) void imbalance(long unit, int regions) {
  for (int r = 0; r < regions; ++r) {
#pragma omp parallel
    {
      work(omp_get_thread_num() == 0 ? 3 * unit : unit);
    }
  }
}

__attribute__((noinline)) void critical_work(long unit, int iters) {
#pragma omp parallel
  {
    for (int i = 0; i < iters; ++i) {
#pragma omp critical
      {
        work(unit);
      }
    }
  }
}

omp_lock_t lock;

__attribute__((noinline)) void lock_work(long unit, int iters) {
  omp_init_lock(&lock);
#pragma omp parallel
  {
    for (int i = 0; i < iters; ++i) {
      omp_set_lock(&lock);
      work(unit);
      omp_unset_lock(&lock);
    }
  }
  omp_destroy_lock(&lock);
}

static double a[4096];

__attribute__((noinline)) void fine(long n, int regions) {
  if (n > 4096) n = 4096;
  for (int r = 0; r < regions; ++r) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) a[i] += (double)i;
  }
}

/* tasks: COUNT regions in which one thread creates two tasks of work(3*UNIT) each, runs
   work(UNIT) itself, then waits for them in a taskwait (about 2*UNIT). */
__attribute__((noinline)) void spawn(long unit, int regions) {
  for (int r = 0; r < regions; ++r) {
#pragma omp parallel
    {
#pragma omp single
      {
        for (int t = 0; t < 2; ++t) {
#pragma omp task
          work(3 * unit);
        }
        work(unit);
#pragma omp taskwait
      }
    }
  }
}

/* nested (with OMP_MAX_ACTIVE_LEVELS=2): COUNT regions of 2 threads, each calling inner(), a
   region of 2 threads in which outer thread 0's thread 0 runs work(3*UNIT), the others work(UNIT). */
__attribute__((noinline)) void inner(long unit, int outer) {
#pragma omp parallel num_threads(2)
  {
    work(outer == 0 && omp_get_thread_num() == 0 ? 3 * unit : unit);
  }
}

__attribute__((noinline)) void nested(long unit, int regions) {
  for (int r = 0; r < regions; ++r) {
#pragma omp parallel num_threads(2)
    {
      inner(unit, omp_get_thread_num());
    }
  }
}

/* nested_tasks: COUNT regions in which one thread creates a task that runs work(UNIT) itself,
   creates two tasks of work(2*UNIT) each and waits for them; the creator waits for it. */
__attribute__((noinline)) void task_tree(long unit, int regions) {
  for (int r = 0; r < regions; ++r) {
#pragma omp parallel
    {
#pragma omp single
      {
#pragma omp task
        {
          work(unit);
          for (int t = 0; t < 2; ++t) {
#pragma omp task
            work(2 * unit);
          }
#pragma omp taskwait
        }
#pragma omp taskwait
      }
    }
  }
}

/* taskloop: COUNT regions in which one thread runs a taskloop of 4 iterations (4 tasks) of
   work(UNIT), (i + 1) * UNIT for the reduction's sum. */
__attribute__((noinline)) void loop_tasks(long unit, int regions) {
  long sum = 0;
  for (int r = 0; r < regions; ++r) {
#pragma omp parallel
    {
#pragma omp single
      {
#pragma omp taskloop num_tasks(4) reduction(+ : sum)
        for (int i = 0; i < 4; ++i) {
          work(unit);
          sum += (i + 1) * unit;
        }
      }
    }
  }
  if (sum != 10 * unit * regions) {
    fprintf(stderr, "taskloop: wrong sum %ld\n", sum);
    exit(1);
  }
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s imbalance|critical|lock|fine|tasks|nested|nested_tasks|taskloop UNIT COUNT\n", argv[0]);
    return 2;
  }
  long unit = atol(argv[2]);
  int count = atoi(argv[3]);
  if (!strcmp(argv[1], "imbalance")) imbalance(unit, count);
  else if (!strcmp(argv[1], "critical")) critical_work(unit, count);
  else if (!strcmp(argv[1], "lock")) lock_work(unit, count);
  else if (!strcmp(argv[1], "fine")) fine(unit, count);
  else if (!strcmp(argv[1], "tasks")) spawn(unit, count);
  else if (!strcmp(argv[1], "nested")) nested(unit, count);
  else if (!strcmp(argv[1], "nested_tasks")) task_tree(unit, count);
  else if (!strcmp(argv[1], "taskloop")) loop_tasks(unit, count);
  else return 2;
  printf("threads=%d sink=%g\n", omp_get_max_threads(), sink > 0 ? 1.0 : 0.0);
  return 0;
}
