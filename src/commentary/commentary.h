// Compiler commentary for annotated source and disassembly (seed-spec §10.3): optimisation
// records written by GCC (-fsave-optimization-record JSON, -fopt-info text) and Clang
// (-fsave-optimization-record YAML), turned into the manual's kind of messages ("Function f
// inlined from source file x.h into the code for the following line", "Loop below
// vectorized ...") and sorted into the classes of com_spec.h.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "commentary/com_spec.h"

namespace erkit::commentary {

struct Remark {
  std::string file;  // as recorded (often relative to the compilation directory)
  uint32_t line = 0, column = 0;
  uint32_t classes = 0;  // com_spec classes this remark belongs to
  std::string text;
  std::string function;
  // From -fopt-info text: at a line where structured records (JSON, YAML) of the same code
  // speak too, those are shown instead (the same remarks, with more detail).
  bool from_opt_info = false;
};

// Parsers for each record format; bad input gives false with *error.
bool read_clang_yaml(const std::string& text, std::vector<Remark>* out, std::string* error);
bool read_gcc_json(const std::string& text, std::vector<Remark>* out, std::string* error);
bool read_gcc_opt_info(const std::string& text, std::vector<Remark>* out);
// Reads a record file of any recognised kind (by its name; .gz is decompressed).
bool read_record_file(const std::string& path, std::vector<Remark>* out, std::string* error);
bool is_record_file_name(const std::string& name);

// Record files in `dirs` that belong to a compilation of `source_file` into `object_path`:
// names starting with the source's or the object's stem (t.opt.yaml, t.c.opt-record.json.gz,
// prog-t.c.opt-record.json.gz, t.optinfo).
std::vector<std::string> find_record_files(const std::vector<std::string>& dirs, const std::string& source_file,
                                           const std::string& object_path);

class Commentary {
 public:
  // Reads each file once; duplicate remarks (same place and text) are kept once.
  void add_file(const std::string& path);
  void add(Remark r);
  // Remarks for one line of a source file (matched by path suffix), filtered by classes.
  std::vector<const Remark*> for_line(const std::string& source_file, uint32_t line, uint32_t classes) const;
  const std::vector<Remark>& remarks() const { return remarks_; }
  const std::vector<std::string>& files_read() const { return files_; }
  const std::vector<std::string>& problems() const { return problems_; }

 private:
  std::vector<Remark> remarks_;
  std::vector<std::string> files_, problems_;
};

// "version" commentary for a compilation unit: producer string and source modification time.
std::vector<std::string> version_lines(const std::string& source_path, const std::string& producer);

}  // namespace erkit::commentary
