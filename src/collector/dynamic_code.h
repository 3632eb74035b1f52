// Code the program generates at run time: functions described with collector_func_load (their
// code is copied to "dyntext" so they can be disassembled later, their names go to the map),
// and JIT symbol files (/tmp/perf-<pid>.map, the perf convention) copied into the experiment at
// the end. Not signal-safe.
#pragma once
#include <stdint.h>

namespace erkit::collector {

struct DynLine {
  unsigned offset;
  unsigned lineno;
};

void dynamic_function_load(const char* name, const char* alias, const char* source, const void* vaddr, int size,
                           int nlines, const DynLine* lines);
void dynamic_function_unload(const void* vaddr);
// End of the process image (exit or exec): copies the JIT symbol file if there is one.
void dynamic_code_fini();

}  // namespace erkit::collector
