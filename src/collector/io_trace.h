// I/O tracing (-i on): the recorders the generated wrappers of the POSIX and stdio I/O functions
// call, and the table from file descriptors to file ids. Every open (and every descriptor first
// seen without one: inherited, stdin/stdout/stderr) gets a new file id, described once in the log
// ("file id=N fd=F path=..."); dup'ed descriptors share their original's id.
// Async-signal-safe: everything except io_trace_init().
#pragma once
#include <stdint.h>
#include <stdio.h>

#include "collector/interposer_support.h"

namespace erkit::collector {

// Starts I/O tracing for a new experiment (also after fork into a descendant experiment:
// descriptors inherited from the parent are described again in the new log). Not signal-safe.
void io_trace_init();

// The file id of fd, assigning one (and logging its path) if it has none yet; 0 for fd < 0.
uint32_t io_file_of(int fd);
// FILE* to descriptor; -1 for nullptr.
int io_fd_of(FILE* f);

// Recorders (after the real call).
void io_opened(const TraceCall& t, int fd, const char* path);   // open*, creat*: fd or -1
void io_fopened(const TraceCall& t, FILE* f, const char* path);  // fopen*, fdopen, freopen
void io_closed(const TraceCall& t, int fd, uint32_t file_id, int rc);
// Read/write/seek/sync/other on fd: bytes moved (reads, writes) or <0 for an error.
void io_event(const TraceCall& t, uint32_t op, int fd, int64_t bytes);
void io_dup(const TraceCall& t, int old_fd, int new_fd);
void io_pipe(const TraceCall& t, const int* fds, int rc);
// Bytes for stdio calls that report items or characters.
inline int64_t io_items(size_t items, size_t size) { return int64_t(items * size); }
int64_t io_strlen(const char* s);

}  // namespace erkit::collector
