// Call stacks 20-40 frames deep through libc callbacks (qsort, bsearch), code compiled into
// libstdc++.so (operator<< on an ostream calls the stream buffer's virtual xsputn through
// std::__ostream_insert) and C++ (std::sort with a lambda), built -O2 without frame pointers, on the main thread and on a worker thread
// (unwind_thread_root). Nearly all the time is spent at the bottom. argv: [cpu-ms-per-thread]
// On aarch64 every function here signs its return address (pointer authentication, pac-ret,
// also in leaves): the unwinder must strip the signature (the aarch64 tests, docs/platforms.md).
// main then reports whether the CPU really signs them (qemu's default CPU does).
#if defined(__aarch64__)
#pragma GCC target("branch-protection=pac-ret+leaf")
#endif
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include <cstdio>

#include <algorithm>
#include <ostream>
#include <streambuf>
#include <vector>

#define NOINLINE __attribute__((noinline))
#define KEEP() __asm__ volatile("" ::: "memory")

static long g_ms = 300;
static volatile double g_sink;

static long long cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

extern "C" NOINLINE bool spin_leaf(int a, int b) {
  double x = a;
  for (int i = 0; i < 400; i++) x = x * 1.0000001 + b;
  g_sink = x;
  return a < b;
}

extern "C" NOINLINE int chain_c(int n) {
  if (n > 0) {
    int r = chain_c(n - 1);
    KEEP();
    return r + 1;
  }
  // Writing to this stream runs libstdc++.so's operator<< and __ostream_insert, which call the
  // buffer's xsputn: the sort below runs with library frames on the stack.
  struct SortingBuffer : std::streambuf {
    int first = 0;
    std::streamsize xsputn(const char*, std::streamsize n) override {
      std::vector<int> v(24);
      for (int i = 0; i < 24; i++) v[i] = (i * 7919) % 24;
      std::sort(v.begin(), v.end(), [](int a, int b) { return spin_leaf(a, b); });
      first = v[0];
      return n;
    }
  };
  thread_local SortingBuffer buffer;
  thread_local std::ostream out(&buffer);
  out << "sort";
  return buffer.first;
}

static int g_keys[16] = {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31};

extern "C" NOINLINE int cmp_b(const void* a, const void* b) {
  chain_c(5);
  return *static_cast<const int*>(a) - *static_cast<const int*>(b);
}

extern "C" NOINLINE int chain_b(int n) {
  if (n > 0) {
    int r = chain_b(n - 1);
    KEEP();
    return r + 1;
  }
  int key = 17;
  void* hit = bsearch(&key, g_keys, 16, sizeof(int), cmp_b);
  return hit != nullptr;
}

extern "C" NOINLINE int cmp_a(const void* a, const void* b) {
  chain_b(4);
  return *static_cast<const int*>(a) - *static_cast<const int*>(b);
}

extern "C" NOINLINE int chain_a(int n) {
  if (n > 0) {
    int r = chain_a(n - 1);
    KEEP();
    return r + 1;
  }
  int arr[6] = {5, 3, 1, 4, 2, 0};
  qsort(arr, 6, sizeof(int), cmp_a);
  return arr[0];
}

extern "C" NOINLINE void run_chains() {
  long long end = cpu_ns() + g_ms * 1000000LL;
  while (cpu_ns() < end) chain_a(6);
  KEEP();
}

extern "C" NOINLINE void* unwind_thread_root(void*) {
  run_chains();
  KEEP();
  return nullptr;
}

#if defined(__aarch64__)
// Whether the CPU really signs pointers with the A key (what paciasp does to every return
// address here) or treats the PAC hints as no-ops: pacia1716 on a code address with a few
// modifiers (a 7-bit signature can be zero for one of them by chance, not for all).
extern "C" NOINLINE bool return_addresses_are_signed() {
  const unsigned long long ptr = reinterpret_cast<unsigned long long>(&run_chains);
  for (unsigned long long m = 1; m <= 4; ++m) {
    register unsigned long long x17 asm("x17") = ptr;
    register unsigned long long x16 asm("x16") = m;
    asm volatile("hint #8" : "+r"(x17) : "r"(x16));  // pacia1716: sign x17 with modifier x16
    if (x17 != ptr) return true;
  }
  return false;
}
#endif

int main(int argc, char** argv) {
  if (argc > 1) g_ms = atol(argv[1]);
#if defined(__aarch64__)
  std::fputs(return_addresses_are_signed() ? "return addresses: pac-signed\n" : "return addresses: plain\n", stdout);
  std::fflush(stdout);
#endif
  pthread_t t;
  pthread_create(&t, nullptr, unwind_thread_root, nullptr);
  run_chains();
  pthread_join(t, nullptr);
  return 0;
}
