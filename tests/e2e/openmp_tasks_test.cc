// OpenMP tasks beyond one level (docs/openmp.md, Tasks), for GCC (libgomp) and Clang (libomp):
// tasks created inside tasks shown under their creating task, and the tasks of a taskloop
// (GOMP_taskloop, __kmpc_taskloop) as tasks, with the creator's wait for them as OMP Wait. Over
// tests/programs/openmp/omp_imbalance.c ("nested_tasks", "taskloop"), with work in known ratios;
// every test also checks OMP Work + Wait + Overhead = Total LWP Time per thread.
#include <cmath>
#include <map>
#include <set>

#include <fmt/ranges.h>

#include "model/viewmode/openmp_chain.h"
#include "openmp_fixture.h"

namespace erkit::e2e {
namespace {

class OpenMpTasks : public OpenMp {};

// task_tree(): in each region one thread creates a task (line 112) that runs work(UNIT), creates
// two tasks (line 116) of work(2*UNIT) each and waits for them (line 119).
TEST_P(OpenMpTasks, NestedTasksUnderTheirCreatingTask) {
  constexpr int kRegions = 3;
  auto p = record(fmt::format("nested_tasks 12000000 {}", kRegions));
  ASSERT_TRUE(p);
  expect_omp_split_exact(*p);
  // The events: three tasks per region; one created by the region's code, two by that task.
  auto e = open("t.er");
  ASSERT_TRUE(e);
  ASSERT_EQ(e->omp_regions.size(), size_t(kRegions));
  ASSERT_EQ(e->omp_tasks.size(), size_t(3 * kRegions));
  const std::vector<size_t> creator = model::viewmode::creating_tasks(e->omp_tasks);
  std::map<size_t, int> children;
  for (size_t i = 0; i < creator.size(); ++i)
    if (creator[i] == model::viewmode::kNoTask) children[i] = 0;
  ASSERT_EQ(children.size(), size_t(kRegions)) << "tasks not created by a task";
  for (size_t i = 0; i < creator.size(); ++i) {
    if (creator[i] == model::viewmode::kNoTask) continue;
    ASSERT_TRUE(children.count(creator[i])) << "task " << i << " created by a task created by a task";
    ++children[creator[i]];
    const auto &t = e->omp_tasks[i], &c = e->omp_tasks[creator[i]];
    EXPECT_EQ(t.region_id, c.region_id);
    EXPECT_EQ(t.create_tid, c.tid);
    EXPECT_GE(t.create_ns, c.tstamp_ns);
    EXPECT_LE(t.create_ns, c.tstamp_ns + c.duration_ns);
  }
  for (const auto& [task, n] : children) EXPECT_EQ(n, 2) << "task " << task;

  // The user view: the inner tasks under the outer task, under the region, under task_tree
  // under main (seed-spec §14.12: a task's time under the code that created it, at every level).
  FuncId outer = find(*p, "task_tree -- OMP task from line 112");
  FuncId inner = find(*p, "task_tree -- OMP task from line 116");
  FuncId region = find(*p, "task_tree -- OMP parallel region from line ");
  FuncId work = exact(*p, "work");
  ASSERT_NE(outer, 0u) << "no outer task; tasks: " << fmt::format("{}", fmt::join(named(*p, "task_tree --"), ", "));
  ASSERT_NE(inner, 0u) << "no inner task; tasks: " << fmt::format("{}", fmt::join(named(*p, "task_tree --"), ", "));
  ASSERT_NE(region, 0u);
  EXPECT_EQ(callers(*p, inner), std::vector<std::string>{p->functions().at(outer).name});
  EXPECT_EQ(callers(*p, outer), std::vector<std::string>{p->functions().at(region).name});
  EXPECT_EQ(callers(*p, region), std::vector<std::string>{"task_tree"});
  EXPECT_EQ(callers(*p, exact(*p, "task_tree")), std::vector<std::string>{"main"});
  // All the work is in the tasks: 1 unit in the outer task itself, 4 in the inner ones (CPU
  // time, which the machine's load does not stretch), within 4 standard deviations of a share
  // estimated from the user-CPU samples (one per ms of CPU).
  EXPECT_GT(share_from(*p, work, {outer, inner}), 0.9);
  double work_user = double(incl(*p, work, model::kUser));
  ASSERT_GT(work_user, 20e6) << "too few CPU samples of work()";
  const double tol = 4 * std::sqrt(0.8 * 0.2 / (work_user / 1e6)) + 0.02;
  EXPECT_NEAR(double(incl(*p, inner, model::kUser)) / work_user, 4.0 / 5, tol);
  EXPECT_NEAR(share_from(*p, work, {outer}, model::kUser), 1.0 / 5, tol);
  // (The rest: CPU time at the edges of a task recorded with the thread's state before it, see
  // docs/openmp.md, limitations.)
  EXPECT_GT(double(incl(*p, outer, model::kUser)) / work_user, 0.8);
  // The inner tasks' time is what their records say (each from its first schedule to its end).
  // A thread's first sample is left out: it carries the thread's time since it started, with
  // that sample's state. With libomp a worker's sleep before it runs a task may be written with
  // the task's state in later samples too (docs/openmp.md, limitations): there the records'
  // time is a lower bound.
  double inner_ns = task_ns(*e, [&](size_t i) { return creator[i] != model::viewmode::kNoTask; });
  std::map<uint32_t, uint64_t> first;  // thread number -> its first sample's time
  for (const auto& s : e->clock) {
    uint32_t n = p->thread_number(0, s.tid);
    if (!first.count(n) || s.tstamp_ns < first[n]) first[n] = s.tstamp_ns;
  }
  p->set_event_filter([&first](const filter::EventView& v) { return v.tstamp_ns != first[v.thrid]; }, false);
  if (is_gcc()) {
    EXPECT_NEAR(double(incl(*p, inner)), inner_ns, 0.10 * inner_ns + margin(2 * kRegions));
  } else {
    EXPECT_GT(double(incl(*p, inner)), 0.9 * inner_ns - margin(2 * kRegions));
  }
  p->set_event_filter(nullptr, false);
  // Waits in a taskwait are OMP Wait, under the task or region that waits.
  if (FuncId taskwait = find(*p, "<OMP-taskwait>")) {
    EXPECT_EQ(p->function_metrics().incl[taskwait][model::kOmpWait], incl(*p, taskwait));
    for (const std::string& c : callers(*p, taskwait))
      EXPECT_TRUE(c == p->functions().at(outer).name || c == p->functions().at(region).name) << c;
  }
  // Exactly the program's region and tasks, named after task_tree and their lines; in the
  // expert view each with its outlined function.
  const std::vector<std::string> user = {"task_tree -- OMP parallel region from line 108",
                                         "task_tree -- OMP task from line 112", "task_tree -- OMP task from line 116"};
  EXPECT_EQ(omp_frames(*p), user);
  expect_outlined(expert_functions(*p, user), {"task_tree._omp_fn.0", "task_tree._omp_fn.1", "task_tree._omp_fn.2"},
                  {".omp_outlined.", ".omp_task_entry.", ".omp_task_entry."}, *p);
}

// loop_tasks(): in each region one thread runs a taskloop of four tasks of work(UNIT) (line 136,
// with a reduction) and waits for them at its end.
TEST_P(OpenMpTasks, TaskloopTasksUnderTheRegion) {
  constexpr int kRegions = 3;
  auto p = record(fmt::format("taskloop 12000000 {}", kRegions));
  ASSERT_TRUE(p);
  expect_omp_split_exact(*p);
  auto e = open("t.er");
  ASSERT_TRUE(e);
  ASSERT_EQ(e->omp_regions.size(), size_t(kRegions));
  const std::map<uint64_t, int> per_region = tasks_per_region(*e);
  ASSERT_EQ(per_region.size(), size_t(kRegions)) << "tasks in regions without a record";
  std::set<uint64_t> ids;
  for (const auto& t : e->omp_tasks) ids.insert(t.task_id);
  EXPECT_EQ(ids.size(), e->omp_tasks.size()) << "task ids not unique";
  for (const auto& [region, n] : per_region) EXPECT_EQ(n, 4) << "region " << region;

  FuncId task = find(*p, "loop_tasks -- OMP task from line ");
  FuncId region = find(*p, "loop_tasks -- OMP parallel region from line ");
  FuncId work = exact(*p, "work");
  ASSERT_NE(task, 0u) << "no taskloop task; functions: "
                      << fmt::format("{}", fmt::join(named(*p, "loop_tasks"), ", "));
  ASSERT_NE(region, 0u);
  EXPECT_EQ(callers(*p, task), std::vector<std::string>{p->functions().at(region).name});
  EXPECT_EQ(callers(*p, region), std::vector<std::string>{"loop_tasks"});
  // Short tasks (one unit each): CPU time at their edges, written with the thread's state
  // before the task, is up to a fifth of theirs (docs/openmp.md; 0.887 of all time seen in CI).
  EXPECT_GT(share_from(*p, work, {task}), 0.75);
  EXPECT_GT(share_from(*p, work, {task}, model::kUser), 0.75);
  double all_ns = task_ns(*e, [](size_t) { return true; });
  EXPECT_NEAR(double(incl(*p, task)), all_ns, 0.10 * all_ns + margin(4 * kRegions));
  // The creator's wait at the taskloop's end is OMP Wait (a taskwait), not runtime overhead:
  // its samples after it created the tasks and before the last one ended, outside the tasks it
  // ran itself, are OMP Wait where they are not work (a task's time written after it, on a
  // loaded machine), but for those at the edges (a look of the sampler, 20 ms, per wait).
  struct Window {
    uint32_t thread;
    uint64_t from, to;
    std::vector<std::pair<uint64_t, uint64_t>> own;
  };
  std::vector<Window> windows;
  for (const auto& [region_id, n] : per_region) {
    Window w{0, 0, 0, {}};
    uint32_t tid = 0;
    for (const auto& t : e->omp_tasks)
      if (t.region_id == region_id)
        tid = t.create_tid, w.from = std::max(w.from, t.create_ns), w.to = std::max(w.to, t.tstamp_ns + t.duration_ns);
    for (const auto& t : e->omp_tasks)
      if (t.region_id == region_id && t.tid == tid) w.own.emplace_back(t.tstamp_ns, t.tstamp_ns + t.duration_ns);
    w.thread = p->thread_number(0, tid);
    windows.push_back(w);
  }
  p->set_event_filter(
      [&windows](const filter::EventView& v) {
        for (const Window& w : windows) {
          if (v.thrid != w.thread || v.tstamp_ns <= w.from || v.tstamp_ns > w.to) continue;
          bool in_task = false;
          for (auto [b, en] : w.own) in_task = in_task || (v.tstamp_ns > b && v.tstamp_ns <= en);
          if (!in_task) return true;
        }
        return false;
      },
      false);
  Omp waiting = omp_of(*p);
  p->set_event_filter(nullptr, false);
  EXPECT_EQ(waiting.work + waiting.wait + waiting.over, waiting.total);
  EXPECT_LE(double(waiting.over), 0.1 * double(waiting.wait + waiting.over) + 20e6 * double(windows.size()))
      << "creator waiting: total " << waiting.total << " ns, wait " << waiting.wait << ", overhead " << waiting.over;
  if (FuncId taskwait = exact(*p, "<OMP-taskwait>")) {
    EXPECT_EQ(p->function_metrics().incl[taskwait][model::kOmpWait], incl(*p, taskwait));
    EXPECT_EQ(callers(*p, taskwait), std::vector<std::string>{p->functions().at(region).name});
  }
  // Exactly the program's region and task; in the expert view each with its outlined function.
  const std::vector<std::string> user = {"loop_tasks -- OMP parallel region from line 132",
                                         "loop_tasks -- OMP task from line 136"};
  EXPECT_EQ(omp_frames(*p), user);
  expect_outlined(expert_functions(*p, user), {"loop_tasks._omp_fn.0", "loop_tasks._omp_fn.1"},
                  {".omp_outlined.", ".omp_task_entry."}, *p);
}

INSTANTIATE_TEST_SUITE_P(Runtimes, OpenMpTasks, ::testing::Values("omp_imbalance_gcc", "omp_imbalance_clang"));

}  // namespace
}  // namespace erkit::e2e
