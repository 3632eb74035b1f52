#include "dataspace/dataspace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <variant>

#include "disasm/object_code.h"
#include "dataspace/caller_locals.h"
#include "dataspace/dwarf_objects.h"
#include "dataspace/heap_blocks.h"
#include "dataspace/stack_locals.h"
#include "model/filter/filter.h"
#include "model/metric_defs.h"
#include "model/raw_counter_metrics.h"

namespace erkit::dataspace {
namespace {

// Per-file caches: DWARF data objects and machine code.
struct FileCache {
  std::map<std::string, std::unique_ptr<DataObjectTable>> tables;
  std::map<std::string, std::unique_ptr<disasm::ObjectCode>> code;
  std::map<std::string, std::unique_ptr<StackLocals>> locals;

  DataObjectTable& table(const std::string& path) {
    auto& t = tables[path];
    if (!t) t = std::make_unique<DataObjectTable>(DataObjectTable::load(path, nullptr));
    return *t;
  }
  const disasm::ObjectCode* object_code(const std::string& path) {
    auto it = code.find(path);
    if (it != code.end()) return it->second.get();
    std::string err;
    auto& c = code[path];
    c = disasm::ObjectCode::open(path, &err);
    return c.get();
  }
  const StackLocals* stack_locals(const std::string& path) {
    auto [it, fresh] = locals.try_emplace(path);
    if (fresh) it->second = StackLocals::open(path);
    return it->second.get();
  }
};

class NoNames : public filter::FunctionNames {
 public:
  size_t count() const override { return 0; }
  std::string_view name(uint32_t) const override { return {}; }
};

}  // namespace

std::string aggregate_row_name(const std::string& aggregate) { return "{" + aggregate + " -}"; }

std::string heap_object_name(const std::string& site) { return "<Heap>.(allocated at " + site + ")"; }

namespace {
// "{array:...}", "{volatile+array:...}": an array (an aggregate of its elements), not a scalar.
bool is_array(const std::string& descriptor) {
  size_t p = 1;
  for (bool more = true; more;) {
    more = false;
    for (const char* q : {"const+", "volatile+"})
      if (descriptor.compare(p, std::strlen(q), q) == 0) p += std::strlen(q), more = true;
  }
  return descriptor.compare(p, 6, "array:") == 0;
}

constexpr const char* kNoObjectAtAddress =
    "<Unknown>.(Not determinable from the symbolic information: no data object at the address)";
}  // namespace

Dataspace Dataspace::build(const std::vector<reader::Experiment>& exps, const SiteNamer& namer) {
  Dataspace d;
  FileCache files;
  std::map<std::string, uint32_t> metric_of;
  std::map<std::string, int> obj_of;
  auto metric = [&](const std::string& name, const std::string& header, bool time) {
    auto [it, fresh] = metric_of.try_emplace(name, uint32_t(d.metrics_.size()));
    if (fresh) d.metrics_.push_back({name, header, time});
    return it->second;
  };
  auto object = [&](const std::string& name, ObjectKind kind, uint64_t size) {
    auto [it, fresh] = obj_of.try_emplace(name, int(d.objs_.size()));
    if (fresh) d.objs_.push_back({name, kind, size, {}});
    return it->second;
  };
  bool any_hwc = false;
  for (uint32_t x = 0; x < exps.size(); ++x) {
    const reader::Experiment& e = exps[x];
    any_hwc |= !e.hwc.empty() || !e.log.hwc_counters.empty();
    std::vector<HeapQuery> heap_queries;  // known addresses in no variable: heap blocks?
    for (const auto& r : e.hwc) {
      if (r.addr_source == format::kHwcAddrNone || r.flags != 0) continue;
      DsEvent ev;
      ev.exp = x;
      if (r.counter == format::kHwcClockCounter) {
        ev.metric = metric("dclock", "Data CPU Time", true);
      } else {
        if (r.counter >= e.log.hwc_counters.size()) continue;
        const auto& c = e.log.hwc_counters[r.counter];
        auto get = [&](const char* k) {
          auto it = c.find(k);
          return it == c.end() ? std::string() : it->second;
        };
        std::string desc = get("description");
        // Named as the counter's function metric; a raw event's as its slot (issue 19,
        // model/raw_counter_metrics.h), not by libpfm4's long description.
        const uint32_t fm = model::hwc_counter_metric(get("name"));
        const bool raw = fm < model::kMetricCount && model::metric_def(fm).raw;
        ev.metric = metric(model::hwc_counter_metric_name(get("name")),
                           raw ? model::metric_def(fm).display : desc.empty() ? get("name") : desc, false);
      }
      ev.value = r.value;
      ev.tid = r.tid;
      ev.cpu = r.cpu;
      ev.tstamp_ns = r.tstamp_ns;
      for (const auto& s : e.samples)
        if (s.rec.tstamp_ns <= r.tstamp_ns) ev.sample = s.rec.number;
      if (r.addr_source == format::kHwcAddrPrecise) {
        ev.status = AddrStatus::kPrecise;
        ev.vaddr = r.vaddr;
        ev.paddr = r.paddr;
      } else if (r.addr_source == format::kHwcAddrRegs) {
        const reader::LoadObject* lo = e.object_at(r.pc, r.tstamp_ns);
        const disasm::ObjectCode* oc = lo ? files.object_code(lo->symbol_file()) : nullptr;
        std::vector<uint8_t> bytes;
        uint64_t code_lo = 0;
        if (oc && oc->arch() == disasm::Arch::X86_64) {
          uint64_t link = r.pc - lo->bias;
          const disasm::CodeSection* sec = oc->section_at(link);
          code_lo = sec ? std::max<uint64_t>(sec->addr, link >= 64 ? link - 64 : 0) : link;
          bytes = oc->bytes(code_lo, link + 16);
        }
        Decoded dec = decode_x86_64_backtrack(bytes.data(), bytes.size(), code_lo + (lo ? lo->bias : 0), r.pc, r.regs);
        ev.status = dec.status;
        ev.vaddr = dec.vaddr;
      } else {
        ev.status = AddrStatus::kNoContext;
      }
      // Data object.
      if (ev.status == AddrStatus::kPrecise || ev.status == AddrStatus::kDecoded) {
        const reader::LoadObject* lo = e.object_at(ev.vaddr, ev.tstamp_ns);
        const Variable* v = nullptr;
        DataObjectTable* t = nullptr;
        uint64_t bias = 0;
        if (lo) {
          t = &files.table(lo->symbol_file());
          v = t->find(ev.vaddr - lo->bias);
          bias = lo->bias;
        }
        // A local of the function the registers were taken in (their PC: rip), at its frame base.
        Variable local;
        if (!v && r.regs[16] != 0) {
          const reader::LoadObject* code = e.object_at(r.regs[16], ev.tstamp_ns);
          const StackLocals* sl = code ? files.stack_locals(code->symbol_file()) : nullptr;
          DataObjectTable* types = code ? &files.table(code->symbol_file()) : nullptr;
          if (sl && sl->find(r.regs[16] - code->bias, r.regs, ev.vaddr, types, &local)) {
            v = &local;
            t = types;
            bias = 0;  // a local's address is the run-time one
          }
        }
        // A local of a caller, through the callers' CFI from these registers (issue 19).
        if (!v && r.regs[16] != 0) {
          auto st = e.stacks.find(r.stack_id);
          auto code_of = [&](uint64_t pc) {
            FrameCode fc;
            if (const reader::LoadObject* fo = e.object_at(pc, ev.tstamp_ns)) {
              fc.bias = fo->bias;
              fc.locals = files.stack_locals(fo->symbol_file());
              if (fc.locals) fc.types = &files.table(fo->symbol_file());
            }
            return fc;
          };
          DataObjectTable* types = nullptr;
          if (st != e.stacks.end() && find_caller_local(r.regs, st->second, ev.vaddr, code_of, &local, &types)) {
            v = &local;
            t = types;
            bias = 0;
          }
        }
        if (v) {
          ev.object = object(v->descriptor, ObjectKind::kVariable, v->size);
          if (!v->aggregate.empty()) {
            auto& row = d.aggs_[v->aggregate];
            if (row.aggregate.empty()) {
              row.aggregate = v->aggregate;
              const Aggregate* a = t->aggregate(v->aggregate);
              row.size = a ? a->size : 0;
              if (a) row.members = a->members;
              row.member_values.assign(row.members.size(), {});
            }
            ev.aggregate = object(aggregate_row_name(v->aggregate), ObjectKind::kAggregate, row.size);
            uint64_t off = (ev.vaddr - bias - v->addr) % std::max<uint64_t>(v->element_size, 1);
            for (size_t m = 0; m < row.members.size(); ++m)
              if (row.members[m].offset <= off && off < row.members[m].offset + std::max<uint64_t>(row.members[m].size, 1))
                ev.member = int(m);
          }
        } else {
          ev.object = object(kNoObjectAtAddress, ObjectKind::kUnknownSubtype, 0);
          if (!e.heap.empty()) heap_queries.push_back({ev.tstamp_ns, ev.vaddr, d.events_.size()});
        }
      } else {
        ev.object = object(unknown_subtype(ev.status), ObjectKind::kUnknownSubtype, 0);
      }
      d.events_.push_back(ev);
    }
    // Heap blocks live at the event's time: the allocation site's object.
    std::map<uint64_t, int> site_obj;
    for (const HeapHit& h : find_heap_blocks(e.heap, std::move(heap_queries))) {
      auto [it, fresh] = site_obj.try_emplace(h.stack_id, -1);
      if (fresh) {
        std::string site = namer ? namer(x, h.stack_id, d.events_[h.event].tstamp_ns) : std::string();
        if (site.empty()) site = fmt::format("stack 0x{:x}", h.stack_id);
        it->second = object(heap_object_name(site), ObjectKind::kHeapBlock, 0);
      }
      d.events_[h.event].object = it->second;
    }
  }
  // Sums.
  size_t nm = d.metrics_.size();
  auto add = [&](std::vector<uint64_t>& v, const DsEvent& ev) {
    v.resize(nm);
    v[ev.metric] += ev.value;
  };
  d.total_.assign(nm, 0);
  d.scalars_.assign(nm, 0);
  for (auto& o : d.objs_) o.values.assign(nm, 0);
  for (auto& [n, row] : d.aggs_) {
    row.values.assign(nm, 0);
    for (auto& mv : row.member_values) mv.assign(nm, 0);
  }
  int unknown = -1, heap = -1;
  for (const auto& ev : d.events_) {
    add(d.total_, ev);
    if (ev.object >= 0) add(d.objs_[size_t(ev.object)].values, ev);
    // The kind by value: adding <Unknown> or <Heap> below may move d.objs_.
    const std::optional<ObjectKind> kind =
        ev.object >= 0 ? std::optional<ObjectKind>(d.objs_[size_t(ev.object)].kind) : std::nullopt;
    if (kind == ObjectKind::kUnknownSubtype) {
      if (unknown < 0) unknown = object("<Unknown>", ObjectKind::kUnknown, 0), d.objs_[size_t(unknown)].values.assign(nm, 0);
      add(d.objs_[size_t(unknown)].values, ev);
    }
    if (kind == ObjectKind::kHeapBlock) {
      if (heap < 0) heap = object("<Heap>", ObjectKind::kHeap, 0), d.objs_[size_t(heap)].values.assign(nm, 0);
      add(d.objs_[size_t(heap)].values, ev);
    }
    if (ev.aggregate >= 0) {
      add(d.objs_[size_t(ev.aggregate)].values, ev);
      auto& row = d.aggs_[d.objs_[size_t(ev.aggregate)].name.substr(1, d.objs_[size_t(ev.aggregate)].name.size() - 4)];
      add(row.values, ev);
      if (ev.member >= 0) add(row.member_values[size_t(ev.member)], ev);
    } else if (kind == ObjectKind::kVariable && !is_array(d.objs_[size_t(ev.object)].name)) {
      add(d.scalars_, ev);  // scalar variables (arrays are aggregates of their elements)
    }
  }
  if (d.events_.empty())
    d.why_empty_ = any_hwc ? "the experiments' counters were recorded without '+' (no data addresses): "
                             "use collect -h +<counter> or -p on,+"
                           : "the loaded experiments hold no dataspace data: record with collect -h +<counter> "
                             "(e.g. -h +page-faults) or -p on,+";
  return d;
}

std::vector<DataObject> Dataspace::objects() const {
  std::vector<DataObject> out;
  out.push_back({"<Total>", ObjectKind::kTotal, 0, total_});
  std::vector<DataObject> rest;
  for (const auto& o : objs_)  // an address first thought unknown may have gone to a heap block
    if (std::any_of(o.values.begin(), o.values.end(), [](uint64_t v) { return v != 0; })) rest.push_back(o);
  if (std::any_of(scalars_.begin(), scalars_.end(), [](uint64_t v) { return v != 0; }))
    rest.push_back({"<Scalars>", ObjectKind::kScalars, 0, scalars_});
  std::stable_sort(rest.begin(), rest.end(), [](const DataObject& a, const DataObject& b) {
    if (a.values != b.values) return a.values > b.values;
    return a.name < b.name;
  });
  for (auto& o : rest) out.push_back(std::move(o));
  return out;
}

std::vector<LayoutRow> Dataspace::layout() const {
  std::vector<LayoutRow> out;
  for (const auto& [n, r] : aggs_) out.push_back(r);
  std::stable_sort(out.begin(), out.end(), [](const LayoutRow& a, const LayoutRow& b) { return a.values > b.values; });
  return out;
}

std::vector<MemoryObjectRow> Dataspace::memory_objects(const std::string& expr,
                                                       const std::vector<std::string>& memobj_names,
                                                       std::string* error) const {
  filter::ParseOptions po;
  po.memobj_names = memobj_names;
  auto parsed = filter::Expr::parse(expr, po);
  if (auto* pe = std::get_if<filter::ParseError>(&parsed)) {
    *error = pe->display();
    return {};
  }
  filter::Expr& x = std::get<filter::Expr>(parsed);
  NoNames names;
  std::string berr;
  x.bind(names, &berr);
  std::map<int64_t, std::vector<uint64_t>> rows;
  size_t nm = metrics_.size();
  for (const auto& ev : events_) {
    filter::EventView v;
    v.expid = ev.exp + 1;
    v.thrid = ev.tid;
    v.lwpid = ev.tid;
    v.cpuid = ev.cpu;
    v.tstamp_ns = ev.tstamp_ns;
    v.sample = ev.sample;
    bool known = ev.status == AddrStatus::kPrecise || ev.status == AddrStatus::kDecoded;
    v.has_dataspace = known;
    v.vaddr = known ? ev.vaddr : 0;
    v.paddr = ev.paddr;
    int64_t idx = x.uses_dataspace() && !known ? -1 : x.eval(v);
    if (idx < -1) idx = -1;
    auto& r = rows[idx];
    r.resize(nm);
    r[ev.metric] += ev.value;
  }
  std::vector<MemoryObjectRow> out;
  for (auto& [i, v] : rows) out.push_back({i, v});
  std::stable_sort(out.begin(), out.end(), [](const MemoryObjectRow& a, const MemoryObjectRow& b) {
    if (a.values != b.values) return a.values > b.values;
    return a.index < b.index;
  });
  return out;
}

}  // namespace erkit::dataspace
