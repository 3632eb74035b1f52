// Compiler-commentary classes (seed-spec §7.6, Table 6-4) and the scc/dcc com_spec lists:
// colon-separated classes, each accepted from its shortest unique prefix; dcc adds
// hex/nohex, src/nosrc and asrc.
#pragma once
#include <cstdint>
#include <string>

namespace erkit::commentary {

enum Class : uint32_t {
  kBasic = 1u << 0,
  kVersion = 1u << 1,
  kParallel = 1u << 2,
  kQuery = 1u << 3,
  kLoop = 1u << 4,
  kPipe = 1u << 5,
  kInline = 1u << 6,
  kMemops = 1u << 7,
  kFe = 1u << 8,
  kAllClasses = (1u << 9) - 1,
};

struct ComSpec {
  uint32_t classes = kBasic;  // default when no scc/dcc was given
  // dcc only:
  bool hex = false;   // instruction bytes
  bool src = true;    // interleave source lines
  bool asrc = false;  // interleave annotated source (with line metrics)
};

// Parses `spec` on top of *spec_out (dcc display options not named keep their values; the
// class set is replaced). for_disasm allows hex/nohex/src/nosrc/asrc. False with *error.
bool parse_com_spec(const std::string& spec, bool for_disasm, ComSpec* spec_out, std::string* error);
// Canonical text of the class set ("basic:inline", "all", "none").
std::string classes_to_string(uint32_t classes);
std::string to_string(const ComSpec& s, bool for_disasm);

}  // namespace erkit::commentary
