/* Dataspace test (collect -h +page-faults,1): first-touches a global array of structs of known
 * layout. Each rec_t spans two 4 KiB pages: `head` at offset 0 (first page), `mid` at 4096
 * (second page). The program writes head of all NRECS records (NRECS faults on member head),
 * then mid of the first NMID records (NMID faults on member mid): NRECS + NMID page faults on
 * g_recs, every one on a page not touched before. Prints those counts for the test. */
#include <stdio.h>

#define NRECS 64
#define NMID 24

typedef struct {
  long head;          /* +0 */
  char pad1[4088];    /* +8 */
  long mid;           /* +4096 */
  char pad2[4088];    /* +4104 */
} rec_t;

rec_t g_recs[NRECS] __attribute__((aligned(4096)));

__attribute__((noinline)) void touch_heads(volatile rec_t* r, int n) {
  for (int i = 0; i < n; ++i) r[i].head = i + 1;
}

__attribute__((noinline)) void touch_mids(volatile rec_t* r, int n) {
  for (int i = 0; i < n; ++i) r[i].mid = i + 1;
}

int main(void) {
  touch_heads(g_recs, NRECS);
  touch_mids(g_recs, NMID);
  long s = 0;
  for (int i = 0; i < NRECS; ++i) s += g_recs[i].head;
  for (int i = 0; i < NMID; ++i) s += g_recs[i].mid; /* only pages already touched */
  printf("heads=%d mids=%d sum=%ld base=%p\n", NRECS, NMID, s, (void*)g_recs);
  return 0;
}
