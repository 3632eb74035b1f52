// Following descendant processes (collect -F, seed-spec §5.3). Every fork, vfork (turned into
// fork, as Solaris did: collector code must not run in a child that shares its parent's
// memory), clone without CLONE_VM, exec*, posix_spawn*, and with -F all system/popen, is
// counted per process image (failed calls too) and named by lineage: _f<N> fork, _x<N> exec,
// _c<N> spawned/shell children, cumulative (_f2_x1_c1). Followed descendants record into
// founder/<lineage>.er, all flat in the founder's directory; -F =regex selects descendants by
// program name or lineage, the others stay dormant (no experiment, lineage kept).
// The interposers are in descendants.cc (fork, vfork, clone, exec*) and
// spawn_interpose.cc (posix_spawn*, system, popen/pclose). Not signal-safe.
#pragma once
#include <sys/types.h>

#include "collector/runtime.h"

namespace erkit::collector {

enum class DescKind { kFork, kExec, kSpawn, kShell };

struct DescendantPlan {
  bool follow = false;    // part of the followed family (false: the child gets a clean env)
  bool selected = false;  // records an experiment (false: dormant)
  int index = 0;          // N in _fN/_xN/_cN
  char lineage[kLineageMax] = {};
  int parent_pid = 0;     // the process that starts it, and its lineage
  char parent_lineage[kLineageMax] = {};
};

// Called at init (after the configuration is read) and in the child of every fork.
void descendants_init();
void descendants_after_fork_child();

// Counts the call and decides how its descendant is handled. `name` is the program name the
// regex is matched against (with the lineage), `detail` another candidate (a shell command).
void plan_descendant(DescKind k, const char* name, const char* detail, DescendantPlan* p);
// Creates founder/<lineage>.er with its log header (settings, origin). `argv` may be null
// (fork: the arguments are this process's own). Returns false if it could not be created.
bool create_descendant_experiment(const DescendantPlan& p, const char* kind, const char* target,
                                  char* const argv[]);
// Writes a "descendant_not_recorded" warning to `log_fd` (the parent's log): the descendant
// was followed but could not create its experiment (errno `err`).
void warn_descendant_not_recorded(int log_fd, const DescendantPlan& p, const char* target, int err);
// Appends an event to the descendant's own log (e.g. exec_failed).
void descendant_log_event(const DescendantPlan& p, const char* event, int err);
// Records the descendant in this process's log. pid 0: not known; err != 0: the call failed.
void log_descendant(const DescendantPlan& p, const char* kind, pid_t pid, int err, const char* target);

}  // namespace erkit::collector
