#include "reader/load_object_archives.h"


#include <elf.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/text_escape.h"
#include "format/experiment_format.h"
#include "format/log_keys.h"
#include "reader/experiment.h"
#include "reader/run_as_owner.h"
#include "reader/text_file.h"

namespace erkit::reader {
namespace log_key = format::log_key;
namespace log_setting = format::log_setting;
namespace {

namespace fs = std::filesystem;

constexpr const char* kArchiveMagic = "erkit-archive 1";
// Larger objects are not archived (a crafted map may name a huge sparse file).
constexpr uint64_t kArchiveMaxBytes = uint64_t(1) << 30;

uint64_t fnv64(const void* data, size_t n, uint64_t h = 0xcbf29ce484222325ull) {
  auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

std::string checksum_of_fd(int fd) {
  std::vector<char> buf(1 << 20);
  uint64_t h = 0xcbf29ce484222325ull;
  ssize_t n;
  off_t off = 0;
  while ((n = pread(fd, buf.data(), buf.size(), off)) > 0) {
    h = fnv64(buf.data(), size_t(n), h);
    off += n;
  }
  return n < 0 ? std::string() : fmt::format("fnv64:{:016x}", h);
}

std::string entry_key(const std::string& path, const std::string& build_id) {
  std::string k = path + "\n" + build_id;
  return fmt::format("{:016x}", fnv64(k.data(), k.size()));
}

std::string base_name(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

bool regular_file(const std::string& p, struct stat* st) {
  return stat(p.c_str(), st) == 0 && S_ISREG(st->st_mode);
}

int64_t mtime_ns(const struct stat& st) { return int64_t(st.st_mtim.tv_sec) * 1000000000ll + st.st_mtim.tv_nsec; }

std::string host_name() {
  char h[256] = {};
  gethostname(h, sizeof h - 1);
  return h;
}

bool is_experiment(const std::string& p) {
  struct stat st;
  return stat((p + "/" + format::kLogFile).c_str(), &st) == 0;
}

std::string strip_slashes(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

// The founder of a descendant (test.1.er/_f1.er -> test.1.er); an experiment is its own.
std::string founder_of(const std::string& experiment) {
  fs::path p(strip_slashes(experiment));
  std::string name = p.filename().string();
  if (name.size() > 4 && name[0] == '_' && p.has_parent_path() && is_experiment(p.parent_path().string()))
    return p.parent_path().string();
  return p.string();
}

// The file on this machine of a load object recorded at `path` by a program that ran under
// qemu-user with sysroot `sysroot` (collect's "emulation" setting, docs/platforms.md): qemu's own
// rule, the sysroot's file if it has one, else the path itself.
std::string on_host(const std::string& sysroot, const std::string& path) {
  struct stat st;
  if (!sysroot.empty() && !path.empty() && path[0] == '/' && regular_file(sysroot + path, &st))
    return sysroot + path;
  return path;
}

// (path, build-id) of every object in an experiment's map.
void map_objects(const std::string& experiment, std::set<std::pair<std::string, std::string>>* out) {
  // Bounded reading: the map of a damaged experiment may be a 100 GiB hole (issue 10).
  read_text_lines(experiment + "/" + format::kMapFile, [&](std::string_view line, uint64_t) {
    auto ev = common::parse_text_event(line);
    if (!ev || ev->name != "load") return;
    std::string path = ev->get("path");
    if (path.empty() || path[0] != '/') return;  // kept inside the experiment (the vDSO)
    std::string bid = ev->get("buildid");
    if (bid == "-") bid.clear();
    out->emplace(path, bid);
  });
}

// Writes `data` as `name` in the directory `dirfd`: a new file (no link followed, nothing
// truncated) renamed over the old one, so a crafted experiment cannot make us write elsewhere.
bool write_in_dir(int dirfd, const std::string& name, const std::string& data, mode_t mode) {
  std::string tmp = fmt::format(".{}.{}.tmp", name, getpid());
  unlinkat(dirfd, tmp.c_str(), 0);
  int fd = openat(dirfd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) return false;
  bool ok = write(fd, data.data(), data.size()) == ssize_t(data.size());
  ok = close(fd) == 0 && ok;
  if (ok) ok = renameat(dirfd, tmp.c_str(), dirfd, name.c_str()) == 0;
  if (!ok) unlinkat(dirfd, tmp.c_str(), 0);
  return ok;
}

bool write_entry(int dirfd, const std::string& name, const ArchiveEntry& e, mode_t mode) {
  std::ostringstream out;
  out << kArchiveMagic << "\n";
  out << "path=" << e.path << "\n" << "buildid=" << e.build_id << "\n" << "file_buildid=" << e.file_build_id << "\n";
  out << "size=" << e.size << "\n" << "mtime_ns=" << e.mtime_ns << "\n" << "checksum=" << e.checksum << "\n";
  out << "host=" << e.host << "\n" << "copy=" << e.copy << "\n";
  for (const auto& w : e.warnings) out << "warning=" << w << "\n";
  return write_in_dir(dirfd, name, out.str(), mode);
}

// Copies the open object `from` as `name` in `dirfd`, never with a wider mode than the source
// (no set-id bits, no write for others), and within the experiment's own mode.
bool copy_object(int from, const struct stat& st, int dirfd, const std::string& name, mode_t experiment_mode) {
  std::string tmp = fmt::format(".{}.{}.tmp", name, getpid());
  unlinkat(dirfd, tmp.c_str(), 0);
  mode_t mode = st.st_mode & 0755 & (experiment_mode | 0700);
  int fd = openat(dirfd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) return false;
  std::vector<char> buf(1 << 20);
  off_t off = 0;
  bool ok = true;
  while (ok && off < st.st_size) {
    ssize_t n = pread(from, buf.data(), buf.size(), off);
    if (n <= 0) {
      ok = n == 0;
      break;
    }
    ok = write(fd, buf.data(), size_t(n)) == n;
    off += n;
  }
  ok = close(fd) == 0 && ok && off == st.st_size;
  if (ok) ok = renameat(dirfd, tmp.c_str(), dirfd, name.c_str()) == 0;
  if (!ok) unlinkat(dirfd, tmp.c_str(), 0);
  return ok;
}

// Why a load object named by a map is not archived from its content: only a regular ELF
// file readable by whoever archives (the experiment's owner) and within the size limit is
// ("" if it is fine). `fd` is left open on it when it is.
std::string check_object(const std::string& path, int* fd, struct stat* st) {
  *fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (*fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return "the load object is missing: only its recorded identity is archived";
    return fmt::format("the load object cannot be read by the experiment's owner ({}): only its recorded identity "
                       "is archived",
                       std::strerror(errno));
  }
  std::string why;
  unsigned char magic[SELFMAG] = {};
  if (fstat(*fd, st) != 0 || !S_ISREG(st->st_mode))
    why = "is not a regular file";
  else if (uint64_t(st->st_size) > kArchiveMaxBytes)
    why = fmt::format("is larger than {} MiB", kArchiveMaxBytes >> 20);
  else if (pread(*fd, magic, SELFMAG, 0) != SELFMAG || std::memcmp(magic, ELFMAG, SELFMAG) != 0)
    why = "is not an ELF file";
  if (why.empty()) return why;
  close(*fd);
  *fd = -1;
  return fmt::format("the load object {}: skipped, only its recorded identity is archived", why);
}

// Report lines between the process working with the owner's rights and its parent.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n') c = ' ';
  return s;
}

std::string serialize(const ArchiveReport& r) {
  std::string out = fmt::format("a {}\nc {}\nk {}\n", r.archived, r.copied, r.kept);
  if (!r.error.empty()) out += "e " + one_line(r.error) + "\n";
  for (const auto& w : r.warnings) out += "w " + one_line(w) + "\n";
  return out;
}

ArchiveReport deserialize(const std::string& text) {
  ArchiveReport r;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 2) continue;
    std::string v = line.substr(2);
    switch (line[0]) {
      case 'a': r.archived = std::atoi(v.c_str()); break;
      case 'c': r.copied = std::atoi(v.c_str()); break;
      case 'k': r.kept = std::atoi(v.c_str()); break;
      case 'e': r.error = v; break;
      case 'w': r.warnings.push_back(v); break;
      default: break;
    }
  }
  return r;
}

ArchiveReport write_archives_here(const std::string& founder, const ArchiveOptions& opt);

}  // namespace

std::string file_build_id(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return {};
  std::string out = file_build_id_of_fd(fd);
  close(fd);
  return out;
}

std::string file_build_id_of_fd(int fd) {
  std::string out;
  Elf64_Ehdr eh;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && pread(fd, &eh, sizeof eh, 0) == ssize_t(sizeof eh) &&
      std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
      eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum > 0 && eh.e_phnum < 256) {
    std::vector<Elf64_Phdr> ph(eh.e_phnum);
    size_t bytes = ph.size() * sizeof(Elf64_Phdr);
    if (pread(fd, ph.data(), bytes, off_t(eh.e_phoff)) == ssize_t(bytes)) {
      for (const auto& p : ph) {
        if (p.p_type != PT_NOTE || p.p_filesz > (1u << 20) || p.p_offset + p.p_filesz > uint64_t(st.st_size)) continue;
        std::vector<char> notes(p.p_filesz);
        if (pread(fd, notes.data(), notes.size(), off_t(p.p_offset)) != ssize_t(notes.size())) continue;
        size_t off = 0;
        while (off + sizeof(Elf64_Nhdr) <= notes.size()) {
          Elf64_Nhdr nh;
          std::memcpy(&nh, notes.data() + off, sizeof nh);
          size_t name_off = off + sizeof nh;
          size_t desc_off = name_off + ((nh.n_namesz + 3) & ~3u);
          size_t next = desc_off + ((nh.n_descsz + 3) & ~3u);
          if (next > notes.size()) break;
          if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && std::memcmp(notes.data() + name_off, "GNU", 4) == 0) {
            for (uint32_t i = 0; i < nh.n_descsz; ++i)
              out += fmt::format("{:02x}", static_cast<unsigned char>(notes[desc_off + i]));
            return out;
          }
          off = next;
        }
      }
    }
  }
  return out;
}

std::string archives_dir_for(const std::string& experiment) {
  std::string own = strip_slashes(experiment) + "/" + format::kArchivesDir;
  if (fs::is_directory(own)) return own;
  return founder_of(experiment) + "/" + format::kArchivesDir;
}

std::vector<ArchiveEntry> read_archives(const std::string& dir) {
  std::vector<ArchiveEntry> out;
  std::error_code ec;
  for (const auto& d : fs::directory_iterator(dir, ec)) {
    std::string name = d.path().filename().string();
    if (name.size() < 9 || name.substr(name.size() - 8) != ".archive") continue;
    // An entry is a few lines: anything else (a FIFO, a 100 GiB hole) is not read (issue 10).
    std::error_code fec;
    if (!d.is_regular_file(fec) || d.file_size(fec) > 65536 || fec) continue;
    std::ifstream in(d.path());
    std::string line;
    if (!std::getline(in, line) || line != kArchiveMagic) continue;
    ArchiveEntry e;
    e.entry_file = name;
    while (std::getline(in, line)) {
      size_t eq = line.find('=');
      if (eq == std::string::npos) continue;
      std::string k = line.substr(0, eq), v = line.substr(eq + 1);
      if (k == "path") e.path = v;
      else if (k == "buildid") e.build_id = v;
      else if (k == "file_buildid") e.file_build_id = v;
      else if (k == "size") e.size = std::strtoull(v.c_str(), nullptr, 10);
      else if (k == "mtime_ns") e.mtime_ns = std::strtoll(v.c_str(), nullptr, 10);
      else if (k == "checksum") e.checksum = v;
      else if (k == "host") e.host = v;
      else if (k == "copy") e.copy = v.find('/') == std::string::npos && v != ".." ? v : "";
      else if (k == "warning") e.warnings.push_back(v);
    }
    out.push_back(std::move(e));
  }
  return out;
}

ArchiveReport write_archives(const std::string& experiment, const ArchiveOptions& opt) {
  ArchiveReport r;
  std::string founder = founder_of(experiment);
  Owner owner;
  if (!is_experiment(founder) || !owner_of(founder, &owner)) {
    r.error = fmt::format("{}: not an experiment", experiment);
    return r;
  }
  if (!needs_owner_rights(owner)) return write_archives_here(founder, opt);
  // Root on another user's experiment: everything is read and written with the owner's rights.
  std::string out, error;
  if (!run_as_owner(owner, [&] { return serialize(write_archives_here(founder, opt)); }, &out, &error)) {
    r.error = fmt::format("{}: {}", experiment, error);
    return r;
  }
  return deserialize(out);
}

namespace {

ArchiveReport write_archives_here(const std::string& founder, const ArchiveOptions& opt) {
  ArchiveReport r;
  struct stat est;
  if (stat(founder.c_str(), &est) != 0 || !S_ISDIR(est.st_mode)) {
    r.error = fmt::format("{}: not an experiment", founder);
    return r;
  }
  std::set<std::pair<std::string, std::string>> objects;
  map_objects(founder, &objects);
  std::error_code ec;
  for (const auto& d : fs::directory_iterator(founder, ec)) {
    std::string n = d.path().filename().string();
    if (d.is_directory() && !d.is_symlink() && n.size() > 4 && n[0] == '_' && n.substr(n.size() - 3) == ".er")
      map_objects(d.path().string(), &objects);
  }
  // archives/ and its files follow the experiment's mode (collect's umask): never wider.
  mode_t exp_mode = est.st_mode & 0755;
  std::string dir = founder + "/" + format::kArchivesDir;
  if (mkdir(dir.c_str(), exp_mode | 0700) != 0 && errno != EEXIST) {
    r.error = fmt::format("cannot create {}: {}", dir, std::strerror(errno));
    return r;
  }
  int dirfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dirfd < 0) {
    r.error = fmt::format("cannot use {}: {}", dir,
                          errno == ELOOP || errno == ENOTDIR ? "not a directory" : std::strerror(errno));
    return r;
  }
  mode_t entry_mode = (exp_mode & 0644) | 0600;
  std::string host = host_name();
  // Archiving elsewhere than where the experiment was recorded records other files.
  std::string recorded_host, sysroot;
  {
    read_text_lines(founder + "/" + format::kLogFile, [&](std::string_view line, uint64_t) {
      if (!recorded_host.empty()) return;
      auto ev = common::parse_text_event(line);
      if (ev && ev->name == "start") recorded_host = ev->get("host");
      if (ev && ev->name == "setting" && ev->get("name") == "emulation") sysroot = ev->get("sysroot");
    });
  }
  auto regular_in_dir = [&](const std::string& name) {
    struct stat st;
    return fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode);
  };
  for (const auto& [path, bid] : objects) {
    std::string file = on_host(sysroot, path);  // what the recorded path named for the target
    std::string stem = base_name(path) + "." + entry_key(path, bid);
    std::string entry_name = stem + ".archive";
    std::string old_copy;  // a copy made earlier stays valid for this identity
    if (regular_in_dir(entry_name)) {
      for (const auto& e : read_archives(dir))
        if (e.entry_file == entry_name && !e.copy.empty() && regular_in_dir(e.copy)) old_copy = e.copy;
      // Copy mode asked later (er_archive -A) adds the copy to an entry written without one.
      if (!opt.force && (!opt.copy || !old_copy.empty())) {
        ++r.kept;
        continue;
      }
    }
    ArchiveEntry e;
    e.path = path;
    e.build_id = bid;
    e.host = host;
    if (!recorded_host.empty() && recorded_host != host)
      e.warnings.push_back(fmt::format("archived on {}, but the experiment was recorded on {}", host, recorded_host));
    int fd = -1;
    struct stat st;
    std::string why = check_object(file, &fd, &st);
    if (!why.empty()) {
      e.warnings.push_back(why);
    } else {
      e.size = uint64_t(st.st_size);
      e.mtime_ns = mtime_ns(st);
      e.file_build_id = file_build_id_of_fd(fd);
      // A build-id already names the content; reading whole libraries to hash them again cost
      // collect ~6 ms of CPU at every exit for a program linked only with libc.
      if (e.file_build_id.empty()) e.checksum = checksum_of_fd(fd);
      if (!bid.empty() && e.file_build_id != bid) {
        e.warnings.push_back(fmt::format("the file's build-id ({}) differs from the one recorded ({}): it changed "
                                         "after the experiment was recorded",
                                         e.file_build_id.empty() ? "none" : e.file_build_id, bid));
      } else if (opt.copy) {
        if (copy_object(fd, st, dirfd, stem, exp_mode)) {
          e.copy = stem;
          ++r.copied;
        } else {
          e.warnings.push_back("the load object could not be copied");
        }
      }
      close(fd);
    }
    if (e.copy.empty()) e.copy = old_copy;
    for (const auto& w : e.warnings) r.warnings.push_back(fmt::format("{}: {}", path, w));
    if (!write_entry(dirfd, entry_name, e, entry_mode)) {
      r.warnings.push_back(fmt::format("{}: cannot write {}/{}", path, dir, entry_name));
      continue;
    }
    ++r.archived;
  }
  close(dirfd);
  return r;
}

}  // namespace

void apply_archives(Experiment& e) {
  std::string founder = founder_of(e.path);
  std::string dir = archives_dir_for(e.path);
  // Lazily, on the first open of an experiment whose collection ended before archiving (the
  // target or collect was killed): archive now, on what is most likely the recording machine.
  auto it = e.log.settings.find(log_setting::kArchive);
  std::string mode = it == e.log.settings.end() ? "off" : it->second.count(log_key::kValue) ? it->second.at(log_key::kValue) : "off";
  if (mode != "off" && !fs::is_directory(dir) && access(founder.c_str(), W_OK) == 0) {
    ArchiveOptions opt;
    opt.copy = mode == "copy";
    ArchiveReport r = write_archives(founder, opt);
    if (r.error.empty()) e.archived_on_open = true;
  }
  std::vector<ArchiveEntry> entries = read_archives(dir);
  std::map<std::pair<std::string, std::string>, const ArchiveEntry*> by_key;
  for (const auto& a : entries) by_key[{a.path, a.build_id}] = &a;
  std::map<std::string, std::string> id_cache;  // path -> build-id of the file now
  std::string sysroot;  // the target ran under qemu-user: its files are under the sysroot
  if (auto em = e.log.settings.find(log_setting::kEmulation); em != e.log.settings.end() && em->second.count(log_key::kSysroot))
    sysroot = em->second.at(log_key::kSysroot);
  std::set<std::string> reported;
  for (auto& lo : e.objects) {
    if (lo.path.empty() || lo.path.rfind(e.path, 0) == 0) continue;  // kept inside the experiment
    auto found = by_key.find({lo.path, lo.build_id});
    const ArchiveEntry* a = found == by_key.end() ? nullptr : found->second;
    struct stat st;
    std::string file = on_host(sysroot, lo.path);
    bool exists = regular_file(file, &st);
    std::string why;
    if (!exists) {
      why = "is missing";
    } else if (!lo.build_id.empty()) {
      auto [cit, fresh] = id_cache.try_emplace(file);
      if (fresh) cit->second = file_build_id(file);
      if (cit->second != lo.build_id)
        why = fmt::format("changed since it was recorded (build-id {} instead of {})",
                          cit->second.empty() ? "none" : cit->second, lo.build_id);
    } else if (a && a->size && (uint64_t(st.st_size) != a->size || mtime_ns(st) != a->mtime_ns)) {
      why = "changed since it was recorded (size or modification time differ)";
    }
    if (why.empty()) {
      if (file != lo.path) lo.file = file;
      if (a && !a->warnings.empty() && reported.insert(lo.path).second)
        e.problems.push_back({format::kArchivesDir, fmt::format("{}: {}", lo.path, a->warnings.front())});
      continue;
    }
    std::string copy = a && !a->copy.empty() ? dir + "/" + a->copy : "";
    bool use_copy = !copy.empty() && regular_file(copy, &st);
    if (use_copy) lo.file = copy;
    if (!reported.insert(lo.path).second) continue;
    if (use_copy)
      e.problems.push_back({format::kMapFile, fmt::format("{} {}: using its archived copy {}", lo.path, why, copy)});
    else
      e.problems.push_back({format::kMapFile,
                            fmt::format("{} {}; no archived copy: its functions may be named wrongly or not at all "
                                        "(record with collect -A copy, or run er_archive -A before changing it)",
                                        lo.path, why)});
  }
}

}  // namespace erkit::reader
