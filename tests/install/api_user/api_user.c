/* A program that uses the installed collector API, built against the installed tree through
 * pkg-config and through the CMake package (tests/install/packages_test.sh). It records one
 * sample labelled with its first argument, then works a little. */
#include <collectorAPI.h>
#include <stdio.h>

int main(int argc, char** argv) {
  collector_sample(argc > 1 ? argv[1] : "api_user");
  volatile double x = 0;
  for (long i = 0; i < 20000000; ++i) x += (double)i * 0.5;
  printf("api_user: %s done\n", argc > 1 ? argv[1] : "");
  return 0;
}
