#include "collector/config_env.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

namespace erkit::collector {
namespace {

uint64_t parse_u64(const char* s) {
  uint64_t v = 0;
  while (*s >= '0' && *s <= '9') v = v * 10 + uint64_t(*s++ - '0');
  return v;
}

bool copy_str(char* dst, size_t cap, const char* src) {
  size_t n = strlen(src);
  if (n >= cap) return false;
  memcpy(dst, src, n + 1);
  return true;
}

void set(uint64_t* f, int64_t, uint64_t v) { *f = v; }
void set(int* f, int64_t sign, uint64_t v) { *f = int(sign * int64_t(v)); }
void set(bool* f, int64_t, uint64_t v) { *f = v != 0; }

// ERKIT_PARAMS is "key=value;key=value", the keys of format/collector_params.def.
void apply(Config* c, const char* key, size_t klen, const char* val) {
  auto is = [&](const char* k) { return strlen(k) == klen && strncmp(key, k, klen) == 0; };
  int64_t sign = 1;
  if (*val == '-') {
    sign = -1;
    ++val;
  }
  uint64_t v = parse_u64(val);
  if (false) {
  }
#define ERKIT_PARAM(k, field, when) else if (is(k)) set(&c->field, sign, v);
#include "format/collector_params.def"
#undef ERKIT_PARAM
}

}  // namespace

EnvState config_from_env(Config* c) {
  const char* dir = getenv(kEnvExperiment);
  if (!dir || !*dir || strlen(dir) >= sizeof c->founder_dir) return EnvState::kNotCollected;
  // Only the process the experiment is meant for records into it: the pid collect (or a
  // followed parent's exec) named, or "0" for the first image of a spawned descendant. An
  // image that finds ERKIT_STARTED set inherited it from one that already took the experiment
  // (an exec the collector did not see): it must not write over that experiment.
  const char* pid = getenv(kEnvPid);
  const char* started = getenv(kEnvStarted);
  if (!pid || (started && *started)) return EnvState::kNotCollected;
  uint64_t want = parse_u64(pid);
  if (want != 0 && int(want) != int(getpid())) return EnvState::kNotCollected;
  memset(c, 0, sizeof *c);
  strcpy(c->founder_dir, dir);
  const char* lineage = getenv(kEnvLineage);
  if (!lineage) lineage = "";
  if (!copy_str(c->lineage, sizeof c->lineage, lineage)) return EnvState::kNotCollected;
  size_t dl = strlen(dir), ll = strlen(lineage);
  if (dl + 1 + ll + 3 >= sizeof c->experiment_dir) return EnvState::kNotCollected;
  strcpy(c->experiment_dir, dir);
  if (ll) {
    c->experiment_dir[dl] = '/';
    memcpy(c->experiment_dir + dl + 1, lineage, ll);
    strcpy(c->experiment_dir + dl + 1 + ll, ".er");
  }
  const char* regex = getenv(kEnvFollowRegex);
  if (regex && !copy_str(c->follow_regex, sizeof c->follow_regex, regex)) c->follow_regex[0] = 0;
  c->clock_interval_ns = 10007000;
  c->size_limit_bytes = 2000ull * 1024 * 1024;
  c->sample_interval_ms = 1000;
  c->sync_trace = -1;
  const char* p = getenv(kEnvParams);
  while (p && *p) {
    const char* end = strchr(p, ';');
    size_t len = end ? size_t(end - p) : strlen(p);
    const char* eq = static_cast<const char*>(memchr(p, '=', len));
    if (eq) {
      char val[64];
      size_t vl = len - size_t(eq + 1 - p);
      if (vl >= sizeof val) vl = sizeof val - 1;
      memcpy(val, eq + 1, vl);
      val[vl] = 0;
      apply(c, p, size_t(eq - p), val);
    }
    p = end ? end + 1 : nullptr;
  }
  // -x concerns the exec collect performs, not the descendants' execs.
  if (ll) c->stop_after_exec = false;
  const char* dormant = getenv(kEnvDormant);
  c->dormant = dormant && *dormant == '1';
  return c->dormant ? EnvState::kDormant : EnvState::kActive;
}

}  // namespace erkit::collector
