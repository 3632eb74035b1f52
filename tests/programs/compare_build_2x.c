/* compare_build with two() doing twice the work of one() (see parts/compare_build.h). */
#define TWO_TIMES 2
#include "parts/compare_build.h"
