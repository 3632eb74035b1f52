// link: -Wl,--disable-new-dtags -Wl,-rpath,$ORIGIN/origin_sub
/* As clock_origin_runpath, through a DT_RPATH. */
#include <dlfcn.h>
#include <stdio.h>

int origin_rpath_load_leaf(void) {
  void* h = dlopen("libclock_origin_leaf.so", RTLD_NOW);
  if (!h) {
    fprintf(stderr, "rpath: %s\n", dlerror());
    return -1;
  }
  int (*leaf)(void) = (int (*)(void))dlsym(h, "origin_leaf_value");
  return leaf ? leaf() : -2;
}
