// Cross-built for aarch64 (clang + lld, no libc needed): a shared object whose calls
// to undefined functions go through .plt.
extern int ext_one(int);
extern int ext_two(int);
int call_both(int x) {
  return ext_one(x) + ext_two(x + 1);  // LINE:call_both
}
