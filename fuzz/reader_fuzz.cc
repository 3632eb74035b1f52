// libFuzzer target: the experiment reader and the model built on it. The input is a small
// archive of experiment files that is unpacked into a scratch experiment directory, opened
// with reader::open_experiment and aggregated by model::Profile (every metric, callers and
// callees of every function). Nothing may crash, hang or trip a sanitizer.
//
// Archive: a sequence of entries  [u8 file][u8 flags][u16 length, little-endian][bytes].
//   file % 10: 0 log, 1 map, 2 notes, 3.. the data files in DataKind order (stacks, profile, ...)
//   flags bit 0: data files: a valid FileHeader for that kind is written first, so mutations
//                reach the records instead of dying on the 4 KiB header.
//   flags bit 1: text files: the text is written without the valid first line (magic version).
// A log is always present (an experiment needs one); later entries for a file append to it.
// In the map, "$OBJ" stands for a small shared object with debug information compiled at
// start-up: seeds name it instead of the recorded objects, whose symbolisation (libc's
// separate DWARF above all) would slow every input down to a few per second.
// fuzz/make_reader_seed.py turns a real experiment into such an archive.
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "format/experiment_format.h"
#include "format/record_descriptors.h"
#include "model/profile.h"
#include "reader/experiment.h"
#include "scratch_files.h"

namespace {

using namespace erkit;

std::string g_dir;  // the scratch experiment, reused by every input
std::string g_obj;  // what "$OBJ" in the map stands for

constexpr int kTextFiles = 3;
const char* file_name(int id) {
  static const char* text[kTextFiles] = {format::kLogFile, format::kMapFile, format::kNotesFile};
  return id < kTextFiles ? text[id] : format::kDataFileNames[id - kTextFiles];
}
constexpr int kFiles = kTextFiles + int(format::DataKind::kCount);

void append_file(const std::string& path, const void* data, size_t n) {
  fuzz::write_scratch_file(path, data, n, O_APPEND);
}

void write_data_header(const std::string& path, int kind) {
  format::FileHeader h = fuzz::data_file_header(kind);
  append_file(path, &h, sizeof h);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char tmpl[] = "/tmp/erkit_reader_fuzz_XXXXXX";
  if (!mkdtemp(tmpl)) abort();
  g_dir = std::string(tmpl) + "/f.er";
  g_obj = std::string(tmpl) + "/libobj.so";
  std::string src = std::string(tmpl) + "/obj.c";
  FILE* f = std::fopen(src.c_str(), "w");
  if (!f) abort();
  std::fputs("int leaf(int x) { return x * 3 + 1; }\nint mid(int x) { return leaf(x) + 2; }\n"
             "int root(int x) { return mid(x) * 5; }\n", f);
  std::fclose(f);
  if (std::system(("cc -shared -fPIC -g -O0 -o " + g_obj + " " + src).c_str()) != 0) abort();
  static std::string root = tmpl;
  std::atexit([] { std::filesystem::remove_all(root); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  mkdir(g_dir.c_str(), 0755);
  for (int i = 0; i < kFiles; ++i) unlink((g_dir + "/" + file_name(i)).c_str());
  bool started[kFiles] = {};
  auto start = [&](int id, uint8_t flags) {
    std::string path = g_dir + "/" + file_name(id);
    if (started[id]) return path;
    started[id] = true;
    if (id >= kTextFiles && (flags & 1)) write_data_header(path, id - kTextFiles);
    if (id < 2 && !(flags & 2)) {
      std::string first = std::string(id == 0 ? format::kLogMagic : format::kMapMagic) + " " +
                          std::to_string(format::kFormatVersion) + "\n";
      append_file(path, first.data(), first.size());
    }
    return path;
  };
  size_t off = 0;
  while (off + 4 <= size) {
    int id = data[off] % kFiles;
    uint8_t flags = data[off + 1];
    size_t len = size_t(data[off + 2]) | size_t(data[off + 3]) << 8;
    off += 4;
    len = std::min(len, size - off);
    std::string path = start(id, flags);
    if (id == 1) {
      std::string text(reinterpret_cast<const char*>(data + off), len);
      for (size_t at; (at = text.find("$OBJ")) != std::string::npos;) text.replace(at, 4, g_obj);
      append_file(path, text.data(), text.size());
    } else {
      append_file(path, data + off, len);
    }
    off += len;
  }
  start(0, 0);

  auto r = reader::open_experiment(g_dir);
  if (!r.experiment) abort();  // the log exists: open_experiment must not give up
  model::Profile p;
  p.add_experiment(std::move(*r.experiment));
  (void)p.totals();
  for (model::FuncId f : p.functions_with_data()) (void)p.callers_callees(f);
  for (uint32_t t = 0; t < 3; ++t) (void)p.sample_at(0, t * 1000000ull);
  return 0;
}
