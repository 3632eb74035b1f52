#include "expfiles/utilities.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <set>

#include "common/cli.h"
#include "common/version.h"
#include "expfiles/experiment_files.h"

namespace erkit::expfiles {
namespace {

struct Options {
  bool version = false;
  bool force = false;
  std::vector<std::string> operands;
  std::string bad_option;
};

Options parse(const std::vector<std::string>& args, bool allow_force) {
  Options o;
  bool options_done = false;
  for (const auto& a : args) {
    if (!options_done && a == "--") {
      options_done = true;
    } else if (!options_done && a.size() > 1 && a[0] == '-') {
      // The manual's synopsis says -V, its prose -v: both print the version.
      for (size_t i = 1; i < a.size(); ++i) {
        if (a[i] == 'V' || a[i] == 'v') o.version = true;
        else if (a[i] == 'f' && allow_force) o.force = true;
        else if (o.bad_option.empty()) o.bad_option = a;
      }
    } else {
      o.operands.push_back(a);
    }
  }
  return o;
}

bool is_plain_directory(const std::string& p) {
  struct stat st;
  return lstat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string join(const std::string& dir, const std::string& name) {
  return dir == "." ? name : (dir.back() == '/' ? dir + name : dir + "/" + name);
}

// One step of a copy or move, planned before anything changes.
struct Op {
  enum Kind { Copy, Move, WriteGroup, RemoveGroupFile } kind;
  std::string src, dst;
  std::vector<std::string> members;  // WriteGroup
  std::string extra_archives;        // Copy of a descendant: its parent's archives
};

class Planner {
 public:
  Planner(TransferMode mode, const char* tool, FILE* err) : mode_(mode), tool_(tool), err_(err) {}

  bool experiment(const std::string& src, const std::string& dst, bool rename_form) {
    if (rename_form && !ends_with(base_name(dst), ".er"))
      return fail(fmt::format("'{}': an experiment name must end in .er", dst));
    std::string parent = parent_experiment(src);
    if (mode_ == TransferMode::Move && !parent.empty())
      return fail(fmt::format("'{}' is a descendant experiment of '{}' and stays with it; move '{}' instead", src,
                              parent, parent));
    std::string ns = normal_path(src), nd = normal_path(dst);
    if (ns == nd) return fail(fmt::format("'{}' and '{}' are the same experiment", src, dst));
    if (nd.rfind(ns + "/", 0) == 0) return fail(fmt::format("cannot put '{}' inside itself ('{}')", src, dst));
    if (!claim(dst)) return false;
    Op op{mode_ == TransferMode::Copy ? Op::Copy : Op::Move, src, dst, {}, {}};
    if (!parent.empty()) op.extra_archives = join(parent, "archives");
    ops_.push_back(std::move(op));
    return true;
  }

  // A group travels with its members: they go into the new group file's directory, and the new
  // group lists them by name.
  bool group(const std::string& src, const std::string& dst, bool rename_form) {
    if (rename_form && !ends_with(base_name(dst), ".erg"))
      return fail(fmt::format("'{}': an experiment group name must end in .erg", dst));
    GroupFile g;
    std::string error;
    if (!read_group(src, &g, &error)) return fail(error);
    if (!claim(dst)) return false;
    std::string dir = dir_name(dst);
    std::vector<std::string> names;
    bool ok = true;
    for (const auto& m : g.paths) {
      Classified c = classify(m);
      if (c.kind != PathKind::Experiment) {
        ok = fail(fmt::format("group '{}': member '{}' {}", src, m,
                              c.kind == PathKind::Missing ? "does not exist" : c.why));
        continue;
      }
      std::string mdst = join(dir, base_name(m));
      names.push_back(base_name(m));
      if (mode_ == TransferMode::Move && normal_path(m) == normal_path(mdst)) continue;  // already there
      ok = experiment(m, mdst, false) && ok;
    }
    if (!ok) return false;
    ops_.push_back({Op::WriteGroup, "", dst, names, {}});
    if (mode_ == TransferMode::Move) ops_.push_back({Op::RemoveGroupFile, src, "", {}, {}});
    return true;
  }

  bool fail(const std::string& m) {
    fmt::print(err_, "{}: {}\n", tool_, m);
    failed_ = true;
    return false;
  }
  bool failed() const { return failed_; }

  bool execute() {
    for (const Op& op : ops_) {
      std::string error;
      bool ok = true;
      switch (op.kind) {
        case Op::Copy: ok = copy_experiment(op.src, op.dst, &error, op.extra_archives); break;
        case Op::Move: ok = move_experiment(op.src, op.dst, &error); break;
        case Op::WriteGroup: ok = write_group(op.dst, op.members, &error); break;
        case Op::RemoveGroupFile:
          ok = unlink(op.src.c_str()) == 0;
          if (!ok) error = fmt::format("cannot remove '{}': {}", op.src, std::strerror(errno));
          break;
      }
      if (!ok) return fail(error);
    }
    return true;
  }

 private:
  // Each destination must be new, and planned only once.
  bool claim(const std::string& dst) {
    if (classify(dst).kind != PathKind::Missing) return fail(fmt::format("'{}' already exists", dst));
    if (!claimed_.insert(normal_path(dst)).second)
      return fail(fmt::format("'{}' would be written twice (two sources of the same name)", dst));
    return true;
  }

  TransferMode mode_;
  const char* tool_;
  FILE* err_;
  bool failed_ = false;
  std::vector<Op> ops_;
  std::set<std::string> claimed_;
};

}  // namespace

namespace {

std::string transfer_usage(const char* tool) {
  return fmt::format(
      "Usage: {0} [-V] experiment1 experiment2\n"
      "       {0} [-V] experiment-list directory\n"
      "  {1} an experiment or group to a new name, or several into an existing directory;\n"
      "  groups take their member experiments along, descendants stay with their parent.\n"
      "  -V  print the version\n"
      "  --  ends the options\n",
      tool, tool == std::string("er_cp") ? "copies" : "moves");
}

const std::vector<std::string> kTransferOptions = {"-V", "-v"};
const std::vector<std::string> kRemoveOptions = {"-f", "-V", "-v"};
constexpr const char* kRemoveUsage =
    "Usage: er_rm [-f] [-V] experiment-list\n"
    "  removes experiments and groups (a group with its member experiments)\n"
    "  -f  no error messages, and no error for a missing experiment\n"
    "  -V  print the version\n"
    "  --  ends the options\n";

}  // namespace

int run_transfer(TransferMode mode, const std::vector<std::string>& args, FILE* out, FILE* err) {
  const char* tool = mode == TransferMode::Copy ? "er_cp" : "er_mv";
  const std::string usage = transfer_usage(tool);
  if (int rc = common::handle_standard_options({tool, usage, kTransferOptions}, args, out); rc >= 0) return rc;
  Options o = parse(args, false);
  if (!o.bad_option.empty()) {
    fmt::print(err, "{}: {}\n", tool, common::unknown_option(o.bad_option, kTransferOptions));
    return 2;
  }
  if (o.version) {
    fmt::print(out, "{}: erkit {}\n", tool, ERKIT_VERSION);
    return 0;
  }
  if (o.operands.size() < 2) {
    fmt::print(err, "{}", usage);
    return 2;
  }
  Planner plan(mode, tool, err);
  std::string target = o.operands.back();
  std::vector<std::string> sources(o.operands.begin(), o.operands.end() - 1);
  Classified tc = classify(target);
  // An existing directory that is not itself an experiment receives the sources.
  bool to_directory = tc.kind == PathKind::Other && is_plain_directory(target) && !ends_with(base_name(target), ".er");
  if (!to_directory) {
    if (sources.size() > 1) {
      plan.fail(tc.kind == PathKind::Missing ? fmt::format("target directory '{}' does not exist", target)
                                             : fmt::format("target '{}' is not a directory", target));
      return 1;
    }
    if (tc.kind != PathKind::Missing) {
      plan.fail(fmt::format("'{}' already exists", target));
      return 1;
    }
  }
  for (const auto& s : sources) {
    Classified c = classify(s);
    std::string dst = to_directory ? join(target, base_name(s)) : target;
    switch (c.kind) {
      case PathKind::Missing: plan.fail(fmt::format("'{}': no such experiment or experiment group", s)); break;
      case PathKind::Other: plan.fail(fmt::format("'{}' {}; not {}", s, c.why, mode == TransferMode::Copy ? "copied" : "moved")); break;
      case PathKind::Experiment: plan.experiment(s, dst, !to_directory); break;
      case PathKind::Group: plan.group(s, dst, !to_directory); break;
    }
  }
  if (plan.failed()) return 1;  // nothing has been changed
  return plan.execute() ? 0 : 1;
}

int run_remove(const std::vector<std::string>& args, FILE* out, FILE* err_in) {
  if (int rc = common::handle_standard_options({"er_rm", kRemoveUsage, kRemoveOptions}, args, out); rc >= 0) return rc;
  Options o = parse(args, true);
  FILE* err = o.force ? nullptr : err_in;
  bool failed = false;
  auto fail = [&](const std::string& m) {
    if (err) fmt::print(err, "er_rm: {}\n", m);
    failed = true;
  };
  if (!o.bad_option.empty()) {
    fmt::print(err_in, "er_rm: {}\n", common::unknown_option(o.bad_option, kRemoveOptions));
    return 2;
  }
  if (o.version) {
    fmt::print(out, "er_rm: erkit {}\n", ERKIT_VERSION);
    return 0;
  }
  if (o.operands.empty()) {
    if (err) fmt::print(err, "{}", kRemoveUsage);
    return o.force ? 0 : 2;
  }
  auto remove_one = [&](const std::string& p) {
    std::string parent = parent_experiment(p);
    if (!parent.empty()) {
      fail(fmt::format("'{}' is a descendant experiment of '{}' and stays with it; remove '{}' instead", p, parent,
                       parent));
      return false;
    }
    std::string error;
    if (!remove_experiment(p, &error)) {
      fail(error);
      return false;
    }
    return true;
  };
  for (const auto& p : o.operands) {
    Classified c = classify(p);
    if (c.kind == PathKind::Missing) {
      fail(fmt::format("'{}': no such experiment or experiment group", p));
    } else if (c.kind == PathKind::Other) {
      fail(fmt::format("'{}' {}; not removed", p, c.why));
    } else if (c.kind == PathKind::Experiment) {
      remove_one(p);
    } else {
      // Members first, then the group file; a member that cannot be removed keeps the group.
      GroupFile g;
      std::string error;
      if (!read_group(p, &g, &error)) {
        fail(error);
        continue;
      }
      bool members_ok = true;
      for (const auto& m : g.paths) {
        Classified mc = classify(m);
        if (mc.kind == PathKind::Missing) continue;  // already gone
        if (mc.kind != PathKind::Experiment) {
          fail(fmt::format("group '{}': member '{}' {}; not removed", p, m, mc.why));
          members_ok = false;
          continue;
        }
        members_ok = remove_one(m) && members_ok;
      }
      if (!members_ok) {
        fail(fmt::format("group file '{}' kept because some members remain", p));
      } else if (unlink(p.c_str()) != 0) {
        fail(fmt::format("cannot remove '{}': {}", p, std::strerror(errno)));
      }
    }
  }
  return failed && !o.force ? 1 : 0;
}

}  // namespace erkit::expfiles
