// The collector's own descriptors (log, map, data files) in a program that closes every
// descriptor it did not open (closefrom, close_range, daemons) and then reuses the numbers:
// without a check the collector wrote its log lines and 64 KiB data blocks into the program's
// own files (issue 11). Each guarded descriptor is moved to a high number and remembered with
// its file's identity; before the collector writes through one, fd_guard_resolve() checks that
// the number still names that file, and if not, reopens the file by path on the same number
// (when the program closed it) or refuses the write (when the program reuses the number).
#pragma once

namespace erkit::collector {

// Guards the descriptor held in *slot (which must stay valid: a global), moving it to a high
// number (*slot is updated). The owner closes it by setting *slot to -1 (or to another value):
// the guard then forgets it. Not signal-safe.
void fd_guard_add(int* slot, const char* path, int open_flags);
// fd if it may be written (reopened on the same number if need be), or -1 when the file cannot
// be reached (the caller drops what it wanted to write).
// Descriptors that are not guarded are returned unchanged. Async-signal-safe; errno preserved.
int fd_guard_resolve(int fd);

}  // namespace erkit::collector
