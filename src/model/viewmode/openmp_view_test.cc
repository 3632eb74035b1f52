// The OpenMP stack transformation on hand-made machine stacks (the end-to-end tests in
// tests/e2e/openmp_test.cc run it on real libgomp and libomp programs).
#include "model/viewmode/openmp_view.h"

#include <gtest/gtest.h>

#include "format/experiment_format.h"

namespace erkit::model::viewmode {
namespace {

class OpenMpViewTest : public ::testing::Test {
 protected:
  OpenMpViewTest() : resolver_(funcs_, cache_), view_(funcs_, resolver_) {
    exe_ = funcs_.intern_object("/tmp/prog", "");
    gomp_ = funcs_.intern_object("/usr/lib/x86_64-linux-gnu/libgomp.so.1", "");
    libc_ = funcs_.intern_object("/usr/lib/x86_64-linux-gnu/libc.so.6", "");
    omp_ = funcs_.intern_object("/usr/lib/llvm-14/lib/libomp.so.5", "");
  }
  FuncId fn(const std::string& name, ObjId obj) {
    FunctionEntry e;
    e.name = e.short_name = name;
    e.object = obj;
    e.addr = next_addr_ += 0x100;
    e.size = 0x100;
    return funcs_.intern(e);
  }
  ResolvedStack stack(std::initializer_list<FuncId> fs) {
    ResolvedStack r;
    for (FuncId f : fs) r.frames.push_back({f, uint32_t(f), 0}), r.funcs.push_back(f);  // pc: distinct per function
    return r;
  }
  std::vector<std::string> names(const ResolvedStack& r) {
    std::vector<std::string> out;
    for (const auto& f : r.frames) out.push_back(funcs_.at(f.func).name);
    return out;
  }
  FunctionTable funcs_;
  symbols::SymbolCache cache_;
  StackResolver resolver_;
  OpenMpView view_;
  ObjId exe_, gomp_, libc_, omp_;
  uint64_t next_addr_ = 0x1000;
};

TEST_F(OpenMpViewTest, WorkerReRootedUnderForkPoint) {
  FuncId work = fn("work", exe_), outlined = fn("foo._omp_fn.0", exe_), foo = fn("foo", exe_),
         main = fn("main", exe_), start = fn("_start", exe_), gstart = fn("<static>@0x1cbbc", gomp_),
         thread = fn("start_thread", libc_), clone = fn("clone3", libc_), parallel = fn("GOMP_parallel", gomp_);
  ResolvedStack worker = stack({work, outlined, gstart, thread, clone});
  ResolvedStack fork = stack({parallel, foo, main, start});
  EXPECT_EQ(view_.effective_state(worker, format::kOmpWork), format::kOmpWork);
  EXPECT_EQ(names(view_.transform(worker, format::kOmpWork, &fork, ViewMode::kUser)),
            (std::vector<std::string>{"work", "foo -- OMP parallel region", "foo", "main", "_start"}));
  EXPECT_EQ(names(view_.transform(worker, format::kOmpWork, &fork, ViewMode::kExpert)),
            (std::vector<std::string>{"work", "foo -- OMP parallel region [foo._omp_fn.0]", "foo", "main", "_start"}));
  // The master: the same, whatever the runtime frames above the outlined function.
  ResolvedStack master = stack({work, outlined, parallel, foo, main, start});
  EXPECT_EQ(names(view_.transform(master, format::kOmpWork, &fork, ViewMode::kUser)),
            (std::vector<std::string>{"work", "foo -- OMP parallel region", "foo", "main", "_start"}));
  // A worker waiting in the runtime after its outlined function returned.
  FuncId wait = fn("<static>@0x1d000", gomp_);
  ResolvedStack at_barrier = stack({wait, gstart, thread, clone});
  EXPECT_EQ(names(view_.transform(at_barrier, format::kOmpImplicitBarrier, &fork, ViewMode::kUser)),
            (std::vector<std::string>{"<OMP-implicit_barrier>", "foo -- OMP parallel region", "foo", "main", "_start"}));
  // Idle between regions: the pseudo-function alone.
  EXPECT_EQ(names(view_.transform(at_barrier, format::kOmpIdle, nullptr, ViewMode::kUser)),
            (std::vector<std::string>{"<OMP-idle>"}));
  // A lock wait inside a program function called from the region.
  FuncId set_lock = fn("omp_set_lock", gomp_), bar = fn("bar", exe_);
  ResolvedStack locked = stack({wait, set_lock, bar, outlined, gstart, thread, clone});
  EXPECT_EQ(names(view_.transform(locked, format::kOmpLockWait, &fork, ViewMode::kUser)),
            (std::vector<std::string>{"<OMP-lock_wait>", "bar", "foo -- OMP parallel region", "foo", "main", "_start"}));
  // Work whose leaf is in the runtime (scheduling) is overhead.
  ResolvedStack sched = stack({wait, outlined, gstart, thread, clone});
  EXPECT_EQ(view_.effective_state(sched, format::kOmpWork), format::kOmpOverhead);
  // A task run by a thread waiting at a barrier is work.
  ResolvedStack task = stack({work, wait, gstart, thread, clone});
  EXPECT_EQ(view_.effective_state(task, format::kOmpImplicitBarrier), format::kOmpWork);
  // Serial code is unchanged.
  ResolvedStack serial = stack({work, main, start});
  EXPECT_EQ(names(view_.transform(serial, format::kOmpWork, nullptr, ViewMode::kUser)),
            (std::vector<std::string>{"work", "main", "_start"}));
}

// A nested region forked by a worker of the outer one (14.12 #11), and a task created in a
// region: shown through every level of the chain down to main.
TEST_F(OpenMpViewTest, NestedRegionAndTaskThroughTheirLevels) {
  FuncId work = fn("work", exe_), foo_fn = fn("foo._omp_fn.0", exe_), foo = fn("foo", exe_), main = fn("main", exe_),
         start = fn("_start", exe_), bar_fn = fn("bar._omp_fn.0", exe_), bar = fn("bar", exe_),
         task_fn = fn("foo._omp_fn.1", exe_), gstart = fn("<static>@0x1cbbc", gomp_),
         parallel = fn("GOMP_parallel", gomp_), thread = fn("start_thread", libc_), clone = fn("clone3", libc_);
  ResolvedStack outer_fork = stack({foo_fn, foo, main, start});
  // bar's region forked on a worker of foo's: its fork stack is that worker's machine stack.
  ResolvedStack inner_fork = stack({bar_fn, bar, foo_fn, gstart, thread, clone});
  ResolvedStack inner_worker = stack({work, bar_fn, gstart, thread, clone});
  std::vector<OpenMpView::ForkLevel> chain{{&inner_fork, false}, {&outer_fork, false}};
  EXPECT_EQ(names(view_.transform(inner_worker, format::kOmpWork, chain, ViewMode::kUser)),
            (std::vector<std::string>{"work", "bar -- OMP parallel region", "bar", "foo -- OMP parallel region", "foo",
                                      "main", "_start"}));
  // The same forked by foo's master: the runtime frames are those of the outer fork.
  ResolvedStack inner_fork_master = stack({bar_fn, bar, foo_fn, parallel, foo, main, start});
  chain[0].stack = &inner_fork_master;
  EXPECT_EQ(names(view_.transform(inner_worker, format::kOmpWork, chain, ViewMode::kUser)),
            (std::vector<std::string>{"work", "bar -- OMP parallel region", "bar", "foo -- OMP parallel region", "foo",
                                      "main", "_start"}));
  // Without the outer level (no region records) the inner fork stack is shown as it is.
  chain.pop_back();
  chain[0].stack = &inner_fork;
  EXPECT_EQ(names(view_.transform(inner_worker, format::kOmpWork, chain, ViewMode::kUser)),
            (std::vector<std::string>{"work", "bar -- OMP parallel region", "bar", "start_thread", "clone3"}));
  // A task created in foo's region, run by another worker: under the task, the region, foo.
  ResolvedStack task_create = stack({task_fn, foo_fn, parallel, foo, main, start});
  ResolvedStack task_run = stack({work, task_fn, gstart, thread, clone});
  std::vector<OpenMpView::ForkLevel> tchain{{&task_create, true}, {&outer_fork, false}};
  EXPECT_EQ(names(view_.transform(task_run, format::kOmpWork, tchain, ViewMode::kUser)),
            (std::vector<std::string>{"work", "foo -- OMP task", "foo -- OMP parallel region", "foo", "main", "_start"}));
  EXPECT_EQ(names(view_.transform(task_run, format::kOmpWork, tchain, ViewMode::kExpert)),
            (std::vector<std::string>{"work", "foo -- OMP task [foo._omp_fn.1]", "foo -- OMP parallel region [foo._omp_fn.0]",
                                      "foo", "main", "_start"}));
}

// Clang -g: .omp_outlined._debug__.N is inlined into .omp_outlined..N+1 (the function libomp
// calls): both frames at the same pc. The region is named after the outer one whether the
// sample's stack or the fork stack names it.
TEST_F(OpenMpViewTest, ClangOutlinedNamedByTheFunctionTheRuntimeCalls) {
  FuncId work = fn("work", exe_), dbg = fn(".omp_outlined._debug__.20", exe_), outl = fn(".omp_outlined..21", exe_),
         foo = fn("foo", exe_), main = fn("main", exe_), invoke = fn("__kmp_invoke_microtask", omp_),
         fork_call = fn("__kmpc_fork_call", omp_), thread = fn("start_thread", libc_);
  ResolvedStack worker;
  for (auto [f, pc] : std::initializer_list<std::pair<FuncId, uint32_t>>{
           {work, 1}, {dbg, 2}, {outl, 2}, {invoke, 3}, {thread, 4}})
    worker.frames.push_back({f, pc, 0, f == dbg}), worker.funcs.push_back(f);
  ResolvedStack fork;  // the microtask's entry first (the collector notes it), then the fork call
  for (auto [f, pc] : std::initializer_list<std::pair<FuncId, uint32_t>>{
           {dbg, 5}, {outl, 5}, {fork_call, 6}, {foo, 7}, {main, 8}})
    fork.frames.push_back({f, pc, 0, f == dbg}), fork.funcs.push_back(f);
  EXPECT_EQ(names(view_.transform(worker, format::kOmpWork, &fork, ViewMode::kExpert)),
            (std::vector<std::string>{"work", "foo -- OMP parallel region [.omp_outlined..21]", "foo", "main"}));
  ResolvedStack at_barrier = stack({invoke, thread});
  EXPECT_EQ(names(view_.transform(at_barrier, format::kOmpImplicitBarrier, &fork, ViewMode::kExpert)),
            (std::vector<std::string>{"<OMP-implicit_barrier>", "foo -- OMP parallel region [.omp_outlined..21]", "foo",
                                      "main"}));
  // At -O0 the _debug__ function is called, not inlined: still the outer one.
  ResolvedStack called = stack({work, dbg, outl, invoke, thread});
  EXPECT_EQ(names(view_.transform(called, format::kOmpWork, &fork, ViewMode::kExpert)),
            (std::vector<std::string>{"work", "foo -- OMP parallel region [.omp_outlined..21]", "foo", "main"}));
}

// A sample that carries no fork stack but has a region's outlined function on its stack is
// shown under that region's fork chain from the records; not where the function was forked
// from two places.
TEST_F(OpenMpViewTest, SampleWithoutForkStackUnderTheRecordedRegion) {
  FuncId work = fn("work", exe_), outl = fn(".omp_outlined..9", exe_), spawn = fn("spawn", exe_),
         main = fn("main", exe_), invoke = fn("__kmp_invoke_microtask", omp_), thread = fn("start_thread", libc_),
         clone = fn("clone3", libc_), fork_call = fn("__kmpc_fork_call", omp_), other = fn("other", exe_);
  ResolvedStack worker = stack({work, outl, invoke, thread, clone});
  // Unknown region: the outlined function alone cannot name its parent (Clang).
  EXPECT_EQ(names(view_.transform(worker, format::kOmpWork, std::vector<OpenMpView::ForkLevel>{}, ViewMode::kUser)),
            (std::vector<std::string>{"work", "<unknown> -- OMP parallel region", "start_thread", "clone3"}));
  ResolvedStack fork = stack({outl, fork_call, spawn, main});
  view_.note_fork({{&fork, false}});
  view_.note_fork({{&fork, false}});  // the same place again
  EXPECT_EQ(names(view_.transform(worker, format::kOmpWork, std::vector<OpenMpView::ForkLevel>{}, ViewMode::kUser)),
            (std::vector<std::string>{"work", "spawn -- OMP parallel region", "spawn", "main"}));
  EXPECT_EQ(names(view_.transform(worker, format::kOmpWork, std::vector<OpenMpView::ForkLevel>{}, ViewMode::kExpert)),
            (std::vector<std::string>{"work", "spawn -- OMP parallel region [.omp_outlined..9]", "spawn", "main"}));
  // Idle: the pseudo-function alone, whatever the stack.
  EXPECT_EQ(names(view_.transform(worker, format::kOmpIdle, std::vector<OpenMpView::ForkLevel>{}, ViewMode::kUser)),
            (std::vector<std::string>{"<OMP-idle>"}));
  // Forked from another place too: ambiguous, left as it is.
  ResolvedStack fork2 = stack({outl, fork_call, other, main});
  view_.note_fork({{&fork2, false}});
  EXPECT_EQ(names(view_.transform(worker, format::kOmpWork, std::vector<OpenMpView::ForkLevel>{}, ViewMode::kUser)),
            (std::vector<std::string>{"work", "<unknown> -- OMP parallel region", "start_thread", "clone3"}));
}

}  // namespace
}  // namespace erkit::model::viewmode
