// Dataspace analysis (seed-spec §6.14-6.16, §7.7-7.8): every dataspace record of the loaded
// experiments gets its data address (the kernel's, or decoded from the instruction at its PC),
// then its data object (DWARF: variable, aggregate, element; <Scalars>; <Unknown> subtypes) and
// its memory object of any type (an index expression over VADDR/PADDR, or an index object over
// THRID, CPUID, SAMPLE, TSTAMP). Metrics: one per counter recorded with '+', and "dclock" for
// clock profiling with '+' (data-derived CPU time).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dataspace/decode.h"
#include "dataspace/dwarf_objects.h"
#include "reader/experiment.h"

namespace erkit::dataspace {

struct DsMetric {
  std::string name;    // er_print name: the counter's ("page-faults", "dcm"), "dclock" for clock
  std::string header;  // column header: "Page Faults", "CPU Time"
  bool time = false;   // values are nanoseconds (shown as seconds)
};

struct DsEvent {
  uint32_t exp = 0;
  uint32_t metric = 0;  // index into metrics()
  uint64_t value = 0;
  AddrStatus status = AddrStatus::kNoContext;
  uint64_t vaddr = 0, paddr = 0;
  uint32_t tid = 0;
  int32_t cpu = -1;
  uint64_t tstamp_ns = 0;
  uint32_t sample = 0;
  int object = -1;      // index into objects() of its data object (variable or <Unknown>.*)
  int aggregate = -1;   // the aggregate row it also counts for, -1 if none
  int member = -1;      // index into the aggregate's members, -1 if none
};

enum class ObjectKind { kTotal, kVariable, kAggregate, kScalars, kUnknown, kUnknownSubtype, kHeap, kHeapBlock };

// Names a heap block's allocation site from its experiment (index into the list) and the
// allocation's stack: "main" (the analysis' function names); empty: "stack 0x...".
using SiteNamer = std::function<std::string(uint32_t exp, uint64_t stack_id, uint64_t tstamp_ns)>;

// "<Heap>.(allocated at main)": the data object of the heap blocks allocated at one site.
std::string heap_object_name(const std::string& site);

struct DataObject {
  std::string name;
  ObjectKind kind = ObjectKind::kVariable;
  uint64_t size = 0;
  std::vector<uint64_t> values;  // per metric
};

struct LayoutRow {   // data_layout: one aggregate and its elements in offset order
  std::string aggregate;
  uint64_t size = 0;
  std::vector<uint64_t> values;
  std::vector<Member> members;
  std::vector<std::vector<uint64_t>> member_values;
};

struct MemoryObjectRow {
  int64_t index = -1;  // -1: <Unknown>
  std::vector<uint64_t> values;
};

class Dataspace {
 public:
  // With the heap trace recorded (collect -H on), addresses in heap blocks go to their
  // allocation site, named by `namer`.
  static Dataspace build(const std::vector<reader::Experiment>& exps, const SiteNamer& namer = {});

  bool empty() const { return events_.empty(); }
  const std::vector<DsMetric>& metrics() const { return metrics_; }
  const std::vector<DsEvent>& events() const { return events_; }
  // <Total> first, then every object with data, by the first metric, descending.
  std::vector<DataObject> objects() const;
  std::vector<LayoutRow> layout() const;
  // Memory objects of an index expression (parsed with the filter grammar); *error on a bad one.
  std::vector<MemoryObjectRow> memory_objects(const std::string& expr, const std::vector<std::string>& memobj_names,
                                              std::string* error) const;
  // Why nothing is shown ("" when there is data).
  const std::string& why_empty() const { return why_empty_; }

 private:
  std::vector<DsMetric> metrics_;
  std::vector<DsEvent> events_;
  std::vector<DataObject> objs_;           // variables and unknown kinds (not <Total>/<Scalars>)
  std::map<std::string, LayoutRow> aggs_;  // by aggregate name
  std::vector<uint64_t> total_, scalars_;
  std::string why_empty_;
};

// "{structure:rec_t -}": the data_objects row of an aggregate type.
std::string aggregate_row_name(const std::string& aggregate);

}  // namespace erkit::dataspace
