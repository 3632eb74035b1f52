// Experiment naming (seed-spec §5.1): stem.N.er names advance to the first unused N; a name
// without the .N. part must not exist. The directory is created atomically with mkdir so
// concurrent collects (MPI ranks) never share one.
#pragma once
#include <string>

namespace erkit::collect {

struct NamingResult {
  std::string path;   // created experiment directory
  std::string error;  // set on failure
};

// `requested` may be empty (default test.1.er). `dir` may be empty (current directory).
NamingResult create_experiment_dir(const std::string& requested, const std::string& dir);
// The name that create_experiment_dir would choose, without creating it (for -n).
NamingResult preview_experiment_name(const std::string& requested, const std::string& dir);

// MPI (seed-spec §3.7): the rank an MPI launcher gave this process in its environment
// (OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK, SLURM_PROCID, checked in that order; SLURM_PROCID
// only in a step of several tasks, SLURM_STEP_NUM_TASKS > 1), -1 if none.
int launcher_rank();
// The stem of the default name of a rank's experiment: "test", or the group's name without
// ".erg" and without its directory under -g.
std::string rank_stem(const std::string& group);
// stem.M.er for rank M, created atomically; if that exists (an earlier run), stem.M.1.er,
// stem.M.2.er, ...: each rank draws from its own names, so ranks never race for one.
NamingResult create_rank_experiment_dir(const std::string& stem, int rank, const std::string& dir);
NamingResult preview_rank_experiment_name(const std::string& stem, int rank, const std::string& dir);

}  // namespace erkit::collect
