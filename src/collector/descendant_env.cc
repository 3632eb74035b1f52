#include "collector/descendant_env.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "collector/config_env.h"
#include "collector/runtime.h"

namespace erkit::collector {
namespace {

char g_lib_path[4096];  // this libcollector.so as the loader opened it
char g_params[2048];    // ERKIT_PARAMS as this image received it

bool starts_with(const char* s, const char* prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

// A bump allocator over one mapping.
struct Arena {
  char* p;
  size_t left;
  char* put(const char* a, const char* b = "", const char* c = "") {
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    if (la + lb + lc + 1 > left) return nullptr;
    char* s = p;
    memcpy(p, a, la);
    memcpy(p + la, b, lb);
    memcpy(p + la + lb, c, lc);
    p[la + lb + lc] = 0;
    p += la + lb + lc + 1;
    left -= la + lb + lc + 1;
    return s;
  }
};

void utoa(unsigned long v, char* out) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = char('0' + v % 10);
    v /= 10;
  } while (v);
  for (int i = 0; i < n; ++i) out[i] = tmp[n - 1 - i];
  out[n] = 0;
}

// LD_PRELOAD without our library (entries are separated by spaces or colons).
void preload_without_us(const char* value, char* out, size_t cap) {
  size_t n = 0;
  out[0] = 0;
  const char* p = value;
  while (*p) {
    while (*p == ' ' || *p == ':') ++p;
    const char* start = p;
    while (*p && *p != ' ' && *p != ':') ++p;
    size_t len = size_t(p - start);
    if (!len) continue;
    bool ours = g_lib_path[0] && len == strlen(g_lib_path) && strncmp(start, g_lib_path, len) == 0;
    if (ours || n + len + 2 > cap) continue;
    if (n) out[n++] = ' ';
    memcpy(out + n, start, len);
    n += len;
    out[n] = 0;
  }
}

}  // namespace

void env_init() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void*>(&env_init), &info) && info.dli_fname && strlen(info.dli_fname) < sizeof g_lib_path)
    strcpy(g_lib_path, info.dli_fname);
  const char* params = getenv(kEnvParams);
  if (params && strlen(params) < sizeof g_params) strcpy(g_params, params);
}

bool env_has_collector(char* const envp[]) {
  for (char* const* e = envp; e && *e; ++e)
    if (starts_with(*e, "ERKIT_")) return true;
  return false;
}

bool env_build(EnvBlock* b, char* const base[], EnvMode mode, const char* lineage, pid_t pid) {
  size_t count = 0, bytes = 0;
  for (char* const* e = base; e && *e; ++e) {
    ++count;
    bytes += strlen(*e) + 1;
  }
  const Config& c = g_rt.config;
  size_t ours = strlen(g_lib_path) + strlen(g_params) + strlen(c.founder_dir) + strlen(c.follow_regex) +
                strlen(lineage ? lineage : "") + 512;
  size_t size = (count + 12) * sizeof(char*) + bytes + ours;
  size = (size + 4095) & ~size_t(4095);
  void* mem = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) return false;
  char** out = static_cast<char**>(mem);
  Arena a{reinterpret_cast<char*>(out + count + 12), size - (count + 12) * sizeof(char*)};
  size_t n = 0;
  const char* program_preload = "";
  for (char* const* e = base; e && *e; ++e) {
    if (starts_with(*e, "ERKIT_")) continue;
    if (starts_with(*e, "LD_PRELOAD=")) {
      program_preload = *e + 11;
      continue;
    }
    out[n++] = *e;  // the program's own strings stay where they are
  }
  char rest[4096];
  preload_without_us(program_preload, rest, sizeof rest);
  bool ok = true;
  auto add = [&](char* s) {
    if (!s) ok = false;
    else out[n++] = s;
  };
  if (mode == EnvMode::kStrip) {
    if (rest[0]) add(a.put("LD_PRELOAD=", rest));
  } else {
    char preload[sizeof g_lib_path + sizeof rest + 2];
    strcpy(preload, g_lib_path);
    if (rest[0]) {
      strcat(preload, " ");
      strcat(preload, rest);
    }
    add(a.put("LD_PRELOAD=", preload));
    add(a.put(kEnvExperiment, "=", c.founder_dir));
    add(a.put(kEnvParams, "=", g_params));
    char pidbuf[24];
    utoa(static_cast<unsigned long>(pid), pidbuf);
    add(a.put(kEnvPid, "=", pidbuf));
    if (lineage && *lineage) add(a.put(kEnvLineage, "=", lineage));
    if (c.follow_regex[0]) add(a.put(kEnvFollowRegex, "=", c.follow_regex));
    if (mode == EnvMode::kDormant) add(a.put(kEnvDormant, "=1"));
  }
  out[n] = nullptr;
  if (!ok) {
    munmap(mem, size);
    return false;
  }
  b->envp = out;
  b->mem = mem;
  b->size = size;
  return true;
}

void env_free(EnvBlock* b) {
  if (b->mem) munmap(b->mem, b->size);
  b->mem = nullptr;
  b->envp = nullptr;
}

}  // namespace erkit::collector
