static inline __attribute__((always_inline)) long scale_helper(long v) {
  long r = v * 3;
  r ^= r >> 7;
  return r;
}
