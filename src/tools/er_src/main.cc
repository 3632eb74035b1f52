// er_src: annotated source and disassembly of an object without an experiment (seed-spec §10.8).
//   er_src [-func | -{source,src} item tag | -disasm item tag | -{c,scc,dcc} com_spec |
//           -outfile filename | -V] object
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/cli.h"
#include "common/terminal_text.h"
#include "common/version.h"
#include "rcfile.h"
#include "views/disasm_view.h"
#include "views/source_view.h"

using namespace erkit;

namespace {

constexpr const char* kUsage =
    "Usage: er_src [-func | -{source,src} item tag | -disasm item tag | -{c,scc,dcc} com_spec |\n"
    "              -outfile filename | -V] object\n"
    "  -func                 list the object's functions\n"
    "  -source item tag      annotated source of a function or file (-src is the same)\n"
    "  -disasm item tag      annotated disassembly of a function or file\n"
    "  -c, -scc, -dcc spec   compiler commentary shown (both, source, disassembly)\n"
    "  -outfile filename     write to filename instead of standard output\n"
    "  -V                    print the version\n"
    "  --                    ends the options (the object may start with '-')\n";

const std::vector<std::string> kOptions = {"-func", "-source", "-src", "-disasm", "-c", "-scc", "-dcc", "-outfile", "-V"};

int fail(const std::string& m) {
  fmt::print(stderr, "er_src: {}\n", erkit::common::printable(m));
  return 1;
}

std::string system_rc() {
  if (const char* e = std::getenv("ERKIT_SYSTEM_RC")) return e;
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  std::string exe(buf, size_t(n));
  return exe.substr(0, exe.rfind('/')) + "/../share/erkit/er.rc";
}

struct Request {
  enum Kind { Source, Disasm, Func } kind = Source;
  std::string item = "all";
  int tag = -1;
};

std::string base_name(const std::string& p) {
  size_t s = p.rfind('/');
  return s == std::string::npos ? p : p.substr(s + 1);
}

// Functions named `name` (long, short or mangled), in address order.
std::vector<symbols::FunctionInfo> named(views::ObjectCodeIndex& obj, const std::string& name) {
  std::vector<symbols::FunctionInfo> out;
  for (const auto& f : obj.syms().functions()) {
    if (f.is_plt) continue;
    std::string shortn = symbols::demangle(f.mangled.empty() ? f.name : f.mangled).short_name;
    if (f.name == name || f.mangled == name || shortn == name) out.push_back(f);
  }
  return out;
}

int list_functions(views::ObjectCodeIndex& obj, FILE* out) {
  // Names and paths come from the object: escaped like everything erkit prints (reliability.md).
  if (obj.code() && obj.code()->relocatable()) {
    // A .o: addresses are offsets in their sections, as nm and objdump show them.
    size_t width = 7;
    for (const auto& f : obj.syms().functions()) width = std::max(width, obj.section_name(f.addr).size());
    fmt::print(out, "Functions of {} (relocatable: addresses are offsets in their section)\n\n{:>18} {:>8}  {:<{}}  {}\n",
               erkit::common::printable(obj.path()), "Address", "Size", "Section", width, "Name");
    for (const auto& f : obj.syms().functions()) {
      std::string src = f.source_file.empty() ? "" : fmt::format("  ({})", base_name(f.source_file));
      fmt::print(out, "{:>#18x} {:>8}  {:<{}}  {}\n", obj.shown_addr(f.addr), f.size,
                 erkit::common::printable(obj.section_name(f.addr)), width, erkit::common::printable(f.name + src));
    }
    return 0;
  }
  fmt::print(out, "Functions of {}\n\n{:>18} {:>8}  {}\n", erkit::common::printable(obj.path()), "Address", "Size", "Name");
  for (const auto& f : obj.syms().functions()) {
    std::string src = f.source_file.empty() ? "" : fmt::format("  ({})", base_name(f.source_file));
    fmt::print(out, "{:>#18x} {:>8}  {}\n", f.addr, f.size, erkit::common::printable(f.name + src));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (int rc = common::handle_standard_options({"er_src", kUsage, kOptions}, args); rc >= 0) return rc;
  if (args.empty()) {
    fmt::print(stderr, "{}", kUsage);
    return 1;
  }
  views::SourceOptions o;
  o.paths.search = {"."};
  // .er.rc: only scc and dcc apply to er_src.
  rcfile::RcDefaults rc = rcfile::load_rc(rcfile::standard_paths(system_rc()), rcfile::Consumer::ErSrc);
  std::string error;
  if (auto v = rc.get("scc"); v && !commentary::parse_com_spec(*v, false, &o.scc, &error))
    fmt::print(stderr, "er_src: warning: .er.rc scc: {}\n", error);
  if (auto v = rc.get("dcc"); v && !commentary::parse_com_spec(*v, true, &o.dcc, &error))
    fmt::print(stderr, "er_src: warning: .er.rc dcc: {}\n", error);
  Request req;
  std::string outfile = "-", object;
  bool version = false, dashes = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--" && !dashes) {
      dashes = true;
      continue;
    }
    if (dashes) {
      if (!object.empty()) return fail(fmt::format("more than one object given ('{}', '{}')", object, a));
      object = a;
      continue;
    }
    auto need = [&](size_t n) { return i + n < args.size(); };
    if (a == "-V") {
      version = true;
    } else if (a == "-func") {
      req.kind = Request::Func;
    } else if (a == "-source" || a == "-src" || a == "-disasm") {
      if (!need(2)) return fail(fmt::format("{} needs an item and a tag\n{}", a, kUsage));
      req.kind = a == "-disasm" ? Request::Disasm : Request::Source;
      req.item = args[++i];
      char* end = nullptr;
      req.tag = int(std::strtol(args[++i].c_str(), &end, 10));
      if (*end) return fail(fmt::format("tag '{}' is not a number", args[i]));
    } else if (a == "-c" || a == "-scc" || a == "-dcc") {
      if (!need(1)) return fail(fmt::format("{} needs a com_spec", a));
      const std::string& spec = args[++i];
      if ((a != "-dcc" && !commentary::parse_com_spec(spec, false, &o.scc, &error)) ||
          (a != "-scc" && !commentary::parse_com_spec(spec, true, &o.dcc, &error)))
        return fail(error);
    } else if (a == "-outfile") {
      if (!need(1)) return fail("-outfile needs a file name");
      outfile = args[++i];
    } else if (!a.empty() && a[0] == '-') {
      return fail(fmt::format("{}\n{}", common::unknown_option(a, kOptions), kUsage));
    } else if (object.empty()) {
      object = a;
    } else {
      return fail(fmt::format("more than one object given ('{}', '{}')", object, a));
    }
  }
  if (version) {
    fmt::print("er_src: erkit {}\n", ERKIT_VERSION);
    if (object.empty()) return 0;
  }
  if (object.empty()) return fail(fmt::format("no object given\n{}", kUsage));
  auto obj = views::ObjectCodeIndex::open(object, "", &error);
  if (!obj) return fail(error);
  FILE* out = stdout;
  if (outfile != "-") {
    out = std::fopen(outfile.c_str(), "w");
    if (!out) return fail(fmt::format("cannot write '{}'", outfile));
  }
  views::AnnotationMetrics none;  // no experiment: listings without metrics
  int status = 0;
  if (req.kind == Request::Func) {
    status = list_functions(*obj, out);
  } else {
    // item: all, a function (optionally function'file'), or a source file.
    std::string name = req.item, context;
    size_t q = name.find('\'');
    if (q != std::string::npos && q > 0 && name.back() == '\'') {
      context = name.substr(q + 1, name.size() - q - 2);
      name = name.substr(0, q);
    }
    std::vector<symbols::FunctionInfo> fns;
    if (name == "all") {
      for (const auto& f : obj->syms().functions())
        if (!f.is_plt) fns.push_back(f);
    } else {
      fns = named(*obj, name);
      if (fns.size() > 1 && req.tag >= 1 && size_t(req.tag) <= fns.size()) {
        fns = {fns[size_t(req.tag) - 1]};
      } else if (fns.size() > 1) {
        std::string list;
        for (size_t k = 0; k < fns.size(); ++k)
          list += fmt::format("\n  {}) {} at {:#x} ({})", k + 1, fns[k].name, obj->shown_addr(fns[k].addr),
                            base_name(fns[k].source_file));
        return fail(fmt::format("'{}' is ambiguous; choose with the tag:{}", name, list));
      }
    }
    bool is_file = fns.empty() && name != "all";
    if (is_file && obj->lines().files_matching(name).empty())
      return fail(fmt::format("no function or source file named '{}' in {}", name, object));
    std::string text;
    if (req.kind == Request::Source) {
      std::vector<std::string> files;
      if (is_file) {
        files.push_back(name);
      } else if (!context.empty()) {
        files.push_back(context);
      } else {
        for (const auto& f : fns) {
          std::string df = obj->function(f).default_file;
          if (!df.empty() && std::find(files.begin(), files.end(), df) == files.end()) files.push_back(df);
        }
      }
      if (files.empty()) return fail(fmt::format("'{}' has no line information (compile with -g)", name));
      for (const auto& file : files) {
        std::string one;
        if (!views::render_source(*obj, file, none, o, &one, &error)) {
          fmt::print(stderr, "er_src: {}\n", erkit::common::printable(error));
          status = 1;
          continue;
        }
        text += one + "\n";
      }
    } else {
      std::vector<symbols::FunctionInfo> listed;
      if (is_file) {
        std::vector<uint32_t> fi = obj->lines().files_matching(name);
        for (const auto& f : obj->functions_for_file(fi))
          if (const auto* cu = obj->lines().cu_at(f.addr); cu && disasm::path_matches(cu->name, name)) listed.push_back(f);
      } else if (name == "all") {
        listed = fns;
      } else {
        listed = obj->module_functions(fns.front().addr);
      }
      text = views::render_disasm(*obj, listed, none, o);
    }
    fmt::print(out, "{}", erkit::common::printable(text));
  }
  if (out != stdout) std::fclose(out);
  return status;
}
