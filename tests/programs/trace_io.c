// I/O tracing ground truth, exact bytes per file and per call site (see trace_io_test.cc):
//   io_a.dat  writes 6 calls 3900 bytes (write 3x1000, writev 300, pwrite 500, write 100 through
//             a dup'ed descriptor); reads 11 calls 4000 bytes (read until EOF in 512-byte
//             chunks: 8 + 1 empty, pread 100, readv 100); other 7 (2 open, 3 close, dup, lseek)
//   io_b.txt  stdio: writes 20 calls 159 bytes (fputs 10x6, fprintf 4x6, fwrite 70, fputc 5x1);
//             reads 16 calls 159 bytes (fgets: 14 lines, the 75-byte tail, the final NULL);
//             other 4 (2 fopen, 2 fclose)
//   a pipe    1 write and 1 read of 1234 bytes; other 3 (pipe, 2 close)
//   stdout    puts 8 bytes, fputs 2 bytes
// Run in an empty directory; creates io_a.dat and io_b.txt there.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static char g_buf[4096];
volatile int g_three = 3;  // one call site for the loop (no unrolling)

__attribute__((noinline)) static void write_a(int fd) {
  for (int i = 0; i < g_three; ++i)
    if (write(fd, g_buf, 1000) != 1000) _exit(2);
}

__attribute__((noinline)) static void vector_and_positional(int fd) {
  struct iovec v[2] = {{g_buf, 100}, {g_buf, 200}};
  if (writev(fd, v, 2) != 300) _exit(2);
  if (pwrite(fd, g_buf, 500, 3300) != 500) _exit(2);
}

__attribute__((noinline)) static void through_dup(int fd) {
  int d = dup(fd);
  if (write(d, g_buf, 100) != 100) _exit(2);
  close(d);
}

__attribute__((noinline)) static void read_a(void) {
  int fd = open("io_a.dat", O_RDONLY);
  ssize_t n;
  while ((n = read(fd, g_buf, 512)) > 0) {
  }
  if (pread(fd, g_buf, 100, 0) != 100) _exit(3);
  lseek(fd, 0, SEEK_SET);
  struct iovec v[2] = {{g_buf, 50}, {g_buf + 50, 50}};
  if (readv(fd, v, 2) != 100) _exit(3);
  close(fd);
}

__attribute__((noinline)) static void write_b(void) {
  FILE* f = fopen("io_b.txt", "w");
  for (int i = 0; i < 10; ++i) fputs("hello\n", f);
  for (int i = 0; i < 4; ++i) fprintf(f, "%d\n", 12345);
  memset(g_buf, 'x', 70);
  fwrite(g_buf, 10, 7, f);
  for (int i = 0; i < 5; ++i) fputc('c', f);
  fclose(f);
}

__attribute__((noinline)) static void read_b(void) {
  FILE* f = fopen("io_b.txt", "r");
  char line[128];
  while (fgets(line, sizeof line, f)) {
  }
  fclose(f);
}

__attribute__((noinline)) static void through_pipe(void) {
  int p[2];
  if (pipe(p) != 0) _exit(4);
  if (write(p[1], g_buf, 1234) != 1234) _exit(4);
  if (read(p[0], g_buf, sizeof g_buf) != 1234) _exit(4);
  close(p[0]);
  close(p[1]);
}

int main(void) {
  int fd = open("io_a.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return 1;
  write_a(fd);
  vector_and_positional(fd);
  through_dup(fd);
  close(fd);
  read_a();
  write_b();
  read_b();
  through_pipe();
  puts("io-done");
  fputs("x\n", stdout);
  return 0;
}
