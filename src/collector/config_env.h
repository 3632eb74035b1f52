// Reads the collection settings that collect (or a followed parent process) passes in the
// environment. Not signal-safe (runs once at start).
#pragma once
#include "collector/runtime.h"

namespace erkit::collector {
// Environment variable names shared with collect (src/collect/launch.cc).
inline constexpr const char* kEnvExperiment = "ERKIT_EXPERIMENT";  // founder experiment (absolute)
inline constexpr const char* kEnvParams = "ERKIT_PARAMS";
inline constexpr const char* kEnvPid = "ERKIT_PID";          // pid that may start; "0": any
inline constexpr const char* kEnvStarted = "ERKIT_STARTED";  // set once collection began
inline constexpr const char* kEnvLineage = "ERKIT_LINEAGE";  // "_f1_x2"; unset for the founder
inline constexpr const char* kEnvDormant = "ERKIT_DORMANT";  // "1": track lineage, record nothing
inline constexpr const char* kEnvFollowRegex = "ERKIT_FOLLOW_REGEX";  // -F =regex

enum class EnvState { kNotCollected, kDormant, kActive };

// Fills *c from the environment. kNotCollected: no experiment is meant for this process (none
// named, another pid's, or one an earlier image of this pid already started).
EnvState config_from_env(Config* c);
}  // namespace erkit::collector
