// Test helpers built with -O2 -fomit-frame-pointer (see CMakeLists.txt): deep call chains that
// pass through libc's qsort_r and std::sort comparators, so only CFI can unwind them.
#pragma once

extern "C" {

typedef void (*ChainLeaf)(void* arg);

// Calls `leaf(arg)` from the bottom of a chain of about `depth` frames whose levels rotate
// between plain recursion, a qsort_r comparator and a std::sort lambda. chain_outer is the
// outermost helper frame; tests check every stack reaches it.
int chain_outer(int depth, ChainLeaf leaf, void* arg);

// Burns CPU in qsort_r/std::sort comparators and libm calls until *stop becomes nonzero.
void chain_burn(void* stop);

// The same chain ending in chain_burn (what the SIGPROF tests sample).
int chain_outer_burn(int depth, volatile int* stop);

}  // extern "C"
