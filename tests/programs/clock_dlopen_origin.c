/* dlopens the library named by argv[1] (by path) and calls its function argv[2], which dlopens
   a sibling library by bare name through the library's own RPATH/RUNPATH $ORIGIN. Prints the
   value it got (42) or the error. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  void* h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    fprintf(stderr, "dlopen %s: %s\n", argv[1], dlerror());
    return 3;
  }
  int (*load)(void) = (int (*)(void))dlsym(h, argv[2]);
  if (!load) return 4;
  int v = load();
  printf("%d\n", v);
  return v == 42 ? 0 : 1;
}
