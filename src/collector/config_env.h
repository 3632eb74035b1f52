// Reads the collection settings that collect passes in the environment (ERKIT_EXPERIMENT,
// ERKIT_PARAMS). Not signal-safe (runs once at start).
#pragma once
#include "collector/runtime.h"

namespace erkit::collector {
// Environment variable names shared with collect (src/collect/launch.cc).
inline constexpr const char* kEnvExperiment = "ERKIT_EXPERIMENT";
inline constexpr const char* kEnvParams = "ERKIT_PARAMS";
inline constexpr const char* kEnvPid = "ERKIT_PID";          // pid collect started
inline constexpr const char* kEnvStarted = "ERKIT_STARTED";  // set once collection began
// False when the process is not being collected (no experiment named).
bool config_from_env(Config* c);
}  // namespace erkit::collector
