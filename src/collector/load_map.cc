#include "collector/load_map.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "collector/real_functions.h"
#include "collector/runtime.h"
#include "collector/text_line.h"
#include "collector/unwind/unwind.h"
#include "format/log_keys.h"

namespace erkit::collector {
namespace logev = format::log_event;
namespace logkey = format::log_key;
namespace {

struct Known {
  uintptr_t bias, lo, hi;
  char path[512];
  bool seen;  // present in the current pass
};
constexpr int kMaxObjects = 2048;
Known g_known[kMaxObjects];
int g_count = 0;
int g_lock = 0;  // refreshes from concurrent dlopen calls are serialised

void hex_build_id(const dl_phdr_info* info, char* out, size_t cap) {
  out[0] = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const char* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
    const char* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      auto* nh = reinterpret_cast<const ElfW(Nhdr)*>(p);
      const char* name = p + sizeof(ElfW(Nhdr));
      const unsigned char* desc =
          reinterpret_cast<const unsigned char*>(name + ((nh->n_namesz + 3) & ~3u));
      if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
        size_t n = 0;
        for (uint32_t j = 0; j < nh->n_descsz && n + 3 < cap; ++j) {
          out[n++] = "0123456789abcdef"[desc[j] >> 4];
          out[n++] = "0123456789abcdef"[desc[j] & 15];
        }
        out[n] = 0;
        return;
      }
      p = reinterpret_cast<const char*>(desc) + ((nh->n_descsz + 3) & ~3u);
    }
  }
}

// The vDSO exists only in memory: save its image in the experiment so it can be symbolised.
void save_vdso(const dl_phdr_info* info, uintptr_t lo, uintptr_t hi, char* path, size_t cap) {
  const char* name = "vdso.so";
  size_t dl = strlen(g_rt.config.experiment_dir);
  if (dl + 10 >= cap) return;
  memcpy(path, g_rt.config.experiment_dir, dl);
  path[dl] = '/';
  strcpy(path + dl + 1, name);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, experiment_file_mode(g_rt.config.experiment_dir));
  if (fd >= 0) {
    uintptr_t start = info->dlpi_addr ? info->dlpi_addr : lo;
    if (write(fd, reinterpret_cast<const void*>(start), hi - start) < 0) {
      log_warning("vdso", "could not save the vDSO image");
    }
    close(fd);
  }
  strcpy(path, name);  // recorded relative to the experiment
}

int on_object(dl_phdr_info* info, size_t, void*) {
  uintptr_t lo = ~uintptr_t(0), hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD) continue;
    uintptr_t a = info->dlpi_addr + ph.p_vaddr;
    if (a < lo) lo = a;
    if (a + ph.p_memsz > hi) hi = a + ph.p_memsz;
  }
  if (hi == 0) return 0;
  for (int i = 0; i < g_count; ++i) {
    if (g_known[i].bias == info->dlpi_addr && g_known[i].lo == lo) {
      g_known[i].seen = true;
      return 0;
    }
  }
  if (g_count >= kMaxObjects) return 0;
  Known& k = g_known[g_count++];
  k.bias = info->dlpi_addr;
  k.lo = lo;
  k.hi = hi;
  k.seen = true;
  const char* name = info->dlpi_name;
  if (!name || !*name) {
    ssize_t n = readlink("/proc/self/exe", k.path, sizeof k.path - 1);
    k.path[n > 0 ? n : 0] = 0;
  } else if (strstr(name, "linux-vdso") || strstr(name, "linux-gate")) {
    save_vdso(info, lo, hi, k.path, sizeof k.path);
  } else {
    strncpy(k.path, name, sizeof k.path - 1);
    k.path[sizeof k.path - 1] = 0;
  }
  char build_id[129];
  hex_build_id(info, build_id, sizeof build_id);
  TextLine line;
  line.event(now_ns(), logev::kLoad).kv_quoted(logkey::kPath, k.path).kv_hex(logkey::kBias, k.bias);
  line.kv_hex(logkey::kLo, lo);
  line.kv_hex(logkey::kHi, hi).kv(logkey::kBuildId, build_id[0] ? build_id : "-");
  line.write_to(g_rt.map_fd);
  return 0;
}

}  // namespace

void load_map_refresh() {
  if (!g_rt.active) return;
  while (__atomic_exchange_n(&g_lock, 1, __ATOMIC_ACQUIRE)) sched_yield();
  for (int i = 0; i < g_count; ++i) g_known[i].seen = false;
  dl_iterate_phdr(on_object, nullptr);
  // Objects no longer present were unloaded; keep the table compact.
  int out = 0;
  for (int i = 0; i < g_count; ++i) {
    if (!g_known[i].seen) {
      TextLine line;
      line.event(now_ns(), logev::kUnload).kv_quoted(logkey::kPath, g_known[i].path);
      line.kv_hex(logkey::kBias, g_known[i].bias);
      line.kv_hex(logkey::kLo, g_known[i].lo).write_to(g_rt.map_fd);
      continue;
    }
    g_known[out++] = g_known[i];
  }
  g_count = out;
  unwind::refresh();
  __atomic_store_n(&g_lock, 0, __ATOMIC_RELEASE);
}

void load_map_forget() {
  g_count = 0;
  __atomic_store_n(&g_lock, 0, __ATOMIC_RELEASE);  // a parent thread may have held it at fork
}

}  // namespace erkit::collector

// The dlopen/dlmopen/dlclose interposers that call load_map_refresh() are in dlopen_interpose.cc.
