// LLVM libomp: the outlined function of each parallel region and the entry of each explicit task,
// which OMPT does not give a tool.
// __kmpc_fork_call(loc, argc, microtask, ...) is variadic, so it is interposed by a few lines of
// assembly that keep every argument register, note the microtask (the outlined function) in the
// calling thread's state, and jump to the real function: no frame of the collector stays on the
// stack, and the runtime sees its caller's return address as before. OMPT's parallel_begin then
// puts the outlined function first in the fork stack (openmp_ompt.cc), as GOMP_parallel does
// with its argument, so the expert view names the region's function ([.omp_outlined.]) even
// where the outlined function tail-called the program's code. x86-64 only (elsewhere the expert
// view names it where it is on the stack).
#include <stddef.h>
#include <stdint.h>

#include "collector/openmp_state.h"
#include "collector/real_functions.h"
#include "collector/runtime.h"
#include "collector/thread_state.h"

namespace erkit::collector {
namespace {
void* g_real_fork_call;  // atomic
}  // namespace
}  // namespace erkit::collector

// Called by the assembly below with the microtask; returns the real __kmpc_fork_call.
extern "C" __attribute__((visibility("hidden"), used)) void* erkit_kmpc_fork_note(void* microtask) {
  using namespace erkit::collector;
  void* real = __atomic_load_n(&g_real_fork_call, __ATOMIC_RELAXED);
  if (!real) {
    real = reinterpret_cast<void*>(next_symbol("__kmpc_fork_call", nullptr));
    __atomic_store_n(&g_real_fork_call, real, __ATOMIC_RELAXED);
  }
  if (g_rt.active && omp_enabled()) {
    ThreadState* ts = current_thread_if_any();
    if (ts) __atomic_store_n(&ts->omp_microtask, reinterpret_cast<uint64_t>(microtask), __ATOMIC_RELAXED);
  }
  return real;
}

// __kmpc_omp_task_alloc(loc, gtid, flags, sizeof_kmp_task_t, sizeof_shareds, task_entry): every
// explicit task the program creates is allocated here before libomp tells OMPT's task_create
// (in __kmpc_omp_task, or __kmpc_taskloop for the copies of a taskloop's task, which share its
// entry). The entry is noted in the thread's state, and task_create puts it first in the task's
// creation stack, as GOMP_task does with its function: the analysis then knows which task a
// sample in .omp_task_entry..N belongs to even where the sample carries no creation stack.
namespace erkit::collector {
namespace {
using TaskAllocFn = void* (*)(void*, int32_t, int32_t, size_t, size_t, void*);
TaskAllocFn g_real_task_alloc;  // atomic
}  // namespace
}  // namespace erkit::collector

extern "C" __attribute__((visibility("default"))) void* __kmpc_omp_task_alloc(void* loc, int32_t gtid, int32_t flags,
                                                                              size_t task_size, size_t shareds_size,
                                                                              void* task_entry) {
  using namespace erkit::collector;
  TaskAllocFn real = __atomic_load_n(&g_real_task_alloc, __ATOMIC_RELAXED);
  if (!real) {
    real = reinterpret_cast<TaskAllocFn>(next_symbol("__kmpc_omp_task_alloc", nullptr));
    __atomic_store_n(&g_real_task_alloc, real, __ATOMIC_RELAXED);
  }
  if (g_rt.active && omp_enabled()) {
    ThreadState* ts = current_thread_if_any();
    if (ts) __atomic_store_n(&ts->omp_task_entry, reinterpret_cast<uint64_t>(task_entry), __ATOMIC_RELAXED);
  }
  return real ? real(loc, gtid, flags, task_size, shareds_size, task_entry) : nullptr;
}

#if defined(__x86_64__)
// rdi loc, esi argc, rdx microtask, rcx r8 r9 and the stack: the region's shared arguments; al is
// 0 (no vector registers in a variadic call of pointers). Seven pushes keep the stack 16-aligned.
__asm__(
    ".text\n"
    ".globl __kmpc_fork_call\n"
    ".type __kmpc_fork_call,@function\n"
    "__kmpc_fork_call:\n"
    "  .cfi_startproc\n"
    "  push %rdi\n  .cfi_adjust_cfa_offset 8\n"
    "  push %rsi\n  .cfi_adjust_cfa_offset 8\n"
    "  push %rdx\n  .cfi_adjust_cfa_offset 8\n"
    "  push %rcx\n  .cfi_adjust_cfa_offset 8\n"
    "  push %r8\n  .cfi_adjust_cfa_offset 8\n"
    "  push %r9\n  .cfi_adjust_cfa_offset 8\n"
    "  push %rax\n  .cfi_adjust_cfa_offset 8\n"
    "  mov %rdx, %rdi\n"
    "  call erkit_kmpc_fork_note\n"
    "  mov %rax, %r11\n"
    "  pop %rax\n  .cfi_adjust_cfa_offset -8\n"
    "  pop %r9\n  .cfi_adjust_cfa_offset -8\n"
    "  pop %r8\n  .cfi_adjust_cfa_offset -8\n"
    "  pop %rcx\n  .cfi_adjust_cfa_offset -8\n"
    "  pop %rdx\n  .cfi_adjust_cfa_offset -8\n"
    "  pop %rsi\n  .cfi_adjust_cfa_offset -8\n"
    "  pop %rdi\n  .cfi_adjust_cfa_offset -8\n"
    "  jmp *%r11\n"
    "  .cfi_endproc\n"
    ".size __kmpc_fork_call, .-__kmpc_fork_call\n");
#endif
