#include "reader/gprofng_experiment.h"

#include <elf.h>
#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

namespace erkit::reader {

namespace fs = std::filesystem;

namespace {

// gprofng's packet types (common/data_pckts.h of binutils): every packet starts with its
// size (u16) and type (u16); type 0 pads a 64 KiB block.
constexpr uint16_t kPadPacket = 0, kClockPacket = 8, kFramePacket = 11;
constexpr uint32_t kStackInfo = 1;  // native PCs, leaf first

// Files are bounded: gprofng writes 64 KiB blocks; more than this is not an experiment of its.
constexpr uintmax_t kMaxFile = uintmax_t(1) << 34;

std::string read_file(const std::string& path, bool* ok) {
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  *ok = !ec && size <= kMaxFile;
  if (!*ok) return {};
  std::ifstream in(path, std::ios::binary);
  std::string s(size, '\0');
  in.read(s.data(), std::streamsize(size));
  s.resize(size_t(in.gcount()));
  // The XML files are 64 KiB blocks padded with NULs.
  return s;
}

// The value of attribute `name` in one XML tag's text, or nullopt.
std::optional<std::string> attr(std::string_view tag, std::string_view name) {
  std::string key = std::string(" ") + std::string(name) + "=\"";
  size_t at = tag.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  at += key.size();
  size_t end = tag.find('"', at);
  if (end == std::string_view::npos) return std::nullopt;
  return std::string(tag.substr(at, end - at));
}

std::optional<uint64_t> num(const std::optional<std::string>& s) {
  if (!s || s->empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(s->c_str(), &end, 0);
  if (errno || end == s->c_str()) return std::nullopt;
  return uint64_t(v);
}

// "11555.200061184" (seconds.nanoseconds) -> ns.
uint64_t tstamp_ns(const std::optional<std::string>& s) {
  if (!s) return 0;
  size_t dot = s->find('.');
  uint64_t sec = std::strtoull(s->substr(0, dot).c_str(), nullptr, 10), frac = 0;
  if (dot != std::string::npos) {
    std::string f = s->substr(dot + 1, 9);
    f.resize(9, '0');
    frac = std::strtoull(f.c_str(), nullptr, 10);
  }
  return sec * 1'000'000'000 + frac;
}

// Every tag "<name ...>" of an XML text, in order (gprofng's files are one tag per line).
template <typename F>
void for_each_tag(const std::string& text, F f) {
  size_t at = 0;
  while ((at = text.find('<', at)) != std::string::npos) {
    size_t end = text.find('>', at);
    if (end == std::string::npos) break;
    std::string_view tag(text.data() + at + 1, end - at - 1);
    size_t sp = tag.find_first_of(" />");
    f(tag.substr(0, sp), tag);
    at = end + 1;
  }
}

// The ELF virtual address of the PT_LOAD segment at file offset `off` (bias = mapped - this).
std::optional<uint64_t> segment_vaddr(const std::string& file, uint64_t off) {
  std::ifstream in(file, std::ios::binary);
  Elf64_Ehdr eh;
  if (!in.read(reinterpret_cast<char*>(&eh), sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 4096)
    return std::nullopt;
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    in.seekg(std::streamoff(eh.e_phoff + i * sizeof ph));
    if (!in.read(reinterpret_cast<char*>(&ph), sizeof ph)) return std::nullopt;
    if (ph.p_type == PT_LOAD && (ph.p_offset & ~uint64_t(0xfff)) == (off & ~uint64_t(0xfff)))
      return ph.p_vaddr & ~uint64_t(0xfff);
  }
  return std::nullopt;
}

struct ClockLayout {
  uint32_t lwpid = 8, thrid = 16, cpuid = 24, tstamp = 28, frinfo = 36, mstate = 44, ntick = 48;
  uint64_t interval_ns = 0;
  uint64_t start_ns = 0;  // the "run" event: packets' timestamps count from the machine's boot
};

template <typename T>
T field(const std::string& d, size_t at) {
  T v;
  std::memcpy(&v, d.data() + at, sizeof v);
  return v;
}

void read_log(Experiment& e, ClockLayout* cl) {
  bool ok = false;
  std::string text = read_file(e.path + "/log.xml", &ok);
  if (!ok) {
    e.problems.push_back({"log.xml", "cannot be read"});
    return;
  }
  auto& l = e.log;
  l.format_version = 1;
  bool in_clock = false;
  for_each_tag(text, [&](std::string_view name, std::string_view tag) {
    if (name == "experiment") {
      l.collect_version = "gprofng " + attr(tag, "version").value_or("?");
    } else if (name == "system") {
      l.host = attr(tag, "hostname").value_or("");
      l.arch = attr(tag, "arch").value_or("");
      l.os = attr(tag, "os").value_or("");
      l.pagesize = int64_t(num(attr(tag, "pagesz")).value_or(0));
    } else if (name == "cpu") {
      ++l.ncpus;
    } else if (name == "process") {
      if (auto p = num(attr(tag, "pid"))) l.pid = int64_t(*p);
      if (auto p = num(attr(tag, "ppid"))) l.ppid = int64_t(*p);
      if (auto c = attr(tag, "cwd")) l.cwd = *c;
    } else if (name == "profile") {
      in_clock = attr(tag, "name") == "profile";
      // ptimer: the clock-profiling interval in microseconds.
      if (in_clock) cl->interval_ns = num(attr(tag, "ptimer")).value_or(0) * 1000;
    } else if (name == "profpckt") {
      in_clock = in_clock && num(attr(tag, "kind")) == kClockPacket;
    } else if (name == "field" && in_clock) {
      const auto n = attr(tag, "name");
      const uint32_t off = uint32_t(num(attr(tag, "offset")).value_or(0));
      if (n == "LWPID") cl->lwpid = off;
      else if (n == "THRID") cl->thrid = off;
      else if (n == "CPUID") cl->cpuid = off;
      else if (n == "TSTAMP") cl->tstamp = off;
      else if (n == "FRINFO") cl->frinfo = off;
      else if (n == "MSTATE") cl->mstate = off;
      else if (n == "NTICK") cl->ntick = off;
    } else if (name == "/profile") {
      in_clock = false;
    } else if (name == "event") {
      const uint64_t t = tstamp_ns(attr(tag, "tstamp"));
      const auto kind = attr(tag, "kind");
      if (kind == "run") {  // its tstamp is on the packets' clock; other events count from it
        if (!cl->start_ns) cl->start_ns = t;
        return;
      }
      l.last_event_ns = std::max(l.last_event_ns, t);
      if (kind == "exit") l.end_how = "exit";
    }
  });
  // The program: the text of the last <process> without attributes.
  size_t at = text.find("<process>");
  if (at != std::string::npos) {
    size_t end = text.find("</process>", at);
    if (end != std::string::npos) l.command = l.target = text.substr(at + 9, end - at - 9);
  }
  l.clock_interval_ns = cl->interval_ns;
  if (cl->interval_ns) l.settings["clock"]["interval_ns"] = std::to_string(cl->interval_ns);
}

void read_map(Experiment& e) {
  bool ok = false;
  std::string text = read_file(e.path + "/map.xml", &ok);
  if (!ok) {
    e.problems.push_back({"map.xml", "cannot be read"});
    return;
  }
  // Segments by object: the lowest mapping and extent; the bias from the segment at offset 0.
  struct Obj {
    uint64_t lo = UINT64_MAX, hi = 0, load_ns = UINT64_MAX;
    std::optional<uint64_t> bias;
  };
  std::map<std::string, Obj> objs;
  std::vector<std::string> order;
  for_each_tag(text, [&](std::string_view name, std::string_view tag) {
    if (name != "event" || attr(tag, "kind") != "map" || attr(tag, "object") != "segment") return;
    const auto path = attr(tag, "name");
    const auto vaddr = num(attr(tag, "vaddr")), size = num(attr(tag, "size"));
    if (!path || !vaddr || !size || path->empty() || (*path)[0] != '/') return;
    // The experiment's own files (log.xml, data files) are mapped too: not program code.
    std::error_code ec;
    if (fs::equivalent(fs::path(*path).parent_path(), fs::path(e.path), ec)) return;
    std::string foff = attr(tag, "foffset").value_or("+0");
    if (!foff.empty() && foff[0] == '+') foff.erase(0, 1);
    const uint64_t off = num(foff).value_or(0);
    auto [it, fresh] = objs.try_emplace(*path);
    if (fresh) order.push_back(*path);
    Obj& o = it->second;
    o.lo = std::min(o.lo, *vaddr);
    o.hi = std::max(o.hi, *vaddr + *size);
    o.load_ns = std::min(o.load_ns, tstamp_ns(attr(tag, "tstamp")));
    if (!o.bias) {
      if (auto v = segment_vaddr(*path, off)) o.bias = *vaddr - *v;
    }
  });
  for (const auto& p : order) {
    const Obj& o = objs[p];
    if (!o.bias) {
      e.problems.push_back({"map.xml", fmt::format("{}: not a readable ELF file; its code is <Unknown>", p)});
      continue;
    }
    LoadObject lo;
    lo.path = p;
    lo.lo = o.lo;
    lo.hi = o.hi;
    lo.bias = *o.bias;
    lo.load_ns = 0;  // mapped before the first sample (gprofng logs the initial map late)
    e.objects.push_back(std::move(lo));
  }
}

void read_frames(Experiment& e) {
  bool ok = false;
  std::string d = read_file(e.path + "/data.frameinfo", &ok);
  if (!ok) return;  // no stacks recorded
  size_t bad = 0;
  for (size_t at = 0; at + 4 <= d.size();) {
    const uint16_t size = field<uint16_t>(d, at), type = field<uint16_t>(d, at + 2);
    if (size < 4 || at + size > d.size()) {
      ++bad;
      break;
    }
    if (type == kFramePacket && size >= 16) {
      const uint32_t hsize = field<uint32_t>(d, at + 4);
      const uint64_t uid = field<uint64_t>(d, at + 8);
      std::vector<uint64_t> pcs;
      for (size_t p = at + std::max<uint32_t>(hsize, 16); p + 16 <= at + size;) {
        const uint32_t ih = field<uint32_t>(d, p), kind = field<uint32_t>(d, p + 4);
        if (ih < 16 || p + ih > at + size) {
          ++bad;
          break;
        }
        // Callers' PCs are taken as they are, as gprofng's own analysis does: erkit's reader
        // looks one byte before a caller's PC (return addresses), so one is added here.
        if (kind == kStackInfo)
          for (size_t q = p + 16; q + 8 <= p + ih; q += 8)
            pcs.push_back(field<uint64_t>(d, q) + (pcs.empty() ? 0 : 1));
        else
          ++bad;  // Java, OpenMP, MPI or compressed stack parts: not read
        p += ih;
      }
      e.stacks[uid] = std::move(pcs);
    }
    at += size;
  }
  if (bad)
    e.problems.push_back({"data.frameinfo", fmt::format("{} stack part(s) of a kind erkit does not read", bad)});
}

void read_clock(Experiment& e, const ClockLayout& cl) {
  bool ok = false;
  std::string d = read_file(e.path + "/profile", &ok);
  if (!ok) return;
  const uint32_t need = std::max({cl.lwpid + 8, cl.thrid + 8, cl.cpuid + 4, cl.tstamp + 8, cl.frinfo + 8,
                                  cl.mstate + 4, cl.ntick + 4});
  size_t bad = 0;
  for (size_t at = 0; at + 4 <= d.size();) {
    const uint16_t size = field<uint16_t>(d, at), type = field<uint16_t>(d, at + 2);
    if (size < 4 || at + size > d.size()) {
      ++bad;
      break;
    }
    if (type == kClockPacket) {
      if (size < need) {
        ++bad;
      } else {
        ClockSample s{};
        const uint64_t t = field<uint64_t>(d, at + cl.tstamp);
        s.tstamp_ns = t > cl.start_ns ? t - cl.start_ns : 0;
        s.stack_id = field<uint64_t>(d, at + cl.frinfo);
        s.tid = uint32_t(field<uint64_t>(d, at + cl.lwpid));
        s.cpu = field<int32_t>(d, at + cl.cpuid);
        // gprofng on Linux records one state (LMS_LINUX_CPU): CPU time, shown as user CPU.
        s.ns[format::kMsUser] = uint64_t(field<uint32_t>(d, at + cl.ntick)) * cl.interval_ns;
        e.clock.push_back(s);
      }
    } else if (type != kPadPacket) {
      ++bad;
    }
    at += size;
  }
  if (bad) e.problems.push_back({"profile", fmt::format("{} packet(s) not read (damaged or of another kind)", bad)});
  std::sort(e.clock.begin(), e.clock.end(),
            [](const ClockSample& a, const ClockSample& b) { return a.tstamp_ns < b.tstamp_ns; });
}

}  // namespace

bool is_gprofng_experiment(const std::string& path) {
  struct stat st;
  return stat((path + "/log.xml").c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         stat((path + "/" + format::kLogFile).c_str(), &st) != 0;
}

OpenResult open_gprofng_experiment(const std::string& path) {
  Experiment e;
  e.path = path;
  e.name = fs::path(path).filename().string();
  ClockLayout cl;
  read_log(e, &cl);
  if (e.log.collect_version.empty())
    return {std::nullopt, fmt::format("{}: log.xml is not a gprofng experiment log", path)};
  read_map(e);
  read_frames(e);
  read_clock(e, cl);
  e.log.monotonic_start_ns = int64_t(cl.start_ns);
  if (!e.clock.empty()) e.log.last_event_ns = std::max(e.log.last_event_ns, e.clock.back().tstamp_ns);
  e.descendants = descendant_dirs(path);
  return {std::move(e), {}};
}

}  // namespace erkit::reader
