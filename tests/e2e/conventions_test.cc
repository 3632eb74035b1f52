// End-to-end: the Linux tool conventions (issue 26) — every tool answers --help and --version
// and names itself and the bad argument in its errors, with "did you mean"; `--` ends the
// options; the generated man pages render without a groff warning and document every option
// the tool's --help lists; the generated bash completion offers er_print's commands (all of
// `er_print -help`), metric keywords and collect's options; progress appears on a terminal and
// never on a pipe or in JSON mode.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "e2e_util.h"

namespace erkit::e2e {
namespace {

namespace fs = std::filesystem;

// Every tool with a man page of section 1 (analyzer joins when it exists).
const std::vector<std::string> kTools = {"collect", "er_print",  "er_src",     "er_archive", "er_cp",    "er_mv",
                                         "er_rm",   "er_export", "er_convert", "er_import",  "er_kernel", "analyzer"};

std::string share(const std::string& rel) { return bin("../share/" + rel); }

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The options a tool's --help lists: the leading words of its indented "-x ..." lines.
std::set<std::string> help_options(const std::string& help) {
  std::set<std::string> out;
  for (const auto& l : lines(help)) {
    std::istringstream w(l);
    if (l.rfind("  -", 0) != 0) continue;
    for (std::string t; w >> t;) {
      if (!t.empty() && t.back() == ',') t.pop_back();
      if (t.size() < 2 || t[0] != '-') break;
      out.insert(t);
    }
  }
  return out;
}

class Conventions : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = make_workdir("conventions"); }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }
  RunResult sh(const std::string& cmd) { return run("cd " + dir_ + " && " + cmd); }
  std::string dir_;
};

TEST_F(Conventions, EveryToolAnswersHelpAndVersion) {
  for (const auto& tool : kTools) {
    SCOPED_TRACE(tool);
    auto h = sh(bin(tool) + " --help");
    EXPECT_EQ(h.status, 0) << h.err;
    EXPECT_EQ(h.out.rfind("Usage: " + tool + " ", 0), 0u) << h.out;
    EXPECT_EQ(h.err, "");
    EXPECT_NE(h.out.find("--version"), std::string::npos) << h.out;
    auto v = sh(bin(tool) + " --version");
    EXPECT_EQ(v.status, 0) << v.err;
    EXPECT_EQ(v.out.rfind(tool + ": erkit ", 0), 0u) << v.out;
    // A GNU-style typo: the tool, the bad argument, and the near miss.
    auto bad = sh(bin(tool) + " --hepl");
    EXPECT_NE(bad.status, 0);
    EXPECT_EQ(bad.out, "");
    EXPECT_NE(bad.err.find(tool + ": unknown option '--hepl'"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("did you mean '--help'?"), std::string::npos) << bad.err;
  }
  // The manual's own forms stay: collect with no arguments, -V, er_print -help.
  auto c = sh(bin("collect"));
  EXPECT_EQ(c.status, 0);
  EXPECT_EQ(c.out.rfind("Usage: collect ", 0), 0u) << c.out;
  EXPECT_EQ(sh(bin("collect") + " -V").out.rfind("collect: erkit ", 0), 0u);
  auto e = sh(bin("er_print") + " -help");
  EXPECT_EQ(e.status, 0) << e.err;
  EXPECT_NE(e.out.find("er_print commands"), std::string::npos) << e.out;
  // Near misses of the tools' own options.
  EXPECT_NE(sh(bin("er_print") + " -functoins x.er").err.find("did you mean 'functions'?"), std::string::npos);
  EXPECT_NE(sh(bin("er_print") + " --functions x.er").err.find("did you mean '-functions'?"), std::string::npos);
  EXPECT_NE(sh(bin("er_src") + " -disasn x").err.find("er_src: unknown option '-disasn' (did you mean '-disasm'?)"),
            std::string::npos);
}

TEST_F(Conventions, DoubleDashEndsOptions) {
  // An object whose name starts with '-': an option before --, a file after it.
  fs::create_symlink(program("work_ratio"), dir_ + "/-prog");
  auto opt = sh(bin("er_src") + " -func -prog");
  EXPECT_NE(opt.status, 0);
  EXPECT_NE(opt.err.find("unknown option '-prog'"), std::string::npos) << opt.err;
  auto file = sh(bin("er_src") + " -func -- -prog");
  EXPECT_EQ(file.status, 0) << file.err;
  EXPECT_NE(file.out.find(" main  (work_ratio.c)"), std::string::npos) << file.out;
  // collect: after --, the next word is the program; after the program, --help is the program's.
  auto dry = sh(bin("collect") + " -n -- ./-prog --help");
  EXPECT_EQ(dry.status, 0) << dry.err;
  EXPECT_NE(dry.out.find("Arguments:         --help"), std::string::npos) << dry.out;
}

TEST_F(Conventions, ManPagesRenderAndDocumentEveryOption) {
  std::vector<std::string> pages;
  for (const auto& t : kTools) pages.push_back(share("man/man1/" + t + ".1"));
  pages.push_back(share("man/man3/collectorAPI.3"));
  size_t generated = 0;
  for (const auto& d : fs::directory_iterator(share("man")))
    for (const auto& f : fs::directory_iterator(d.path())) (void)f, ++generated;
  EXPECT_EQ(generated, pages.size()) << "a page without its tool, or a tool without its page";
  for (const auto& page : pages) {
    SCOPED_TRACE(page);
    ASSERT_TRUE(fs::exists(page));
    // man -l with groff's warnings on: any warning fails the page.
    auto r = sh("MANWIDTH=100 man -E ascii --warnings -l " + page);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, "");
    std::string text = std::regex_replace(r.out, std::regex(".\b"), "");
    EXPECT_NE(text.find("NAME"), std::string::npos);
    EXPECT_NE(text.find("SYNOPSIS"), std::string::npos);
    std::string tool = fs::path(page).stem().string();
    if (tool == "collectorAPI") {
      for (const char* fn : {"collector_sample", "collector_pause", "collector_resume", "collector_thread_pause",
                             "collector_thread_resume", "collector_terminate_expt", "collector_func_load",
                             "collector_func_unload"})
        EXPECT_NE(text.find(fn), std::string::npos) << fn;
      continue;
    }
    // Every option the tool's --help lists is in its page.
    auto help = sh(bin(tool) + " --help");
    std::set<std::string> opts = help_options(help.out);
    EXPECT_GE(opts.size(), 2u) << help.out;
    for (const auto& o : opts)
      EXPECT_TRUE(std::regex_search(text, std::regex("(^|[^-A-Za-z])" + o + "($|[^-A-Za-z])"))) << tool << " " << o;
  }
  // er_print(1)'s command list is generated from the command table: every command is there.
  auto page = std::regex_replace(sh("MANWIDTH=100 man -E ascii -l " + share("man/man1/er_print.1")).out,
                                 std::regex(".\b"), "");
  auto help = sh(bin("er_print") + " -help").out;
  for (const auto& l : lines(help)) {
    if (l.rfind("  ", 0) != 0) continue;
    std::string name = l.substr(2, l.find_first_of(" |", 2) - 2);
    EXPECT_NE(page.find("\n       " + name), std::string::npos) << name;
  }
}

// Runs the completion function for the words of a command line; the last word is completed.
std::set<std::string> complete(const std::string& dir, const std::string& fn, const std::vector<std::string>& words) {
  std::string arr;
  for (const auto& w : words) arr += " '" + w + "'";
  auto r = run(fmt::format("cd {} && bash -c 'source {}; COMP_WORDS=({}); COMP_CWORD={}; {} \"${{COMP_WORDS[0]}}\"; "
                           "printf \"%s\\n\" \"${{COMPREPLY[@]}}\"'",
                           dir, share("bash-completion/completions/erkit"),
                           std::regex_replace(arr, std::regex("'"), "'\\''"), words.size() - 1, fn));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::set<std::string> out;
  for (const auto& l : lines(r.out))
    if (!l.empty()) out.insert(l);
  return out;
}

TEST_F(Conventions, CompletionOffersCommandsMetricsAndOptions) {
  // Every command `er_print -help` lists, as an option.
  std::set<std::string> all = complete(dir_, "_erkit_er_print", {"er_print", "-"});
  size_t commands = 0;
  for (const auto& l : lines(sh(bin("er_print") + " -help").out)) {
    if (l.rfind("  ", 0) != 0) continue;
    std::string names = l.substr(2, l.find(' ', 2) - 2);
    for (size_t b = 0, e; b < names.size(); b = e + 1) {
      e = names.find('|', b);
      if (e == std::string::npos) e = names.size();
      EXPECT_TRUE(all.count("-" + names.substr(b, e - b))) << names.substr(b, e - b);
      ++commands;
    }
  }
  EXPECT_GT(commands, 50u);
  EXPECT_EQ(complete(dir_, "_erkit_er_print", {"er_print", "-callers-c"}), std::set<std::string>{"-callers-callees"});
  // Metric keywords after -metrics and -sort, also after a ':'.
  EXPECT_EQ(complete(dir_, "_erkit_er_print", {"er_print", "-metrics", "e.us"}), std::set<std::string>{"e.user"});
  EXPECT_EQ(complete(dir_, "_erkit_er_print", {"er_print", "-sort", "i.user", ":", "e%sy"}),
            (std::set<std::string>{"e%sync", "e%syncn", "e%system"}));
  // collect: options, their values, counter names; after the program, nothing of collect's.
  std::set<std::string> opts = complete(dir_, "_erkit_collect", {"collect", "-"});
  for (const char* o : {"-p", "-H", "-F", "-o", "--help", "--version"}) EXPECT_TRUE(opts.count(o)) << o;
  EXPECT_EQ(complete(dir_, "_erkit_collect", {"collect", "-p", "h"}), (std::set<std::string>{"hi", "high"}));
  EXPECT_EQ(complete(dir_, "_erkit_collect", {"collect", "-h", "c"}),
            (std::set<std::string>{"cacheref", "cachem", "context-switches", "cpu-clock", "cpu-migrations", "cycles"}));
  EXPECT_EQ(complete(dir_, "_erkit_collect", {"collect", "-A", ""}), (std::set<std::string>{"off", "on", "copy"}));
  EXPECT_TRUE(complete(dir_, "_erkit_collect", {"collect", "-o", "x.er", "./app", "-"}).empty());
  // The other tools: their options from their own --help.
  std::set<std::string> src = complete(dir_, "_erkit_generic", {bin("er_src"), "-d"});
  EXPECT_EQ(src, (std::set<std::string>{"-disasm", "-dcc"}));
}

TEST_F(Conventions, ProgressOnATerminalOnly) {
  ASSERT_EQ(sh(bin("collect") + " -S off " + program("work_ratio") + " 20000000").status, 0);
  // No delay: even this small experiment shows each stage once.
  const std::string env = "ERKIT_PROGRESS_DELAY_MS=0 HOME=" + dir_ + " ";
  auto tty = sh(env + "script -qfec '" + bin("er_print") + " -functions test.1.er' /dev/null");
  EXPECT_EQ(tty.status, 0) << tty.err;
  for (const char* stage : {"er_print: reading ", "er_print: symbolising ", "er_print: aggregating "})
    EXPECT_NE(tty.out.find(stage), std::string::npos) << stage << "\n" << tty.out;
  EXPECT_NE(tty.out.find("\r\033[K"), std::string::npos) << "the progress line is erased";
  EXPECT_NE(tty.out.find("Functions sorted by metric"), std::string::npos);
  // A pipe: nothing.
  auto pipe = sh(env + bin("er_print") + " -functions test.1.er 2>&1 | cat");
  EXPECT_EQ(pipe.out.find("er_print: reading"), std::string::npos) << pipe.out;
  EXPECT_EQ(pipe.out.find('\r'), std::string::npos);
  // JSON mode on a terminal: nothing either.
  auto json = sh(env + "script -qfec '" + bin("er_print") + " -json -functions test.1.er' /dev/null");
  EXPECT_EQ(json.status, 0);
  EXPECT_EQ(json.out.find("er_print: reading"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("\"command\":\"functions\""), std::string::npos) << json.out;
}

}  // namespace
}  // namespace erkit::e2e
