// Call stacks are written once to the "stacks" file and referenced by a 64-bit id (a hash of
// the PCs). A fixed lock-free table remembers which ids were written; when it is full a stack
// may be written again, which readers tolerate. Async-signal-safe: stack_intern().
#pragma once
#include <stdint.h>

namespace erkit::collector {

struct ThreadState;

// Returns the id of the stack (leaf first), writing it if it is new. `truncated` appends the
// truncation marker pseudo-PC. Returns format::kNoStackId if the stack could not be stored.
uint64_t stack_intern(ThreadState* ts, const uint64_t* pcs, int n, bool truncated);
// Prepares the table (mmap). Not signal-safe.
bool stack_store_init();
// In a forked child that opens its own experiment: the ids the parent wrote are not in the
// child's stacks file. The next stack_store_init() starts an empty table.
void stack_store_forget();

}  // namespace erkit::collector
