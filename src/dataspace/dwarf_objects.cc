#include "dataspace/dwarf_objects.h"

#include "dataspace/dwarf_describe.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace erkit::dataspace {
namespace {

std::string underscores(std::string s) {
  for (char& c : s)
    if (c == ' ') c = '_';
  return s;
}

std::string die_name(Dwarf_Die* d) {
  Dwarf_Attribute a;
  const char* n = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
  return n ? n : "";
}

bool type_of(Dwarf_Die* d, Dwarf_Die* out) {
  Dwarf_Attribute a;
  return dwarf_attr_integrate(d, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

class Reader {
 public:
  explicit Reader(DataObjectTable* t) : t_(t) {}

  // The type's name in descriptor form; records aggregates on the way.
  std::string type_name(Dwarf_Die* t, int depth = 0, const std::string& alias = {}) {
    if (depth > 16) return "-";
    switch (dwarf_tag(t)) {
      case DW_TAG_base_type: return underscores(die_name(t));
      case DW_TAG_pointer_type: {
        Dwarf_Die in;
        if (!type_of(t, &in)) return "pointer+void";
        Dwarf_Die cin;
        // Pointer to const T is the manual's "const+pointer+T".
        if (dwarf_tag(&in) == DW_TAG_const_type)
          return type_of(&in, &cin) ? "const+pointer+" + type_name(&cin, depth + 1) : "const+pointer+void";
        return "pointer+" + type_name(&in, depth + 1);
      }
      case DW_TAG_const_type:
      case DW_TAG_volatile_type: {
        const char* q = dwarf_tag(t) == DW_TAG_const_type ? "const+" : "volatile+";
        Dwarf_Die in;
        return type_of(t, &in) ? q + type_name(&in, depth + 1) : std::string(q) + "void";
      }
      case DW_TAG_typedef: {
        Dwarf_Die in;
        if (!type_of(t, &in)) return underscores(die_name(t));
        int tag = dwarf_tag(&in);
        // typedef struct {...} foo_t: the aggregate goes by the typedef's name.
        if ((tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_class_type) &&
            die_name(&in).empty())
          return type_name(&in, depth + 1, die_name(t));
        if (tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_class_type)
          return type_name(&in, depth + 1);
        return underscores(die_name(t));
      }
      case DW_TAG_structure_type:
      case DW_TAG_class_type:
      case DW_TAG_union_type: {
        std::string n = die_name(t);
        if (n.empty()) n = alias.empty() ? "-" : alias;
        std::string full = (dwarf_tag(t) == DW_TAG_union_type ? "union:" : "structure:") + underscores(n);
        add_aggregate(t, full, depth);
        return full;
      }
      case DW_TAG_array_type: {
        Dwarf_Die in;
        return type_of(t, &in) ? "array:" + type_name(&in, depth + 1) : "array:-";
      }
      case DW_TAG_enumeration_type: return "enum:" + (die_name(t).empty() ? std::string("-") : underscores(die_name(t)));
      default: return "-";
    }
  }

  // The aggregate an object of this type is made of (itself, or an array's element), "" if none.
  std::string element_aggregate(Dwarf_Die* t, uint64_t* elem_size, int depth = 0) {
    if (depth > 16) return "";
    int tag = dwarf_tag(t);
    Dwarf_Die in;
    if (tag == DW_TAG_typedef || tag == DW_TAG_const_type || tag == DW_TAG_volatile_type || tag == DW_TAG_array_type)
      return type_of(t, &in) ? element_aggregate(&in, elem_size, depth + 1) : "";
    if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type) {
      Dwarf_Word sz = 0;
      if (dwarf_aggregate_size(t, &sz) == 0) *elem_size = sz;
      return "";
    }
    return "";
  }

  void add_aggregate(Dwarf_Die* t, const std::string& full, int depth) {
    if (t_->aggregate(full) || in_progress_.count(full)) return;
    in_progress_[full] = true;
    Aggregate a;
    a.name = full;
    Dwarf_Word sz = 0;
    if (dwarf_aggregate_size(t, &sz) == 0) a.size = sz;
    Dwarf_Die c;
    if (dwarf_child(t, &c) == 0) {
      do {
        if (dwarf_tag(&c) != DW_TAG_member) continue;
        Member m;
        Dwarf_Attribute at;
        Dwarf_Word off = 0;
        if (dwarf_attr(&c, DW_AT_data_member_location, &at)) dwarf_formudata(&at, &off);
        m.offset = off;
        Dwarf_Die mt;
        std::string tn = "-";
        if (type_of(&c, &mt)) {
          tn = type_name(&mt, depth + 1);
          Dwarf_Word ms = 0;
          if (dwarf_aggregate_size(&mt, &ms) == 0) m.size = ms;
        }
        std::string mn = die_name(&c);
        m.descriptor = descriptor(tn, mn);
        a.members.push_back(m);
      } while (dwarf_siblingof(&c, &c) == 0);
    }
    std::sort(a.members.begin(), a.members.end(), [](const Member& x, const Member& y) { return x.offset < y.offset; });
    t_->add_aggregate(std::move(a));
  }

  void variable(Dwarf_Die* d) {
    Dwarf_Attribute a;
    if (!dwarf_attr(d, DW_AT_location, &a)) return;
    Dwarf_Op* ops = nullptr;
    size_t n = 0;
    if (dwarf_getlocation(&a, &ops, &n) != 0 || n != 1 || ops[0].atom != DW_OP_addr) return;
    Variable v;
    v.addr = ops[0].number;
    describe(d, &v);
    t_->add_variable(std::move(v));
  }

  // Name, type descriptor, size and aggregate of a variable's DIE (its address aside).
  void describe(Dwarf_Die* d, Variable* out) {
    Variable& v = *out;
    v.name = die_name(d);
    Dwarf_Die t;
    std::string tn = "-";
    if (type_of(d, &t)) {
      tn = type_name(&t);
      Dwarf_Word sz = 0;
      if (dwarf_aggregate_size(&t, &sz) == 0) v.size = sz;
      uint64_t es = 0;
      element_aggregate(&t, &es);
      // The aggregate's descriptor: strip "array:" and qualifiers from the type's name.
      std::string agg = tn;
      for (const char* p : {"const+", "volatile+", "array:"})
        while (agg.rfind(p, 0) == 0) agg.erase(0, std::strlen(p));
      if (t_->aggregate(agg) && es) {
        v.aggregate = agg;
        v.element_size = es;
      }
    }
    if (v.size == 0) v.size = 1;
    v.descriptor = descriptor(tn, v.name.empty() ? "-" : v.name);
  }

  void walk(Dwarf_Die* die, int depth) {
    Dwarf_Die c;
    if (depth > 32 || dwarf_child(die, &c) != 0) return;
    do {
      int tag = dwarf_tag(&c);
      if (tag == DW_TAG_variable) variable(&c);
      else if (tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block || tag == DW_TAG_namespace)
        walk(&c, depth + 1);  // function statics, namespace-scope variables
    } while (dwarf_siblingof(&c, &c) == 0);
  }

 private:
  DataObjectTable* t_;
  std::map<std::string, bool> in_progress_;
};

}  // namespace

void describe_object(Dwarf_Die* die, DataObjectTable* table, Variable* out) { Reader(table).describe(die, out); }

std::string descriptor(const std::string& type, const std::string& name) {
  return "{" + underscores(type) + " " + (name.empty() ? "-" : name) + "}";
}

void DataObjectTable::add_variable(Variable v) { vars_[v.addr] = std::move(v); }
void DataObjectTable::add_aggregate(Aggregate a) { aggs_[a.name] = std::move(a); }

const Variable* DataObjectTable::find(uint64_t addr) const {
  auto it = vars_.upper_bound(addr);
  if (it == vars_.begin()) return nullptr;
  --it;
  return addr < it->second.addr + it->second.size ? &it->second : nullptr;
}

const Aggregate* DataObjectTable::aggregate(const std::string& name) const {
  auto it = aggs_.find(name);
  return it == aggs_.end() ? nullptr : &it->second;
}

const Member* DataObjectTable::member_at(const std::string& aggregate, uint64_t offset) const {
  const Aggregate* a = this->aggregate(aggregate);
  if (!a) return nullptr;
  const Member* best = nullptr;
  for (const auto& m : a->members)
    if (m.offset <= offset && offset < m.offset + std::max<uint64_t>(m.size, 1)) best = &m;
  return best;
}

DataObjectTable DataObjectTable::load(const std::string& path, std::string* error) {
  DataObjectTable t;
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (error) *error = path + ": cannot be opened";
    return t;
  }
  Dwarf* dw = dwarf_begin(fd, DWARF_C_READ);
  if (dw) {
    t.has_dwarf_ = true;
    Reader r(&t);
    Dwarf_Off off = 0, next = 0;
    size_t hsize = 0;
    while (dwarf_nextcu(dw, off, &next, &hsize, nullptr, nullptr, nullptr) == 0) {
      Dwarf_Die cu;
      if (dwarf_offdie(dw, off + hsize, &cu)) r.walk(&cu, 0);
      off = next;
    }
    dwarf_end(dw);
  }
  close(fd);
  return t;
}

}  // namespace erkit::dataspace
