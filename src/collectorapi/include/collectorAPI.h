/* The collector API (seed-spec §4.1): control data collection from inside a program.
 *
 * Link with -lcollectorAPI. Every function works whether or not the program runs under
 * collect: without an active experiment each call does nothing. Calling these functions does
 * not start collection; run the program with collect for that. Never link libcollector.so.
 *
 * Process-wide calls (sample, pause, resume, terminate) are meant to be made from one thread.
 * Per-thread control: either one thread controls all threads, or each thread only itself. */
#ifndef ERKIT_COLLECTOR_API_H
#define ERKIT_COLLECTOR_API_H

#include <pthread.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One entry of a dynamic function's line table: the instructions from `offset` (bytes from
 * the function's start) up to the next entry's offset belong to source line `lineno`. */
typedef struct Lineno {
  unsigned int offset;
  unsigned int lineno;
} Lineno;

/* Records a sample labelled `name` (may be NULL). Concurrent calls from several threads
 * record one sample while one is being written. */
void collector_sample(const char* name);
/* Stops writing event data (samples continue); ignored when already paused. Overrides
 * collector_thread_resume. */
void collector_pause(void);
/* Resumes after collector_pause; ignored when recording. */
void collector_resume(void);
/* Stops event data from thread `t` even while recording; ignored when already off for it. */
void collector_thread_pause(pthread_t t);
/* Re-enables thread `t`: its data are written when both it and the process record. */
void collector_thread_resume(pthread_t t);
/* Ends the experiment; the program goes on running. */
void collector_terminate_expt(void);
/* Describes a function the program generated at run time: `name` (no blanks or quotes),
 * `alias` (free text, may be NULL), `sourcename` (its source file, may be NULL), its code at
 * `vaddr` (`size` bytes, copied into the experiment so it can be disassembled), and a line
 * table of `lntsize` entries (offsets ascending; NULL and 0 for none). */
void collector_func_load(const char* name, const char* alias, const char* sourcename, void* vaddr, int size,
                         int lntsize, const Lineno* lntable);
/* The dynamic function at `vaddr` was unloaded (its address range may be reused). */
void collector_func_unload(void* vaddr);

/* Fortran (gfortran naming, hidden string length last): call collector_sample("name"), etc. */
void collector_sample_(const char* name, long name_len);
void collector_pause_(void);
void collector_resume_(void);
void collector_terminate_expt_(void);

#ifdef __cplusplus
}
#endif

#endif /* ERKIT_COLLECTOR_API_H */
