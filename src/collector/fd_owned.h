// The collector's own file descriptors, out of the program's way (issue 14, item 6).
//
// Programs take the lowest free numbers, close everything they did not open (daemons,
// closefrom, close_range) and lower RLIMIT_NOFILE for themselves. Every descriptor the
// collector keeps (log, map, data files, the sampler's /proc/self/task files) is therefore
// moved to a number at or above kOwnedFdBase and registered here, with the owner's variable
// and the file's identity:
//
//  * the program's close() of such a number fails with EBADF as it would without erkit, its
//    close_range()/closefrom() skip them, and its dup2()/dup3() onto one first moves the
//    collector's file to another high number (the owner's variable is updated), so the
//    program gets exactly the numbers it would get without erkit;
//  * a number above the program's own lowered RLIMIT_NOFILE does not count against it (the
//    kernel limits the numbers it hands out, not the descriptors already open);
//  * the collector never closes a number that stopped being its own (raw system calls of the
//    program): fd_release() checks the identity first.
//
// Descriptors opened after the program lowered its limit below kOwnedFdBase cannot be placed
// high; fd_own() then refuses them and the caller reads through a short-lived descriptor.
#pragma once

namespace erkit::collector {

inline constexpr int kOwnedFdBase = 900;
inline constexpr int kOwnedFdSpan = 4096;  // registered numbers: [kOwnedFdBase, +kOwnedFdSpan)

// True when a new descriptor can be placed high now (RLIMIT_NOFILE above kOwnedFdBase).
// Async-signal-safe.
bool fd_room_available();
// Moves fd to a free number >= kOwnedFdBase (close-on-exec) and registers it, *slot being the
// variable that holds it (updated if the program's dup2 makes it move; may be null for a
// descriptor nobody else looks up). The original number is closed. Returns the new number;
// when no high number is free (a low RLIMIT_NOFILE), fd itself, unchanged and unregistered:
// the caller keeps it or closes it. Async-signal-safe.
int fd_own(int fd, int* slot);
// Closes one of the collector's descriptors: a registered one only if it still names the file
// registered (a number the program has taken over meanwhile is only forgotten), an
// unregistered one (fd_own could not place it high) as it is. Async-signal-safe.
void fd_release(int fd);
// Unregisters fd without closing it (it is not the collector's any more). Async-signal-safe.
void fd_forget(int fd);
// Whether fd is one of the collector's registered descriptors. Async-signal-safe.
bool fd_owned(int fd);

// For the interposers of the program's calls (fd_interpose.cc, interposers.def):
// before dup2/dup3 onto `to`: moves the collector's descriptor out of the way.
void fd_make_room(int to);
// close_range(lo, hi, flags) over the program's descriptors only. Returns 0 or -1 (errno).
int fd_close_range_skipping_owned(unsigned lo, unsigned hi, int flags);

// For fd_guard: called when a guarded descriptor was moved from `from` to `to`.
void fd_guard_moved(int from, int to);

}  // namespace erkit::collector
