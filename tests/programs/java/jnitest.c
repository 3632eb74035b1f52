// The native side of Jni.java.
#include <jni.h>

__attribute__((noinline)) long jni_spin(long n) {
  unsigned long x = 88172645463325252UL;
  for (long i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    __asm__ volatile("" : "+r"(x));
  }
  return (long)x;
}

JNIEXPORT jlong JNICALL Java_Jni_work(JNIEnv* env, jclass cls, jlong n) {
  (void)env;
  (void)cls;
  return jni_spin(n) + 1;
}
