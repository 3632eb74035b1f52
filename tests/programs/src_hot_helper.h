/* Header code inlined into src_hot.c's mix(): its lines must show under this file. */
static inline __attribute__((always_inline)) unsigned long scramble(unsigned long v) {
  v ^= v >> 13;
  v *= 0x9E3779B97F4A7C15UL;
  v ^= v >> 29;
  return v;
}
