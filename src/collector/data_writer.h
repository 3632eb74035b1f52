// Lock-free writing of binary records into the experiment's data files. Each file grows in
// kBlockSize blocks that are mmap'ed MAP_SHARED: records reach the page cache as they are
// written, with no system call per record, and survive a SIGKILL of the target. A block
// belongs to one thread (and one signal nesting depth) at a time.
// Async-signal-safe: reserve(), commit(). Not: open_all(), close_all().
#pragma once
#include <stdint.h>

#include "format/clock_compact.h"
#include "format/experiment_format.h"

namespace erkit::collector {

struct ThreadState;

// Opens (creates) every data file of the experiment directory. Returns false on failure.
bool data_files_open(const char* experiment_dir, uint64_t size_limit_bytes);
void data_files_close();
// True once the -L size limit stopped event recording.
bool data_limit_reached();
uint64_t data_bytes_written();

// Reserves `size` bytes (multiple of 8, header word included) for a record of `kind` in the
// file of `data_kind`, on behalf of the calling thread. The returned memory starts with the
// record word marked incomplete. Returns nullptr when recording is impossible (limit reached,
// nesting too deep, out of space); the caller then drops the event.
void* record_reserve(ThreadState* ts, format::DataKind data_kind, uint32_t kind, uint32_t size);
// Publishes a reserved record: stores its final header word with release order.
void record_commit(void* record, uint32_t kind, uint32_t size);
// Releases the writer nesting level taken by record_reserve. Call it once after every
// record_reserve, whatever that returned (after record_commit, or instead of it: an
// uncommitted record stays marked incomplete and readers skip it).
void record_release(ThreadState* ts);

// Writes one clock sample as a compact record (format/clock_compact.h) into the calling
// thread's current profile block at its nesting depth, encoded against the previous compact
// record of that block (a new block starts from zeros). Async-signal-safe. False when the
// sample was dropped (as record_reserve's nullptr); no record_release is needed after it.
bool record_write_clock_compact(ThreadState* ts, const format::ClockFields& f);

}  // namespace erkit::collector

namespace erkit::collector {
// Unmaps the calling thread's partially used blocks (thread exit; not signal-safe).
void data_thread_retire(ThreadState* ts);
}  // namespace erkit::collector
