// pprof export: github.com/google/pprof/proto/profile.proto, written by hand (proto_wire.h)
// and gzip-compressed, as `go tool pprof` and other readers expect.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "common/version.h"
#include "exporters/export_util.h"
#include "exporters/exporters.h"
#include "exporters/proto_wire.h"

namespace erkit::exporters {
namespace {

// Field numbers of profile.proto.
enum ProfileField : uint32_t {
  kSampleType = 1, kSample = 2, kMapping = 3, kLocation = 4, kFunction = 5, kStringTable = 6,
  kTimeNanos = 9, kDurationNanos = 10, kPeriodType = 11, kPeriod = 12, kComment = 13, kDefaultSampleType = 14,
};

class StringTable {
 public:
  StringTable() { index(""); }  // string_table[0] must be ""
  int64_t index(const std::string& s) {
    auto [it, inserted] = ids_.try_emplace(s, int64_t(strings_.size()));
    if (inserted) strings_.push_back(s);
    return it->second;
  }
  const std::vector<std::string>& strings() const { return strings_; }

 private:
  std::unordered_map<std::string, int64_t> ids_;
  std::vector<std::string> strings_;
};

class PprofBuilder {
 public:
  PprofBuilder(const model::Profile& p, const Options& o) : p_(p), o_(o) {
    // Each load object's runtime placement, from the first experiment that mapped it, so
    // addresses are the ones the program ran at.
    for (const auto& e : p.experiments())
      for (const auto& lo : e.objects) placement_.try_emplace(lo.path, &lo);
  }

  std::string build() {
    ProtoWriter out, m;
    for (uint32_t metric : o_.metrics) {
      m.clear();
      m.int64_field(1, strings_.index(model::metric_def(metric).name));
      m.int64_field(2, strings_.index(unit_word(metric)));
      out.message_field(kSampleType, m);
    }
    std::vector<uint64_t> loc_ids;
    std::vector<int64_t> values;
    for (const model::StackAggregate& a : p_.aggregates()) {
      values.clear();
      bool any = false;
      for (uint32_t metric : o_.metrics) {
        values.push_back(a.values[metric]);
        any |= a.values[metric] != 0;
      }
      if (!any) continue;
      locations_of(*a.stack, &loc_ids);
      m.clear();
      m.packed_uint64(1, loc_ids);
      m.packed_int64(2, values);
      out.message_field(kSample, m);
    }
    // Mappings, locations and functions were collected while writing the samples.
    ProtoWriter tail;
    for (const auto& mp : mappings_) tail.message_field(kMapping, mp);
    for (const auto& l : locations_) tail.message_field(kLocation, l);
    for (const auto& f : functions_) tail.message_field(kFunction, f);
    header(&tail);
    for (const auto& s : strings_.strings()) tail.bytes_field(kStringTable, s);
    return out.data() + tail.data();
  }

 private:
  void header(ProtoWriter* out) {
    const auto& exps = p_.experiments();
    uint64_t duration = 0, period = 0;
    for (const auto& e : exps) {
      duration = std::max(duration, e.duration_ns());
      if (!period) period = e.log.clock_interval_ns;
    }
    if (!exps.empty()) out->int64_field(kTimeNanos, exps.front().log.realtime_start_ns);
    out->int64_field(kDurationNanos, int64_t(duration));
    if (period) {
      ProtoWriter pt;
      pt.int64_field(1, strings_.index("cpu"));
      pt.int64_field(2, strings_.index("nanoseconds"));
      out->message_field(kPeriodType, pt);
      out->int64_field(kPeriod, int64_t(period));
    }
    std::vector<int64_t> comments;
    for (const auto& e : exps) comments.push_back(strings_.index(fmt::format("erkit {}: {}", ERKIT_VERSION, e.path)));
    out->packed_int64(kComment, comments);
    if (!o_.metrics.empty())
      out->int64_field(kDefaultSampleType, strings_.index(model::metric_def(o_.metrics.front()).name));
  }

  // Frames of one PC (the concrete function and the functions inlined into it, innermost
  // first) become one Location with several Lines, as profile.proto specifies.
  void locations_of(const model::ResolvedStack& rs, std::vector<uint64_t>* ids) {
    ids->clear();
    const auto& fr = rs.frames;
    const auto& pcs = p_.resolver().pcs();
    size_t i = 0;
    while (i < fr.size()) {
      size_t end = i + 1;  // one past the group
      uint32_t pc = fr[i].pc;
      if (pc != 0) {
        model::FuncId concrete = pcs[pc].func;
        size_t j = i;
        while (j < fr.size() && fr[j].pc == pc && fr[j].func != concrete) ++j;
        end = j < fr.size() && fr[j].pc == pc ? j + 1 : j;
      }
      ids->push_back(location_id(fr, i, end));
      i = end;
    }
  }

  uint64_t location_id(const std::vector<model::FrameRef>& fr, size_t b, size_t e) {
    std::string key = fmt::format("{}", fr[b].pc);
    for (size_t k = b; k < e; ++k) key += fmt::format(":{}/{}", fr[k].func, fr[k].line);
    auto [it, inserted] = location_ids_.try_emplace(key, uint64_t(locations_.size() + 1));
    if (!inserted) return it->second;
    const auto& pcs = p_.resolver().pcs();
    const auto& lines = p_.resolver().lines();
    const model::PcEntry& pe = pcs[fr[b].pc];
    ProtoWriter loc, line;
    loc.uint64_field(1, it->second);
    if (fr[b].pc != 0 && pe.object != model::kNoObject) {
      auto [mapping, bias] = mapping_of(pe.object);
      loc.uint64_field(2, mapping);
      loc.uint64_field(3, pe.vaddr + bias);
    }
    for (size_t k = b; k < e; ++k) {
      line.clear();
      line.uint64_field(1, function_id(fr[k]));
      line.int64_field(2, lines[fr[k].line].line);
      loc.message_field(4, line);
    }
    locations_.push_back(loc);
    return it->second;
  }

  uint64_t function_id(const model::FrameRef& f) {
    auto [it, inserted] = function_ids_.try_emplace(f.func, uint64_t(functions_.size() + 1));
    if (!inserted) return it->second;
    const auto& ft = p_.functions();
    const model::FunctionEntry& fe = ft.at(f.func);
    std::string file = fe.source_file;
    if (file.empty()) file = p_.resolver().files()[p_.resolver().lines()[f.line].file];
    ProtoWriter fn;
    fn.uint64_field(1, it->second);
    fn.int64_field(2, strings_.index(views::function_display_name(ft, f.func, o_.names)));
    fn.int64_field(3, strings_.index(fe.mangled.empty() ? fe.name : fe.mangled));
    fn.int64_field(4, strings_.index(file));
    functions_.push_back(fn);
    return it->second;
  }

  // (mapping id, load bias) of a load object.
  std::pair<uint64_t, uint64_t> mapping_of(model::ObjId obj) {
    auto it = mapping_ids_.find(obj);
    if (it != mapping_ids_.end()) return it->second;
    const model::LoadObjectInfo& info = p_.functions().object(obj);
    uint64_t id = mappings_.size() + 1, bias = 0, lo = 0, hi = 0;
    if (auto pl = placement_.find(info.path); pl != placement_.end()) {
      bias = pl->second->bias;
      lo = pl->second->lo;
      hi = pl->second->hi;
    }
    ProtoWriter m;
    m.uint64_field(1, id);
    m.uint64_field(2, lo);
    m.uint64_field(3, hi);
    m.uint64_field(4, lo - bias);  // object-relative address of the mapping's start
    m.int64_field(5, strings_.index(info.path));
    m.int64_field(6, strings_.index(info.build_id));
    m.bool_field(7, true);
    m.bool_field(8, true);
    m.bool_field(9, true);
    m.bool_field(10, true);
    mappings_.push_back(m);
    return mapping_ids_[obj] = {id, bias};
  }

  const model::Profile& p_;
  const Options& o_;
  StringTable strings_;
  std::unordered_map<std::string, const reader::LoadObject*> placement_;
  std::vector<ProtoWriter> mappings_, locations_, functions_;
  std::unordered_map<model::ObjId, std::pair<uint64_t, uint64_t>> mapping_ids_;
  std::unordered_map<std::string, uint64_t> location_ids_;
  std::unordered_map<model::FuncId, uint64_t> function_ids_;
};

}  // namespace

std::string write_pprof(const model::Profile& p, const Options& o, std::string* error) {
  std::string raw = PprofBuilder(p, o).build();
  std::string gz;
  if (!gzip_compress(raw, &gz, error)) return "";
  return gz;
}

}  // namespace erkit::exporters
