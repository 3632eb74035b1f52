// link: -lpthread
// trace_condvar.c bound to the GLIBC_2.2.5 condition-variable ABI.
#define TRACE_COMPAT_CONDVAR 1
#include "trace_condvar.c"
