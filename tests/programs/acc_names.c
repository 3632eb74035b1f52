/* Issue 15 item 2: names users recognise. scan_buffer() counts a byte with SSE2 intrinsics
   (_mm_cmpeq_epi8, _mm_movemask_epi8: inlined from emmintrin.h) inside count_in_block(), an
   always-inline helper; read_input() calls glibc's read(). Shown by default: read and
   scan_buffer; count_in_block only with inline_frames on; the intrinsics never.
   argv: [cpu-ms] */
#include <emmintrin.h>
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

// read() fills 1 MiB (kernel time, a large share of the run, so read always holds samples);
// the scan looks at the first 64 KiB.
static char g_buf[1 << 20];
enum { kScanBytes = 1 << 16 };
static volatile long g_sink;

static inline __attribute__((always_inline)) int count_in_block(const char* p, char c) {
  __m128i v = _mm_loadu_si128((const __m128i*)p);
  __m128i eq = _mm_cmpeq_epi8(v, _mm_set1_epi8(c));
  int m = _mm_movemask_epi8(eq);
  return (m & 0xff) + (m >> 8);
}

__attribute__((noinline)) long scan_buffer(const char* buf, long n, char c) {
  long total = 0;
  for (long i = 0; i + 16 <= n; i += 16) total += count_in_block(buf + i, c);
  return total;
}

__attribute__((noinline)) long read_input(int fd) {
  long n = read(fd, g_buf, sizeof g_buf);
  __asm__ volatile("" ::: "memory");
  return n;
}

static long long cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char** argv) {
  long ms = argc > 1 ? atol(argv[1]) : 400;
  int fd = open("/dev/zero", O_RDONLY);
  long long end = cpu_ns() + ms * 1000000LL;
  long total = 0;
  while (cpu_ns() < end) {
    long n = read_input(fd);
    for (int r = 0; r < 8; r++) total += scan_buffer(g_buf, n < kScanBytes ? n : kScanBytes, (char)r);
  }
  g_sink = total;
  close(fd);
  return 0;
}
