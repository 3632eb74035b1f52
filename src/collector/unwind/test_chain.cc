// Compiled with -O2 -fomit-frame-pointer: no frame-pointer chain exists through these frames.
#include "collector/unwind/test_chain.h"

#include <math.h>
#include <stdlib.h>

#include <algorithm>

namespace {

struct Ctx {
  int depth;
  ChainLeaf leaf;
  void* arg;
};

volatile int g_sink;

int level(const Ctx* c);

// A level reached from inside libc's qsort_r: the comparator recurses on its first call.
struct QsortLevel {
  const Ctx* c;
  bool done;
  int result;
};

__attribute__((noinline)) int qsort_cmp(const void* a, const void* b, void* p) {
  auto* q = static_cast<QsortLevel*>(p);
  if (!q->done) {
    q->done = true;
    Ctx next{q->c->depth - 1, q->c->leaf, q->c->arg};
    q->result = level(&next);
  }
  return *static_cast<const int*>(a) - *static_cast<const int*>(b);
}

__attribute__((noinline)) int via_qsort(const Ctx* c) {
  int v[3] = {3, 1, 2};
  QsortLevel q{c, false, 0};
  qsort_r(v, 3, sizeof(int), qsort_cmp, &q);
  return q.result + v[0];
}

__attribute__((noinline)) int via_std_sort(const Ctx* c) {
  int v[4] = {4, 3, 2, 1};
  bool done = false;
  int result = 0;
  std::sort(v, v + 4, [&](int a, int b) {
    if (!done) {
      done = true;
      Ctx next{c->depth - 1, c->leaf, c->arg};
      result = level(&next);
    }
    return a < b;
  });
  return result + v[0];
}

__attribute__((noinline)) int via_plain(const Ctx* c) {
  Ctx next{c->depth - 1, c->leaf, c->arg};
  const int r = level(&next);
  g_sink = r;  // keeps the call from being a tail call
  return r + 1;
}

__attribute__((noinline)) int level(const Ctx* c) {
  if (c->depth <= 0) {
    c->leaf(c->arg);
    g_sink = 0;
    return 1;
  }
  int r;
  switch (c->depth % 3) {
    case 0: r = via_qsort(c); break;
    case 1: r = via_std_sort(c); break;
    default: r = via_plain(c); break;
  }
  g_sink = r;
  return r;
}

int cmp_int(const void* a, const void* b, void*) {
  return *static_cast<const int*>(a) - *static_cast<const int*>(b);
}

}  // namespace

extern "C" {

__attribute__((noinline)) int chain_outer(int depth, ChainLeaf leaf, void* arg) {
  Ctx c{depth, leaf, arg};
  const int r = level(&c);
  g_sink = r;
  return r;
}

__attribute__((noinline)) void chain_burn(void* stop) {
  auto* flag = static_cast<volatile int*>(stop);
  int v[256];
  double (*volatile cosine)(double) = cos;  // through the PLT into libm
  unsigned seed = 1;
  double acc = 0;
  while (!*flag) {
    for (int& x : v) x = int((seed = seed * 1103515245u + 12345u) >> 8);
    qsort_r(v, 256, sizeof(int), cmp_int, nullptr);
    for (int& x : v) x = int((seed = seed * 1103515245u + 12345u) >> 8);
    std::sort(v, v + 256, [](int a, int b) { return a % 1000 < b % 1000; });
    for (int i = 0; i < 200; ++i) acc += cosine(acc + i);
  }
  g_sink = int(acc);
}

static void burn_leaf(void* stop) { chain_burn(stop); }

__attribute__((noinline)) int chain_outer_burn(int depth, volatile int* stop) {
  const int r = chain_outer(depth, burn_leaf, const_cast<int*>(stop));
  g_sink = r;
  return r;
}

}  // extern "C"
