/* Dataspace test (collect -h +page-faults,1; issue 19): local arrays of callers, first-touched
 * by a callee they are passed to. far_local's array is touched two frames down (through
 * pass_on), near_local's one frame down, so their page faults happen in touch() at addresses in
 * a caller's frame. Each page is checked with mincore() before it is written, so the program
 * prints exactly how many first touches each array took: far=N near=N. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096
#define FAR_PAGES 12
#define NEAR_PAGES 40

static volatile int g_calls;

static int resident(volatile char* p) {
  unsigned char v = 0;
  char* page = (char*)((unsigned long)p & ~(unsigned long)(PAGE - 1));
  if (mincore(page, PAGE, &v) != 0) return 1;
  return v & 1;
}

/* Writes one byte in each page of [p, p + n), from the top down (the stack grows down: each
 * page is then the next one the kernel maps): the faults it takes. */
__attribute__((noinline)) int touch(volatile char* p, size_t n) {
  int faults = 0;
  for (size_t off = n; off >= PAGE; off -= PAGE) {
    faults += !resident(p + off - PAGE);
    p[off - PAGE] = 1;
  }
  return faults;
}

/* Not a tail call: its frame stays between touch() and far_local(). */
__attribute__((noinline)) int pass_on(volatile char* p, size_t n) {
  int f = touch(p, n);
  g_calls++;
  return f;
}

__attribute__((noinline)) int far_local(void) {
  volatile char far_buf[FAR_PAGES * PAGE];
  int f = pass_on(far_buf, sizeof far_buf);
  return f + far_buf[0] - 1;
}

__attribute__((noinline)) int near_local(void) {
  volatile char near_buf[NEAR_PAGES * PAGE];
  int f = touch(near_buf, sizeof near_buf);
  return f + near_buf[0] - 1;
}

int main(void) {
  int ff = far_local();
  int fn = near_local();
  printf("far=%d near=%d\n", ff, fn);
  return 0;
}
