/* compare_build with two() doing as much work as one() (see parts/compare_build.h). */
#define TWO_TIMES 1
#include "parts/compare_build.h"
