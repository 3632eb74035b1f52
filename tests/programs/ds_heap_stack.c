/* Dataspace test (collect -H on -h +page-faults,1): first-touches two heap blocks from two
 * allocation sites (make_a, make_b) and a local array on the stack (stack_local). Each page is
 * checked with mincore() before it is written, so the program prints exactly how many first
 * touches (page faults) each object took: a=N b=N local=N. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096
#define A_PAGES 48
#define B_PAGES 16
#define LOCAL_PAGES 24

static int resident(volatile char* p) {
  unsigned char v = 0;
  char* page = (char*)((unsigned long)p & ~(unsigned long)(PAGE - 1));
  if (mincore(page, PAGE, &v) != 0) return 1;
  return v & 1;
}

/* Writes one byte in each page of [p, p + n): the faults it takes. */
__attribute__((noinline)) int touch(volatile char* p, size_t n) {
  int faults = 0;
  for (size_t off = 0; off < n; off += PAGE) {
    faults += !resident(p + off);
    p[off] = 1;
  }
  return faults;
}

/* Not tail calls: the allocator's caller is make_a / make_b. */
__attribute__((noinline)) char* make_a(void) {
  char* p = malloc(A_PAGES * PAGE);
  if (!p) abort();
  return p;
}
__attribute__((noinline)) char* make_b(void) {
  char* p = malloc(B_PAGES * PAGE);
  if (!p) abort();
  return p;
}

/* The local is written in this function itself, so the fault's frame base is this frame's. */
__attribute__((noinline)) int stack_local(void) {
  volatile char buf[LOCAL_PAGES * PAGE];
  int faults = 0;
  for (size_t off = 0; off < sizeof buf; off += PAGE) {
    faults += !resident(buf + off);
    buf[off] = 1;
  }
  return faults + buf[0] - 1;
}

int main(void) {
  char* a = make_a();
  char* b = make_b();
  int fa = touch(a, A_PAGES * PAGE);
  int fb = touch(b, B_PAGES * PAGE);
  int fl = stack_local();
  printf("a=%d b=%d local=%d\n", fa, fb, fl);
  free(b);
  free(a);
  return 0;
}
