// dlopen / dlmopen / dlclose interposition: the load map and the unwinder's registry follow
// every load and unload. The dynamic linker resolves a bare library name relative to the
// *calling object* (its DT_RPATH, DT_RUNPATH and $ORIGIN) and loads into the caller's
// namespace, and it takes the caller from its return address, which here would be the
// collector. So the wrapper finds the real caller (dladdr1 with RTLD_DL_LINKMAP), searches the
// caller's RPATH/RUNPATH itself in the loader's order, and passes the path it found; names it
// does not find there go to the real dlopen unchanged (LD_LIBRARY_PATH, ld.so.cache, default
// directories, the executable's RPATH: the same for every caller).
// Not emulated (documented): RPATHs of the objects that loaded the caller, $LIB and $PLATFORM.
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "collector/load_map.h"
#include "collector/real_functions.h"
#include "collector/runtime.h"

namespace erkit::collector {
namespace {

using DlmopenFn = void* (*)(Lmid_t, const char*, int);
DlmopenFn g_real_dlmopen;

struct SearchPaths {
  const char* rpath = nullptr;
  const char* runpath = nullptr;
};

// DT_RPATH / DT_RUNPATH strings of a loaded object. glibc relocates the d_ptr of DT_STRTAB in
// place for most objects but not for read-only dynamic sections (the vDSO, some ports): an
// address below the load bias is taken as unrelocated.
SearchPaths search_paths_of(const link_map* lm) {
  SearchPaths sp;
  if (!lm || !lm->l_ld) return sp;
  uintptr_t strtab = 0;
  intptr_t rpath = -1, runpath = -1;
  for (const ElfW(Dyn)* d = lm->l_ld; d->d_tag != DT_NULL; ++d) {
    if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr;
    else if (d->d_tag == DT_RPATH) rpath = intptr_t(d->d_un.d_val);
    else if (d->d_tag == DT_RUNPATH) runpath = intptr_t(d->d_un.d_val);
  }
  if (!strtab) return sp;
  if (lm->l_addr && strtab < lm->l_addr) strtab += lm->l_addr;
  if (rpath >= 0) sp.rpath = reinterpret_cast<const char*>(strtab + uintptr_t(rpath));
  if (runpath >= 0) sp.runpath = reinterpret_cast<const char*>(strtab + uintptr_t(runpath));
  return sp;
}

// The directory of the caller's file, for $ORIGIN (the executable's comes from /proc/self/exe).
bool origin_of(const link_map* lm, char* out, size_t cap) {
  const char* name = lm->l_name;
  char exe[1024];
  if (!name || !*name) {
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return false;
    exe[n] = 0;
    name = exe;
  }
  const char* slash = strrchr(name, '/');
  if (!slash) return false;
  size_t len = size_t(slash - name);
  if (len == 0) len = 1;  // "/lib.so": origin "/"
  if (len >= cap) return false;
  memcpy(out, name, len);
  out[len] = 0;
  return true;
}

// Expands one search-path element into `out` (false if it cannot be expanded: an unsupported
// dynamic string token, or too long).
bool expand_element(const char* elem, size_t elem_len, const char* origin, char* out, size_t cap) {
  size_t o = 0;
  for (size_t i = 0; i < elem_len;) {
    const char* rest = elem + i;
    size_t token = 0;
    if (elem_len - i >= 7 && memcmp(rest, "$ORIGIN", 7) == 0) token = 7;
    else if (elem_len - i >= 9 && memcmp(rest, "${ORIGIN}", 9) == 0) token = 9;
    if (token) {
      if (!origin) return false;
      size_t ol = strlen(origin);
      if (o + ol >= cap) return false;
      memcpy(out + o, origin, ol);
      o += ol;
      i += token;
      continue;
    }
    if (*rest == '$') return false;  // $LIB, $PLATFORM: left to the real loader
    if (o + 1 >= cap) return false;
    out[o++] = *rest;
    ++i;
  }
  out[o] = 0;
  return o > 0;
}

// Whether `path` is an ELF object of this process's class and machine (the loader skips
// others and goes on searching).
bool usable_object(const char* path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  ElfW(Ehdr) eh;
  bool ok = read(fd, &eh, sizeof eh) == ssize_t(sizeof eh);
  close(fd);
  if (!ok || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return false;
  const auto* self = reinterpret_cast<const ElfW(Ehdr)*>(getauxval(AT_SYSINFO_EHDR));
  return eh.e_ident[EI_CLASS] == (sizeof(void*) == 8 ? ELFCLASS64 : ELFCLASS32) &&
         (!self || eh.e_machine == self->e_machine);
}

// Searches a colon-separated path list for `file`; writes the full path on success.
bool search(const char* list, const char* file, const char* origin, char* out, size_t cap) {
  if (!list) return false;
  size_t file_len = strlen(file);
  for (const char* p = list;;) {
    const char* colon = strchr(p, ':');
    size_t len = colon ? size_t(colon - p) : strlen(p);
    char dir[2048];
    if (len && expand_element(p, len, origin, dir, sizeof dir)) {
      size_t dl = strlen(dir);
      if (dl + 1 + file_len < cap) {
        memcpy(out, dir, dl);
        out[dl] = '/';
        memcpy(out + dl + 1, file, file_len + 1);
        if (usable_object(out)) return true;
      }
    }
    if (!colon) return false;
    p = colon + 1;
  }
}

// The library dlopen(file) would find for `caller` in the caller's own RPATH/RUNPATH, in the
// loader's order; false when the name is not a bare name or those paths do not have it.
bool resolve_for_caller(const link_map* lm, const char* file, char* out, size_t cap) {
  if (!file || !*file || strchr(file, '/') || !lm) return false;
  SearchPaths sp = search_paths_of(lm);
  if (!sp.rpath && !sp.runpath) return false;
  char origin[1024];
  const char* o = origin_of(lm, origin, sizeof origin) ? origin : nullptr;
  if (sp.rpath && !sp.runpath) return search(sp.rpath, file, o, out, cap);
  // With RUNPATH: LD_LIBRARY_PATH comes first (unless secure execution).
  if (!getauxval(AT_SECURE)) {
    const char* llp = getenv("LD_LIBRARY_PATH");
    if (llp && search(llp, file, nullptr, out, cap)) return false;  // the real dlopen finds it
  }
  return search(sp.runpath, file, o, out, cap);
}

// Loads like `caller` would have: in its namespace, with its search paths.
void* open_as(const void* caller, bool has_ns, Lmid_t ns, const char* file, int mode) {
  resolve_real_functions();
  if (!g_real_dlmopen) g_real_dlmopen = reinterpret_cast<DlmopenFn>(next_symbol("dlmopen", "GLIBC_2.34"));
  Dl_info info;
  link_map* lm = nullptr;
  if (!dladdr1(caller, &info, reinterpret_cast<void**>(&lm), RTLD_DL_LINKMAP)) lm = nullptr;
  if (!has_ns && lm) {
    Lmid_t caller_ns = LM_ID_BASE;
    if (dlinfo(lm, RTLD_DI_LMID, &caller_ns) == 0 && caller_ns != LM_ID_BASE) {
      has_ns = true;
      ns = caller_ns;
    }
  }
  char path[4096];
  const char* name = file;
  // An object already loaded under this name (or soname) is what the loader returns.
  void* loaded = file && !has_ns ? g_real.dlopen(file, RTLD_LAZY | RTLD_NOLOAD) : nullptr;
  if (loaded) g_real.dlclose(loaded);
  else if (resolve_for_caller(lm, file, path, sizeof path)) name = path;
  if (has_ns && g_real_dlmopen) return g_real_dlmopen(ns, name, mode);
  return g_real.dlopen(name, mode);
}

}  // namespace
}  // namespace erkit::collector

extern "C" __attribute__((visibility("default"), noinline)) void* dlopen(const char* file, int mode) {
  void* h = erkit::collector::open_as(__builtin_return_address(0), false, LM_ID_BASE, file, mode);
  if (h) erkit::collector::load_map_refresh();
  return h;
}

extern "C" __attribute__((visibility("default"), noinline)) void* dlmopen(Lmid_t ns, const char* file,
                                                                          int mode) {
  void* h = erkit::collector::open_as(__builtin_return_address(0), true, ns, file, mode);
  if (h) erkit::collector::load_map_refresh();
  return h;
}

extern "C" __attribute__((visibility("default"))) int dlclose(void* handle) {
  erkit::collector::resolve_real_functions();
  int rc = erkit::collector::g_real.dlclose(handle);
  erkit::collector::load_map_refresh();
  return rc;
}
