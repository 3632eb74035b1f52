#include "rec_helper.h"
long add1(long x) { return x + 1; }
float A[1024], B[1024];
void vec_loop(void) { int n = 1024; float *a = A, *b = B;
  for (int i = 0; i < n; i++)
    a[i] = b[i] * 2.0f + 1.0f;
}
long use_helper(long n) {
  long s = 0;
  for (long i = 0; i < n; i++) s += scale_helper(i) + add1(i);
  return s;
}
int main(int argc, char** argv) { float a[100], b[100]; vec_loop(); return (int)use_helper(argc*1000); }
