// link: -Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/origin_sub
/* dlopens its sibling libclock_origin_leaf.so by bare name: found only through this
   library's DT_RUNPATH $ORIGIN/origin_sub (the test places the files). */
#include <dlfcn.h>
#include <stdio.h>

int origin_load_leaf(void) {
  void* h = dlopen("libclock_origin_leaf.so", RTLD_NOW);
  if (!h) {
    fprintf(stderr, "runpath: %s\n", dlerror());
    return -1;
  }
  int (*leaf)(void) = (int (*)(void))dlsym(h, "origin_leaf_value");
  return leaf ? leaf() : -2;
}
