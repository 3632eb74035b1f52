// End-to-end: files erkit writes as root in shared places (docs/reliability.md, "Threat
// model"). Another user (nobody, through setpriv) plants links, files and FIFOs where erkit
// reads or writes, or crafts an experiment's map; erkit, running as root, must neither copy
// what that user could not read nor write through what they planted, and must say what it
// refused. Skipped when not run as root (CI runs as root).
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "collect_fixture.h"

namespace erkit::e2e {
namespace {

namespace fs = std::filesystem;

constexpr const char* kAsNobody = "setpriv --reuid=65534 --regid=65534 --clear-groups ";

class Security : public CollectTest {
 protected:
  void SetUp() override {
    CollectTest::SetUp();
    if (geteuid() != 0) GTEST_SKIP() << "needs root (to act as another user)";
    if (run(std::string(kAsNobody) + "true").status != 0) GTEST_SKIP() << "setpriv cannot switch to nobody";
    chmod(dir_.c_str(), 0755);
  }
  void TearDown() override {
    for (const auto& p : planted_) unlink(p.c_str());
    CollectTest::TearDown();
  }
  RunResult as_nobody(const std::string& cmd) { return run(std::string(kAsNobody) + "sh -c '" + cmd + "'"); }
  static int mode_of(const std::string& p) {
    struct stat st;
    return lstat(p.c_str(), &st) == 0 ? int(st.st_mode & 07777) : -1;
  }
  // Runs `collect <flags> sec_wait_go` and, once its pid is known, `plant` (with PID
  // replaced) as nobody before letting it end.
  RunResult collect_with_plant(const std::string& flags, const std::string& plant, const std::string& mode = "") {
    fs::remove(path("pid.txt"));
    fs::remove(path("go"));
    RunResult c;
    std::thread t([&] { c = collect(flags + " " + program("sec_wait_go") + " pid.txt go " + mode); });
    int pid = 0;
    for (int i = 0; i < 3000 && !pid; ++i) {
      std::ifstream in(path("pid.txt"));
      if (!(in >> pid)) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (pid) {
      planted_.push_back("/tmp/perf-" + std::to_string(pid) + ".map");
      unlink(planted_.back().c_str());
      std::string cmd = plant;
      for (size_t at; (at = cmd.find("PID")) != std::string::npos;) cmd.replace(at, 3, std::to_string(pid));
      if (!plant.empty()) {
        EXPECT_EQ(as_nobody(cmd).status, 0) << cmd;
      }
    }
    std::ofstream(path("go")) << "go\n";
    t.join();
    EXPECT_NE(pid, 0) << "the program never wrote its pid";
    return c;
  }
  std::vector<std::string> planted_;
};

// A secret only root may read, and its content.
constexpr const char* kSecret = "TOP-SECRET-only-root-may-read-this";

TEST_F(Security, JitMapLinkedToASecretByAnotherUserIsNotCopied) {
  std::ofstream(path("secret")) << kSecret << "\n";
  chmod(path("secret").c_str(), 0600);
  auto c = collect_with_plant("", "ln -s " + path("secret") + " /tmp/perf-PID.map");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_FALSE(exists("test.1.er/jit.map")) << read("test.1.er/jit.map");
  auto h = er_print("-header test.1.er");
  EXPECT_NE(h.out.find(".map is a symbolic link: not copied into the experiment"), std::string::npos) << h.out;
  EXPECT_EQ(h.out.find(kSecret), std::string::npos);
}

TEST_F(Security, JitMapOfAnotherUserOrNotAFileIsNotCopied) {
  // A plausible map written by nobody: its names must not enter root's profile.
  auto c = collect_with_plant("", "echo 7f0000001000 40 planted_fn > /tmp/perf-PID.map");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_FALSE(exists("test.1.er/jit.map"));
  auto h = er_print("-header test.1.er");
  EXPECT_NE(h.out.find(".map belongs to another user: not copied"), std::string::npos) << h.out;
  // A FIFO would block the program's exit for ever if it were opened for reading.
  c = collect_with_plant("", "mkfifo /tmp/perf-PID.map");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_FALSE(exists("test.2.er/jit.map"));
  h = er_print("-header test.2.er");
  EXPECT_NE(h.out.find(".map is not a regular file: not copied"), std::string::npos) << h.out;
}

TEST_F(Security, ExperimentFilesFollowCollectsUmaskNotTheProgramsOne) {
  // collect under umask 077; the program sets umask 0 and writes its own JIT map.
  auto c = collect_with_plant("", "", "own");
  ASSERT_EQ(c.status, 0) << c.err;
  ASSERT_TRUE(exists("test.1.er/jit.map"));
  mode_t mask = umask(0);
  umask(mask);
  EXPECT_EQ(mode_of(path("test.1.er/jit.map")), int(0644 & ~mask));  // the test's own umask
  fs::remove(path("pid.txt"));
  fs::remove(path("go"));
  RunResult r;
  std::thread t([&] { r = run("cd " + dir_ + " && umask 077 && " + bin("collect") + " " + program("sec_wait_go") + " pid.txt go own"); });
  for (int i = 0; i < 3000 && !exists("pid.txt"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::ifstream in(path("pid.txt"));
  int pid = 0;
  in >> pid;
  planted_.push_back("/tmp/perf-" + std::to_string(pid) + ".map");
  std::ofstream(path("go")) << "go\n";
  t.join();
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(mode_of(path("test.2.er")), 0700);
  ASSERT_TRUE(exists("test.2.er/jit.map"));
  int files = 0;
  for (const auto& f : fs::recursive_directory_iterator(path("test.2.er"))) {
    ++files;
    EXPECT_EQ(mode_of(f.path().string()) & 077, 0) << f.path() << " is open to others: " << std::oct
                                                    << mode_of(f.path().string());
  }
  EXPECT_GT(files, 5);
  auto p = er_print("-functions test.2.er");
  EXPECT_EQ(p.status, 0) << p.err;
}

TEST_F(Security, ErImportWritesThroughNoPlantedLinkInTmp) {
  // A fake perf (PERF=) that fails with a diagnostic, and a file that looks like perf.data.
  std::ofstream(path("fakeperf")) << "#!/bin/sh\necho fake perf diagnostics >&2\nexit 1\n";
  chmod(path("fakeperf").c_str(), 0755);
  std::ofstream(path("perf.data")) << "PERFILE2 and nothing else";
  std::ofstream(path("victim")) << "VICTIM\n";
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    char c;
    close(go[1]);
    if (::read(go[0], &c, 1) != 1 || chdir(dir_.c_str()) != 0) _exit(90);
    int err = ::open("err.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (err < 0 || dup2(err, 2) < 0) _exit(91);
    setenv("PERF", (dir_ + "/fakeperf").c_str(), 1);
    std::string tool = bin("er_import");
    execl(tool.c_str(), tool.c_str(), "perf.data", static_cast<char*>(nullptr));
    _exit(92);
  }
  close(go[0]);
  // The name the old er_import redirected perf's stderr to, planted before it runs.
  std::string link = "/tmp/er_import_" + std::to_string(pid) + ".err";
  planted_.push_back(link);
  unlink(link.c_str());
  EXPECT_EQ(as_nobody("ln -s " + path("victim") + " " + link).status, 0);
  ASSERT_EQ(write(go[1], "g", 1), 1);
  close(go[1]);
  int st = 0;
  ASSERT_EQ(waitpid(pid, &st, 0), pid);
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 1);
  EXPECT_NE(read("err.txt").find("fake perf diagnostics"), std::string::npos) << read("err.txt");
  EXPECT_EQ(read("victim"), "VICTIM\n");
  struct stat ls;
  EXPECT_EQ(lstat(link.c_str(), &ls), 0) << "the planted link was removed: er_import used that name";
}

// er_archive run by root on an experiment nobody recorded and then crafted.
TEST_F(Security, ErArchiveCopiesOnlyWhatTheOwnerCouldReadAndNeverWidens) {
  ASSERT_EQ(chmod(dir_.c_str(), 0777), 0);
  // nobody's own program, 0711: others may run it but not read it.
  fs::copy_file(program("sec_wait_go"), path("app"));
  ASSERT_EQ(chown(path("app").c_str(), 65534, 65534), 0);
  ASSERT_EQ(chmod(path("app").c_str(), 0711), 0);
  std::ofstream(path("go")) << "go\n";
  auto c = as_nobody("cd " + dir_ + " && umask 022 && " + bin("collect") + " -A off ./app pid.txt go");
  ASSERT_EQ(c.status, 0) << c.err;
  // Root's secrets: an ELF only root can read (in a 0700 directory), and a text file.
  fs::create_directory(path("private"));
  chmod(path("private").c_str(), 0700);
  fs::copy_file(program("sec_drop_fork"), path("private/secret.so"));
  std::ofstream(path("notes.txt")) << kSecret << "\n";
  // A 2 GiB sparse "ELF" file readable by everyone.
  {
    std::ofstream huge(path("huge.so"));
    huge << "\x7f" "ELF";
  }
  ASSERT_EQ(truncate(path("huge.so").c_str(), off_t(2) << 30), 0);
  // The crafted map lines, and archives/ made a link to a directory of root's.
  fs::create_directory(path("rootdir"));
  std::string lines;
  for (const char* f : {"private/secret.so", "notes.txt", "huge.so"})
    lines += "1 load path=\"" + path(f) + "\" bias=0x0 lo=0x1000 hi=0x2000 buildid=-\n";
  std::ofstream(path("lines")) << lines;
  ASSERT_EQ(as_nobody("cat " + path("lines") + " >> " + path("test.1.er/map") + " && ln -s " + path("rootdir") + " " +
                      path("test.1.er/archives"))
                .status,
            0);
  auto a = run("cd " + dir_ + " && umask 000 && " + bin("er_archive") + " -A test.1.er");
  EXPECT_NE(a.status, 0) << "archives/ is a link: nothing may be written";
  EXPECT_TRUE(fs::is_empty(path("rootdir")));
  // Without the link: what nobody may read is archived, the rest only named with the reason.
  ASSERT_EQ(as_nobody("rm " + path("test.1.er/archives")).status, 0);
  a = run("cd " + dir_ + " && umask 000 && " + bin("er_archive") + " -A test.1.er");
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_NE(a.err.find(path("private/secret.so") + ": the load object cannot be read by the experiment's owner"),
            std::string::npos)
      << a.err;
  EXPECT_NE(a.err.find(path("notes.txt") + ": the load object is not an ELF file: skipped"), std::string::npos) << a.err;
  EXPECT_NE(a.err.find(path("huge.so") + ": the load object is larger than 1024 MiB: skipped"), std::string::npos)
      << a.err;
  std::string archives = path("test.1.er/archives");
  EXPECT_EQ(mode_of(archives), 0755) << "umask 000 must not open the experiment to everyone";
  bool app_copied = false;
  uintmax_t copied_bytes = 0;
  for (const auto& f : fs::directory_iterator(archives)) {
    struct stat st;
    ASSERT_EQ(lstat(f.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 65534u) << f.path() << ": written with root's rights";
    std::string name = f.path().filename().string();
    EXPECT_TRUE(name.rfind("secret.so.", 0) != 0 || name.find(".archive") != std::string::npos) << name;
    EXPECT_TRUE(name.rfind("notes.txt.", 0) != 0 || name.find(".archive") != std::string::npos) << name;
    EXPECT_TRUE(name.rfind("huge.so.", 0) != 0 || name.find(".archive") != std::string::npos) << name;
    if (name.find(".archive") == std::string::npos) copied_bytes += uintmax_t(st.st_size);
    if (name.rfind("app.", 0) == 0 && name.find(".archive") == std::string::npos) {
      app_copied = true;
      EXPECT_EQ(st.st_mode & 07777, 0711u) << "the copy of a 0711 program must not become readable";
    } else if (name.find(".archive") != std::string::npos) {
      EXPECT_EQ(st.st_mode & 07777, 0644u) << name;
    }
  }
  EXPECT_TRUE(app_copied);
  EXPECT_LT(copied_bytes, uintmax_t(1) << 30);
  EXPECT_EQ(run("grep -rl " + std::string(kSecret) + " " + archives).out, "");
}

// A descendant that cannot create its experiment says so in the founder's log.
TEST_F(Security, DescendantThatChangedUserOrRootWarnsInTheFoundersLog) {
  auto c = collect("-F on " + program("sec_drop_fork") + " setuid");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_FALSE(exists("test.1.er/_f1.er"));
  auto h = er_print("-header test.1.er");
  EXPECT_NE(h.out.find("descendant _f1 (pid "), std::string::npos) << h.out;
  EXPECT_NE(h.out.find(", uid 65534, "), std::string::npos) << h.out;
  EXPECT_NE(h.out.find("was followed but could not create its experiment " + path("test.1.er/_f1.er") +
                       ": permission denied"),
            std::string::npos)
      << h.out;
  fs::create_directory(path("jail"));
  c = collect("-F on " + program("sec_drop_fork") + " chroot " + path("jail"));
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_FALSE(exists("test.2.er/_f1.er"));
  h = er_print("-header test.2.er");
  EXPECT_NE(h.out.find("was followed but could not create its experiment " + path("test.2.er/_f1.er") +
                       ": no such directory"),
            std::string::npos)
      << h.out;
  // A set-user-ID program (of nobody, exec'd by root): the loader ignores the collector in it.
  fs::copy_file(program("sec_drop_fork"), path("setid_prog"));
  ASSERT_EQ(chown(path("setid_prog").c_str(), 65534, 65534), 0);
  ASSERT_EQ(chmod(path("setid_prog").c_str(), 04755), 0);
  c = collect("-F on " + program("sec_drop_fork") + " exec " + path("setid_prog"));
  ASSERT_EQ(c.status, 0) << c.err;
  h = er_print("-header test.3.er");
  EXPECT_NE(h.out.find("descendant _f1_x1 (" + path("setid_prog") + ") is a set-user-ID, set-group-ID or capability "
                       "program: the dynamic loader ignores the collector in it (secure mode), so it runs without "
                       "recording"),
            std::string::npos)
      << h.out;
  h = er_print("-header test.3.er/_f1_x1.er");
  EXPECT_NE(h.out.find("this experiment holds no data"), std::string::npos) << h.out;
}

}  // namespace
}  // namespace erkit::e2e
