// erkit's in-process stack unwinder: follows .eh_frame CFI (no frame pointers needed) through
// every loaded object, PLT stubs and signal frames. Freestanding: no heap, no locks that block,
// no libstdc++ runtime, so the unwind functions may run inside a SIGPROF handler.
//
// Life cycle: call refresh() once at collector start and again after every dlopen/dlclose (from
// a normal context). Handlers then call unwind_from_ucontext()/unwind_from_here() at any time,
// on any thread; they read a consistent snapshot of the loaded objects published by refresh().
// See docs/unwinding.md for the design, the failure modes and the measured cost.
#pragma once
#include <stdint.h>

namespace erkit::unwind {

// The stack being walked: every stack read must lie in [lo, hi). hi == 0 means "unknown": each
// stack page touched is then checked once per unwind with a side-effect-free syscall
// (rt_sigprocmask with an invalid `how` returns EFAULT for unreadable memory), which costs
// ~0.2-0.5 µs per page but cannot fault. The same probing is used for reads outside [lo, hi)
// when the starting stack pointer itself is outside [lo, hi) (e.g. a handler running on a
// sigaltstack, or nonsense bounds).
struct StackBounds {
  uintptr_t lo;
  uintptr_t hi;
};

// Result flags of one unwind, in addition to the frame count.
struct UnwindStatus {
  bool truncated;  // max_frames was reached and the outermost frame was not
  bool failed;     // stopped early: no CFI and no usable frame-pointer chain, bad memory, or loop
};

// Rebuilds the registry of loaded objects (dl_iterate_phdr: address ranges, load bias,
// .eh_frame_hdr search tables) and publishes it atomically; invalidates the row cache.
// NOT async-signal-safe (takes the loader lock): call from a normal context only, after
// dlopen/dlclose. Concurrent calls are serialised. Cost: ~0.3 µs for 8 objects (unwind_bench).
void refresh();

// Unwinds the code interrupted by a signal. `ucontext` is the handler's third argument.
// Writes the interrupted PC first, then return addresses (not adjusted by -1), outermost last.
// Returns the number of PCs written (0 if max_frames <= 0 or nothing could be read).
// *status (may be null) says whether the stack was cut by max_frames or ended on a failure; a
// stack that ends cleanly (the outermost frame's CFI says the return address is undefined, as
// in _start and clone3) has neither flag. ASYNC-SIGNAL-SAFE; preserves errno.
int unwind_from_ucontext(const void* ucontext, StackBounds b, uint64_t* pcs, int max_frames,
                         UnwindStatus* status);

// Unwinds the calling thread's own stack (tracers: interposed malloc, lock wrappers; also
// usable inside a handler, where it walks the handler's frames, the kernel's signal frame and
// then the interrupted code). pcs[0] is the return address into the caller of
// unwind_from_here() when skip == 0; each unit of `skip` drops one more frame.
// ASYNC-SIGNAL-SAFE; preserves errno.
int unwind_from_here(int skip, StackBounds b, uint64_t* pcs, int max_frames,
                     UnwindStatus* status);

// True if the code interrupted by a signal (`ucontext`, the handler's third argument) was in a
// system call: the PC follows (signal delivered as the call returned) or sits on (call to be
// restarted) the system-call instruction (x86-64 `syscall`, aarch64 `svc #0`) of a registered
// object. The kernel delivers a CPU-timer signal that expired in kernel mode on the way back to
// user mode, so this tells a sample taken during a system call from one taken in user code.
// Only bytes of registered, readable segments are read. ASYNC-SIGNAL-SAFE.
bool interrupted_in_syscall(const void* ucontext);

// Number of objects in the published registry (tests, collector diagnostics).
// ASYNC-SIGNAL-SAFE.
int registered_object_count();

// Drops every cached CFI row (benchmarks measure the cold path with it). ASYNC-SIGNAL-SAFE.
void flush_cache();

}  // namespace erkit::unwind
