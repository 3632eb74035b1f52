#include "collect/hwc_events.h"

#include <fmt/format.h>
#include <linux/perf_event.h>
#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "collect/hwc_perf_terms.h"
#include "common/text_escape.h"
#include "format/hwc_attr.h"
#include "format/log_keys.h"

namespace erkit::collect {
namespace {

namespace fs = std::filesystem;

uint64_t cache_config(uint64_t cache, uint64_t op, uint64_t result) { return cache | (op << 8) | (result << 16); }

std::vector<HwcKnown> make_builtin() {
  using K = HwcKnown;
  const uint32_t HW = PERF_TYPE_HARDWARE, SW = PERF_TYPE_SOFTWARE, HC = PERF_TYPE_HW_CACHE;
  const uint64_t RD = PERF_COUNT_HW_CACHE_OP_READ, WR = PERF_COUNT_HW_CACHE_OP_WRITE;
  const uint64_t ACC = PERF_COUNT_HW_CACHE_RESULT_ACCESS, MISS = PERF_COUNT_HW_CACHE_RESULT_MISS;
  std::vector<K> v = {
      // Well-known (alias) names of the manual, over the generic perf events.
      {"cycles", "cpu-cycles", "CPU Cycles", HW, PERF_COUNT_HW_CPU_CYCLES, 9999991, "", true, false, false},
      {"insts", "instructions", "Instructions Executed", HW, PERF_COUNT_HW_INSTRUCTIONS, 9999991, "", false, false, false},
      {"cacheref", "cache-references", "Cache References", HW, PERF_COUNT_HW_CACHE_REFERENCES, 100003, "load-store", false, false, false},
      {"cachem", "cache-misses", "Cache Misses", HW, PERF_COUNT_HW_CACHE_MISSES, 10007, "load-store", false, false, false},
      {"branches", "branch-instructions", "Branch Instructions", HW, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 1000003, "", false, false, false},
      {"brm", "branch-misses", "Branch Mispredictions", HW, PERF_COUNT_HW_BRANCH_MISSES, 10007, "", false, false, false},
      {"buscycles", "bus-cycles", "Bus Cycles", HW, PERF_COUNT_HW_BUS_CYCLES, 1000003, "", false, false, false},
      {"festalls", "stalled-cycles-frontend", "Front-end Stall Cycles", HW, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 1000003, "", true, false, false},
      {"bestalls", "stalled-cycles-backend", "Back-end Stall Cycles", HW, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, 1000003, "", true, false, false},
      {"refcycles", "ref-cycles", "Reference Cycles", HW, PERF_COUNT_HW_REF_CPU_CYCLES, 9999991, "", true, false, false},
      {"dcr", "L1-dcache-loads", "L1 D-cache Reads", HC, cache_config(PERF_COUNT_HW_CACHE_L1D, RD, ACC), 1000003, "load", false, false, false},
      {"dcm", "L1-dcache-load-misses", "L1 D-cache Read Misses", HC, cache_config(PERF_COUNT_HW_CACHE_L1D, RD, MISS), 100003, "load", false, false, false},
      {"dcw", "L1-dcache-stores", "L1 D-cache Writes", HC, cache_config(PERF_COUNT_HW_CACHE_L1D, WR, ACC), 1000003, "store", false, false, false},
      {"icm", "L1-icache-load-misses", "L1 I-cache Misses", HC, cache_config(PERF_COUNT_HW_CACHE_L1I, RD, MISS), 100003, "", false, false, false},
      {"ecr", "LLC-loads", "Last-level Cache Reads", HC, cache_config(PERF_COUNT_HW_CACHE_LL, RD, ACC), 100003, "load", false, false, false},
      {"ecrm", "LLC-load-misses", "Last-level Cache Read Misses", HC, cache_config(PERF_COUNT_HW_CACHE_LL, RD, MISS), 10007, "load", false, false, false},
      {"ecwm", "LLC-store-misses", "Last-level Cache Write Misses", HC, cache_config(PERF_COUNT_HW_CACHE_LL, WR, MISS), 10007, "store", false, false, false},
      {"dtlbm", "dTLB-load-misses", "Data TLB Misses", HC, cache_config(PERF_COUNT_HW_CACHE_DTLB, RD, MISS), 10007, "load", false, false, false},
      {"itlbm", "iTLB-load-misses", "Instruction TLB Misses", HC, cache_config(PERF_COUNT_HW_CACHE_ITLB, RD, MISS), 10007, "", false, false, false},
      // Software events: every Linux machine has them, PMU or not.
      {"cpu-clock", "cpu-clock", "CPU Clock (ns)", SW, PERF_COUNT_SW_CPU_CLOCK, 1000003, "", false, true, false},
      {"task-clock", "task-clock", "Task Clock (ns)", SW, PERF_COUNT_SW_TASK_CLOCK, 1000003, "", false, true, false},
      {"page-faults", "page-faults", "Page Faults", SW, PERF_COUNT_SW_PAGE_FAULTS, 1, "load-store", false, true, true},
      {"minor-faults", "minor-faults", "Minor Page Faults", SW, PERF_COUNT_SW_PAGE_FAULTS_MIN, 1, "load-store", false, true, true},
      {"major-faults", "major-faults", "Major Page Faults", SW, PERF_COUNT_SW_PAGE_FAULTS_MAJ, 1, "load-store", false, true, true},
      {"context-switches", "context-switches", "Context Switches", SW, PERF_COUNT_SW_CONTEXT_SWITCHES, 1, "", false, true, false},
      {"cpu-migrations", "cpu-migrations", "CPU Migrations", SW, PERF_COUNT_SW_CPU_MIGRATIONS, 1, "", false, true, false},
      {"alignment-faults", "alignment-faults", "Alignment Faults", SW, PERF_COUNT_SW_ALIGNMENT_FAULTS, 1, "load-store", false, true, true},
      {"emulation-faults", "emulation-faults", "Emulation Faults", SW, PERF_COUNT_SW_EMULATION_FAULTS, 1, "", false, true, false},
  };
  return v;
}

int perf_open(perf_event_attr* a, int group) {
  return int(syscall(SYS_perf_event_open, a, 0, -1, group, PERF_FLAG_FD_CLOEXEC));
}

perf_event_attr attr_of(const HwcCounter& c) {
  perf_event_attr a;
  format::hwc_attr_init(&a, {c.type, c.config, c.config1, c.config2, c.exclude_user, c.exclude_kernel,
                             uint32_t(c.precise_ip)});
  a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return a;
}

// Whether perf_event_open accepts a counter of this type and config on this thread.
bool can_open(uint32_t type, uint64_t config) {
  HwcCounter c;
  c.type = type;
  c.config = config;
  perf_event_attr a = attr_of(c);
  int fd = perf_open(&a, -1);
  if (fd < 0) return false;
  close(fd);
  return true;
}

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

// A zeroed libpfm4 info structure with its size set, as every pfm_get_*_info call wants.
template <typename T>
T pfm_info() {
  T t;
  std::memset(&t, 0, sizeof t);
  t.size = sizeof t;
  return t;
}

bool pfm_ready() {
  static int ok = -1;
  if (ok < 0) ok = pfm_initialize() == PFM_SUCCESS ? 1 : 0;
  return ok == 1;
}

// A name libpfm4 knows for this machine's PMU (raw events, "pmu::event:umask").
bool lookup_pfm(const std::string& name, const std::string& attrs, HwcCounter* c) {
  if (!pfm_ready()) return false;
  perf_event_attr a;
  std::memset(&a, 0, sizeof a);
  auto arg = pfm_info<pfm_perf_encode_arg_t>();
  arg.attr = &a;
  std::string full = attrs.empty() ? name : name + ":" + attrs;
  if (pfm_get_os_event_encoding(full.c_str(), PFM_PLM3, PFM_OS_PERF_EVENT, &arg) != PFM_SUCCESS) return false;
  c->perf_name = name;
  c->type = a.type;
  c->config = a.config;
  c->config1 = a.config1;
  c->config2 = a.config2;
  c->interval = 1000003;
  auto info = pfm_info<pfm_event_info_t>();
  if (arg.idx >= 0 && pfm_get_event_info(arg.idx, PFM_OS_NONE, &info) == PFM_SUCCESS && info.desc)
    c->description = info.desc;
  return true;
}

// "pmu/event" or "event" from /sys/bus/event_source/devices/<pmu>/events/<event> ("event=0x3c,umask=0").
bool lookup_sysfs(const std::string& name, HwcCounter* c) {
  std::error_code ec;
  for (const auto& dev : fs::directory_iterator("/sys/bus/event_source/devices", ec)) {
    std::string pmu = dev.path().filename().string();
    std::string ev = name;
    if (auto slash = name.find('/'); slash != std::string::npos) {
      if (name.substr(0, slash) != pmu) continue;
      ev = name.substr(slash + 1);
    }
    std::ifstream f(dev.path() / "events" / ev);
    std::string def;
    if (!f || !std::getline(f, def)) continue;
    std::ifstream tf(dev.path() / "type");
    uint32_t type = 0;
    if (!(tf >> type)) continue;
    uint64_t config = 0;
    // Only the common "event=0x..,umask=0x.." encodings of the cpu PMU's format directory.
    size_t pos = 0;
    while (pos < def.size()) {
      size_t comma = def.find(',', pos);
      std::string term = def.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      pos = comma == std::string::npos ? def.size() : comma + 1;
      auto eq = term.find('=');
      std::string k = term.substr(0, eq);
      uint64_t v = eq == std::string::npos ? 1 : std::stoull(term.substr(eq + 1), nullptr, 0);
      if (k == "event") config |= v & 0xff;
      else if (k == "umask") config |= (v & 0xff) << 8;
      else if (k == "cmask") config |= (v & 0xff) << 24;
      else if (k == "inv") config |= (v & 1) << 23;
      else if (k == "edge") config |= (v & 1) << 18;
      else return false;  // an encoding this reader does not know: let libpfm4 answer
    }
    c->perf_name = pmu + "/" + ev;
    c->type = type;
    c->config = config;
    c->interval = 1000003;
    c->description = "raw event of PMU " + pmu;
    return true;
  }
  return false;
}

bool parse_interval(const std::string& v, uint64_t def, uint64_t* out) {
  if (v == "on" || v.empty()) *out = def;
  else if (v == "hi" || v == "high") *out = std::max<uint64_t>(1, def / 10);
  else if (v == "lo" || v == "low") *out = def * 10;
  else {
    if (v.find_first_not_of("0123456789") != std::string::npos) return false;
    try {
      *out = std::stoull(v);
    } catch (...) {
      return false;
    }
    if (*out == 0) return false;
  }
  return true;
}

bool is_interval_word(const std::string& w) {
  return w == "on" || w == "hi" || w == "high" || w == "lo" || w == "low" ||
         (!w.empty() && w.find_first_not_of("0123456789") == std::string::npos);
}

// ~attr=value: perf modifiers for the built-in events, libpfm4 modifiers for raw ones.
bool apply_attr(HwcCounter* c, const std::string& kv, std::string* pfm_attrs, std::string* error) {
  auto eq = kv.find('=');
  if (eq == std::string::npos) {
    *error = fmt::format("bad counter attribute '~{}': use ~name=value", kv);
    return false;
  }
  std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
  uint64_t n = 0;
  try {
    size_t used = 0;
    n = std::stoull(v, &used, 0);
    if (used != v.size()) throw std::invalid_argument(v);
  } catch (...) {
    *error = fmt::format("bad value '{}' of counter attribute '{}': decimal or 0x hex", v, k);
    return false;
  }
  if (k == "user") c->exclude_user = n == 0;
  else if (k == "system" || k == "kernel") c->exclude_kernel = n == 0;
  else if (k == "precise") c->precise_ip = int(n > 3 ? 3 : n);
  else if (k == "period") c->interval = n;
  else if (k == "config1") c->config1 = n;
  else if (k == "config2") c->config2 = n;
  else if (!c->software && c->type == PERF_TYPE_RAW) {
    if (k == "umask") c->config = (c->config & ~0xff00ull) | ((n & 0xff) << 8);
    else if (k == "cmask") c->config = (c->config & ~0xff000000ull) | ((n & 0xff) << 24);
    else if (k == "edge") c->config = (c->config & ~(1ull << 18)) | ((n & 1) << 18);
    else if (k == "inv") c->config = (c->config & ~(1ull << 23)) | ((n & 1) << 23);
    else if (k == "any") c->config = (c->config & ~(1ull << 21)) | ((n & 1) << 21);
    else {
      if (!pfm_attrs->empty()) *pfm_attrs += ":";
      *pfm_attrs += fmt::format("{}={}", k, n);
    }
  } else {
    *error = fmt::format("counter '{}' has no attribute '{}' (known: user, system, precise, period)", c->name, k);
    return false;
  }
  return true;
}

// A raw spelling of an event collect also knows by name (perf::PERF_COUNT_SW_PAGE_FAULTS,
// software/config=2/): it keeps its own name and metric (issue 19) but is the same event, so
// it counts as software, memory-related and with the kernel's data address as that one does.
void inherit_traits(HwcCounter* c) {
  if (c->config1 || c->config2) return;
  for (const auto& k : make_builtin())
    if (k.type == c->type && k.config == c->config) {
      c->memory = k.memory;
      c->software = k.software;
      c->precise_addr = k.precise_addr;
      if (c->description.empty() || c->description.starts_with("raw event")) c->description = k.description;
      return;
    }
}

}  // namespace

const std::vector<HwcKnown>& hwc_builtin_events() {
  static const std::vector<HwcKnown> v = make_builtin();
  return v;
}

bool parse_hwc_spec(const std::string& spec, std::vector<HwcCounter>* out, std::string* error) {
  auto words = split_counter_list(spec);  // "pmu/a=1,b=2/" stays one counter
  for (size_t i = 0; i < words.size(); ++i) {
    std::string w = words[i];
    if (w.empty()) {
      *error = fmt::format("bad -h value '{}': empty counter name", spec);
      return false;
    }
    HwcCounter c;
    if (w[0] == '+') {
      c.dataspace = true;
      w.erase(0, 1);
    }
    // The manual's "/register_number" (seed-spec §3.2): perf_event_open lets the kernel choose
    // the register, so it is accepted and has no effect (docs/counters.md).
    if (auto slash = w.rfind('/'); slash != std::string::npos && slash > 0 && slash + 1 < w.size() &&
                                   w[slash - 1] != '/' && w.find_first_not_of("0123456789", slash + 1) == std::string::npos)
      w.erase(slash);
    auto parts = split_fields(w, '~');
    c.name = parts[0];
    bool found = false;
    for (const auto& k : hwc_builtin_events()) {
      if (k.name != c.name && k.perf_name != c.name) continue;
      c.name = k.name;  // the manual's alias: the metric's name
      c.perf_name = k.perf_name;
      c.description = k.description;
      c.type = k.type;
      c.config = k.config;
      c.interval = k.default_interval;
      c.memory = k.memory;
      c.cycles = k.cycles;
      c.software = k.software;
      c.precise_addr = k.precise_addr;
      found = true;
      break;
    }
    std::string pfm_attrs;
    if (!found) {
      if (is_perf_term_spelling(c.name)) {  // perf's "pmu/config=N/", "cpu/event=0x3c,umask=0/"
        PerfEncoding pe;
        std::string err;
        if (!encode_perf_terms("/sys/bus/event_source/devices", c.name, &pe, &err)) {
          *error = fmt::format("counter '{}': {}", c.name, err);
          return false;
        }
        c.perf_name = c.name;
        c.type = pe.type;
        c.config = pe.config;
        c.config1 = pe.config1;
        c.config2 = pe.config2;
        c.interval = 1000003;
        c.description = "raw event of PMU " + c.name.substr(0, c.name.find('/'));
        found = true;
      }
      // libpfm4 takes modifiers in the name; try it with the attributes later.
      found = found || lookup_sysfs(c.name, &c) || lookup_pfm(c.name, "", &c);
      if (!found) {
        *error = fmt::format("unknown counter '{}'; run collect with no arguments for this machine's list", c.name);
        return false;
      }
      inherit_traits(&c);
    }
    for (size_t a = 1; a < parts.size(); ++a)
      if (!apply_attr(&c, parts[a], &pfm_attrs, error)) return false;
    if (!pfm_attrs.empty() && !lookup_pfm(c.name, pfm_attrs, &c)) {
      *error = fmt::format("counter '{}' does not accept the attributes '{}'", c.name, pfm_attrs);
      return false;
    }
    // '+' on a counter that is not memory-related is allowed: the analysis decodes the
    // instruction at the PC (docs/dataspace.md).
    if (c.dataspace && !c.software && c.precise_ip == 0 && !c.memory.empty()) {
      c.precise_ip = 2;  // PEBS/IBS/SPE give the address of the sampled access
      c.precise_addr = true;
    }
    if (i + 1 < words.size() && is_interval_word(words[i + 1])) {
      if (!parse_interval(words[i + 1], c.interval, &c.interval)) {
        *error = fmt::format("bad interval '{}' for counter '{}'", words[i + 1], c.name);
        return false;
      }
      ++i;
    }
    for (const auto& prev : *out)
      if (prev.name == c.name) {
        *error = fmt::format("counter '{}' given twice", c.name);
        return false;
      }
    out->push_back(std::move(c));
  }
  return true;
}

std::string hwc_unavailable_reason() {
  if (can_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)) return "";
  int err = errno;
  int paranoid = 2;
  if (std::ifstream f("/proc/sys/kernel/perf_event_paranoid"); f) f >> paranoid;
  std::error_code ec;
  bool container = fs::exists("/.dockerenv", ec) || fs::exists("/run/.containerenv", ec);
  bool cpu_pmu = fs::exists("/sys/bus/event_source/devices/cpu", ec) ||
                 fs::exists("/sys/bus/event_source/devices/armv8_pmuv3", ec) ||
                 fs::exists("/sys/bus/event_source/devices/armv8_pmuv3_0", ec);
  if (err == EACCES || err == EPERM)
    return fmt::format("perf_event_open refused (perf_event_paranoid is {}{}): lower it to 2 or less", paranoid,
                       container ? "; or the container's seccomp profile blocks it" : "");
  if (err == ENOSYS) return "perf_event_open is not available (kernel or container seccomp)";
  if (!cpu_pmu || err == ENOENT || err == EOPNOTSUPP)
    return fmt::format("this machine exposes no hardware performance monitoring unit to perf_event_open "
                       "(no cpu PMU in /sys/bus/event_source/devices{}); software events still work",
                       container ? ", running in a container" : ", as in most virtual machines");
  return fmt::format("perf_event_open failed: {}", std::strerror(err));
}

bool probe_hwc(const std::vector<HwcCounter>& counters, std::string* error) {
  std::vector<int> fds;
  auto close_all = [&] {
    for (int fd : fds) close(fd);
  };
  std::vector<std::string> refused;
  for (const auto& c : counters) {
    perf_event_attr a = attr_of(c);
    int fd = perf_open(&a, -1);
    if (fd < 0 && c.precise_ip) {  // no PEBS/IBS: the analysis decodes instead
      a.precise_ip = 0;
      fd = perf_open(&a, -1);
    }
    if (fd < 0) {
      refused.push_back(fmt::format("{} ({})", c.name, errno == ENOENT || errno == EOPNOTSUPP
                                                            ? hwc_unavailable_reason()
                                                            : std::strerror(errno)));
      continue;
    }
    fds.push_back(fd);
  }
  if (!refused.empty()) {
    close_all();
    *error = "cannot count " + join(refused, "; ");
    return false;
  }
  // Counters that cannot be scheduled together: enable all, run a little, check each ran.
  for (int fd : fds) ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
  volatile uint64_t sink = 0;
  for (int i = 0; i < 2000000; ++i) sink = sink + uint64_t(i);
  std::vector<std::string> starved;
  for (size_t i = 0; i < fds.size(); ++i) {
    uint64_t v[3] = {};
    if (read(fds[i], v, sizeof v) == ssize_t(sizeof v) && v[1] > 0 && v[2] * 10 < v[1] * 9 &&
        !counters[i].software)
      starved.push_back(counters[i].name);
  }
  close_all();
  if (!starved.empty()) {
    *error = fmt::format("counters {} cannot be counted together on this machine's PMU (they share registers); "
                         "profile them in separate experiments",
                         join(starved, ", "));
    return false;
  }
  return true;
}

void print_hwc_lists(FILE* out) {
  std::string reason = hwc_unavailable_reason();
  fmt::print(out, "Well known HW counters available for profiling:\n");
  int n = 0;
  for (const auto& k : hwc_builtin_events()) {
    if (k.software) continue;
    if (!reason.empty()) break;
    if (!can_open(k.type, k.config)) continue;
    fmt::print(out, "  {}[/{{any}}],{} ('{}', alias for {}; {}{})\n", k.name, k.default_interval, k.description,
               k.perf_name, k.memory.empty() ? "" : k.memory + " ", k.cycles ? "CPU-cycles" : "events");
    ++n;
  }
  if (!reason.empty()) fmt::print(out, "  (none: {})\n", reason);
  fmt::print(out, "\nSoftware events available for profiling (perf_event_open, any machine):\n");
  for (const auto& k : hwc_builtin_events()) {
    if (!k.software || !can_open(k.type, k.config)) continue;
    fmt::print(out, "  {},{} ('{}'; {}{})\n", k.name, k.default_interval, k.description,
               k.memory.empty() ? "" : k.memory + " ", k.cycles ? "CPU-cycles" : "events");
  }
  fmt::print(out, "\nRaw HW counters available for profiling:\n");
  int raw = 0;
  if (reason.empty() && pfm_ready()) {
    for (int p = PFM_PMU_NONE; p < PFM_PMU_MAX; ++p) {
      auto pinfo = pfm_info<pfm_pmu_info_t>();
      if (pfm_get_pmu_info(pfm_pmu_t(p), &pinfo) != PFM_SUCCESS || !pinfo.is_present) continue;
      if (pinfo.type != PFM_PMU_TYPE_CORE) continue;
      for (int i = pinfo.first_event; i != -1; i = pfm_get_event_next(i)) {
        auto info = pfm_info<pfm_event_info_t>();
        if (pfm_get_event_info(i, PFM_OS_NONE, &info) != PFM_SUCCESS) continue;
        fmt::print(out, "  {}::{}[/{{any}}],1000003 (events)\n", pinfo.name, info.name);
        ++raw;
      }
    }
  }
  if (!raw) fmt::print(out, "  (none: {})\n", reason.empty() ? "libpfm4 knows no core PMU of this CPU" : reason);
  fmt::print(out, "\nUse '+' before a load, store or load-store counter (and with -p on,+ before clock\n"
                  "  profiling) to record data addresses for data_objects, data_layout and memobj.\n");
  (void)n;
}

std::string hwc_env_value(const std::vector<HwcCounter>& counters, bool clock_dataspace) {
  std::string s;
  for (const auto& c : counters) {
    uint32_t flags = (c.dataspace ? 1u : 0u) | (c.dataspace && c.precise_addr ? 2u : 0u) |
                     (c.exclude_user ? 4u : 0u) | (c.exclude_kernel ? 8u : 0u) | (uint32_t(c.precise_ip & 3) << 4);
    if (!s.empty()) s += "/";
    s += fmt::format("{}:{}:{}:{}:{}:{}", c.type, c.config, c.config1, c.config2, c.interval, flags);
  }
  if (clock_dataspace) s += s.empty() ? "clock+" : "/clock+";
  return s;
}

std::vector<std::string> hwc_log_lines(const std::vector<HwcCounter>& counters) {
  std::vector<std::string> out;
  for (size_t i = 0; i < counters.size(); ++i) {
    const auto& c = counters[i];
    namespace logkey = format::log_key;
    out.push_back(common::EventLine(0, format::log_event::kHwc)
                      .kv(logkey::kIndex, uint64_t(i))
                      .kv(logkey::kName, c.name)
                      .kv(logkey::kPerf, c.perf_name)
                      .kv_quoted(logkey::kDescription, c.description)  // escaped since issue 18
                      .kv(logkey::kInterval, c.interval)
                      .kv(logkey::kUnit, c.cycles ? "cycles" : "events")
                      .kv(logkey::kMemory, c.memory.empty() ? "-" : c.memory)
                      .kv(logkey::kDataspace, c.dataspace ? 1 : 0)
                      .str());
  }
  return out;
}

}  // namespace erkit::collect
