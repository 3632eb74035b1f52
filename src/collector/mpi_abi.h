// The interface between libcollector.so and libcollector-mpi.so (the MPI wrappers that
// collect -m on preloads beside it). The wrapper library finds these functions with dlsym at
// run time, so neither library links against the other or against any MPI.
#pragma once
#include <stdint.h>

extern "C" {

// One completed MPI call, as the wrapper saw it.
struct ErkitMpiCall {
  uint64_t start_ns;     // erkit_mpi_now() before the real call
  uint64_t end_ns;       // erkit_mpi_now() after it
  const void* frame;     // the wrapper's frame (its frame pointer): the stack is unwound from
                         // the wrapper's caller, whose registers the frame holds
  const void* function;  // the wrapper's entry address: the stack's leaf frame (MPI_Send)
  const void* caller;    // the wrapper's return address (calls from collector code are dropped)
  uint32_t fn;           // format::MpiFunction
  int32_t comm_size;
  int32_t peer, tag;
  uint32_t sends, receives;
  uint64_t bytes_sent, bytes_received;
};

// Version of this interface: the wrapper library refuses to record through another.
#define ERKIT_MPI_ABI_VERSION 1
typedef int (*ErkitMpiAbiVersionFn)(void);
// Nanoseconds since the experiment started (async-signal-safe).
typedef uint64_t (*ErkitMpiNowFn)(void);
// Writes the call's record into the experiment's mpitrace file (async-signal-safe).
typedef void (*ErkitMpiRecordFn)(const ErkitMpiCall*);
// Logs this process's rank in MPI_COMM_WORLD and the world's size (after MPI_Init).
typedef void (*ErkitMpiRankFn)(int rank, int size);
}
