// I/O-call-heavy workload for the I/O tracer's per-call cost: one unit is 100 000 write(2)s of
// 64 bytes to /dev/null and 100 000 read(2)s of 64 bytes from /dev/zero.
// Usage: iocalls [units]
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char** argv) {
  long units = argc > 1 ? atol(argv[1]) : 10;
  if (units <= 0) return 2;
  int out = open("/dev/null", O_WRONLY), in = open("/dev/zero", O_RDONLY);
  if (out < 0 || in < 0) return 1;
  char buf[64] = {0};
  for (long i = 0; i < units * 100000; ++i) {
    if (write(out, buf, sizeof buf) != sizeof buf) return 1;
    if (read(in, buf, sizeof buf) != sizeof buf) return 1;
  }
  close(out);
  close(in);
  return 0;
}
