// Clock profiling of aarch64 programs under qemu-user: the 1:2:3 profile against the CPU time
// the program measured itself, a frameless call chain through qsort unwound to _start, every
// thread's CPU time, and the host's er_print reading the aarch64 experiment (symbols, lines,
// ARM64 disassembly).
#include <elf.h>

#include <cmath>
#include <fstream>

#include "aarch64_fixture.h"

namespace erkit::e2e {
namespace {

constexpr double kTickHi = 0.000997;  // -p hi

uint16_t elf_machine(const std::string& path) {
  Elf64_Ehdr eh{};
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(&eh), sizeof eh);
  return in ? eh.e_machine : 0;
}

// What these tests run is what they claim to: aarch64 code, under the emulator.
TEST_F(Aarch64, ProgramsAndCollectorAreBuiltForAarch64) {
  for (const char* p : {"ratio123", "clock_unwind_depth", "threads4", "trace_heap_threads"})
    EXPECT_EQ(elf_machine(arm_program(p)), EM_AARCH64) << p;
  for (const char* l : {"libcollector.so", "libcollector-clock.so"})
    EXPECT_EQ(elf_machine(std::string(ERKIT_AARCH64_LIB_DIR) + "/" + l), EM_AARCH64) << l;
  auto c = collect("-v -p off " + arm_program("ratio123") + " 1000");
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  EXPECT_NE(c.out.find("aarch64-linux-gnu/libcollector-clock.so"), std::string::npos) << c.out;
  EXPECT_NE(c.out.find("aarch64 target: run under "), std::string::npos) << c.out;
  std::string log = read("test.1.er/log");
  EXPECT_NE(log.find("setting name=emulation machine=aarch64 emulator="), std::string::npos) << log;
  // The collector ran inside the target and recorded it.
  EXPECT_NE(log.find(" start "), std::string::npos) << log;
}

TEST_F(Aarch64, WithoutAnEmulatorCollectRefusesClearly) {
  auto q = run("cd " + dir_ + " && ERKIT_QEMU=/nonexistent/qemu " + bin("collect") + " -o q.er " + arm_program("ratio123"));
  EXPECT_NE(q.status, 0);
  EXPECT_NE((q.out + q.err).find("ERKIT_QEMU=/nonexistent/qemu is not an executable file"), std::string::npos)
      << q.out << q.err;
  auto r = run("cd " + dir_ + " && QEMU_LD_PREFIX=/nonexistent/root " + bin("collect") + " -o r.er " +
               arm_program("ratio123"));
  EXPECT_NE(r.status, 0);
  EXPECT_NE((r.out + r.err).find("sysroot /nonexistent/root does not exist"), std::string::npos) << r.out << r.err;
  // Nothing was created for the refused runs.
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/q.er"));
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/r.er"));
}

TEST_F(Aarch64, OneTwoThreeRatioMatchesTheProgramsOwnCpuTime) {
  auto c = collect("-p hi " + arm_program("ratio123") + " 12000000 truth.txt");
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  auto truth = read_seconds_by_name(dir_ + "/truth.txt");
  ASSERT_EQ(truth.size(), 3u) << read("truth.txt");
  auto rows = functions("test.1.er");
  for (const char* f : {"one", "two", "three"}) {
    ASSERT_TRUE(rows.count(f)) << f << "\n" << listing_;
    EXPECT_NEAR(at(rows, f), truth[f], sampling_margin(truth[f], kTickHi)) << f << "\n" << listing_;
  }
  // The ratios of what the kernel measured, within the same margins.
  double one = at(rows, "one");
  ASSERT_GT(one, 0.02) << listing_;
  for (const auto& [f, k] : {std::pair{"two", 2.0}, std::pair{"three", 3.0}}) {
    double true_ratio = truth[f] / truth["one"];
    double margin = (sampling_margin(truth[f], kTickHi) + k * sampling_margin(truth["one"], kTickHi)) / truth["one"];
    EXPECT_NEAR(at(rows, f) / one, true_ratio, margin) << f << "\n" << listing_;
  }
  // main's inclusive time holds all three, and its caller is _start: complete stacks.
  double sum = at(rows, "one") + at(rows, "two") + at(rows, "three");
  EXPECT_GE(at(rows, "main", 2), sum - 0.001) << listing_;
  EXPECT_GE(at(rows, "_start", 2), sum - 0.001) << listing_;
  EXPECT_LT(at(rows, "<Unknown>"), 0.01 * at(rows, "<Total>")) << listing_;
}

// The host's er_print reads the aarch64 experiment: lines from the aarch64 DWARF, and the
// disassembly through capstone's ARM64 mode.
TEST_F(Aarch64, HostAnalysisShowsAarch64SourceAndDisassembly) {
  ASSERT_EQ(collect("-p hi " + arm_program("ratio123") + " 6000000").status, 0);
  auto d = er_print("-disasm three test.1.er");
  ASSERT_EQ(d.status, 0) << d.err;
  // A64 instructions of the loop (integer to floating point, fused multiply-add, the loop's
  // branch, return), no x86.
  for (const char* insn : {"scvtf", "fmadd", "b.ne", "ret"}) EXPECT_NE(d.out.find(insn), std::string::npos) << insn << "\n" << d.out;
  for (const char* x86 : {"%rsp", "movsd", "pxor"}) EXPECT_EQ(d.out.find(x86), std::string::npos) << x86 << "\n" << d.out;
  auto s = er_print("-source three test.1.er");
  ASSERT_EQ(s.status, 0) << s.err;
  // The loop's line (inside the SPIN macro's expansion at three()) holds three()'s time.
  EXPECT_NE(s.out.find("void three(long n) { SPIN(3 * n); }"), std::string::npos) << s.out;
  double line = row_value(s.out, "void three(long n) { SPIN(3 * n); }");
  EXPECT_GT(line, 0.0) << s.out;
}

TEST_F(Aarch64, FramelessChainThroughQsortUnwindsToStart) {
  auto c = collect("-p hi " + arm_program("clock_unwind_depth") + " 250");
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  // The program's functions sign their return addresses (pac-ret), and qemu's CPU really signs
  // them: the unwinder has to strip the signatures to find the callers.
  EXPECT_NE(c.out.find("return addresses: pac-signed"), std::string::npos) << c.out;
  auto rows = functions("test.1.er");
  double total = at(rows, "<Total>");
  ASSERT_GT(total, 0.3) << listing_;
  // Every sample's stack went through qsort's and bsearch's callbacks (libc, no frame pointers),
  // libstdc++.so's stream insertion and std::sort's lambda. (Under qemu the code around
  // spin_leaf, and the first run of any code, cost relatively more than natively: > 80 %
  // here, where the native test asks > 90 %.)
  for (const char* fn : {"cmp_a", "cmp_b", "chain_c"}) EXPECT_GT(at(rows, fn, 2), 0.8 * total) << fn << "\n" << listing_;
  EXPECT_GT(at(rows, "spin_leaf", 2), 0.5 * total) << listing_;
  double in_qsort = 0, in_libstdcxx = 0;
  for (const auto& [name, row] : rows) {
    if (name.find("qsort") != std::string::npos) in_qsort = std::max(in_qsort, row.values[2]);
    if (name.find("__ostream_insert") != std::string::npos) in_libstdcxx = std::max(in_libstdcxx, row.values[2]);
  }
  EXPECT_GT(in_qsort, 0.8 * total) << listing_;
  EXPECT_GT(in_libstdcxx, 0.8 * total) << listing_;
  // Complete: the main thread's stacks end at _start, the worker's at libc's thread start above
  // its root; a failed walk would end in <Unknown>. Outside main and the root: libc's exit and
  // thread start-up, which cost qemu a few % (translating them), natively nothing.
  double main_thread = at(rows, "main", 2), worker = at(rows, "unwind_thread_root", 2);
  EXPECT_GE((main_thread + worker) / total, 0.95) << listing_;
  EXPECT_GE(at(rows, "_start", 2), main_thread - 0.001) << listing_;
  EXPECT_GT(main_thread, 0.3 * total) << listing_;
  EXPECT_GT(worker, 0.3 * total) << listing_;
  EXPECT_LT(at(rows, "<Unknown>", 2), 0.01 * total) << listing_;
  EXPECT_EQ(at(rows, "<Truncated-stack>", 2), 0) << listing_;
}

TEST_F(Aarch64, EveryThreadsCpuTimeMatchesWhatItMeasured) {
  auto c = collect("-p hi " + arm_program("threads4") + " truth.txt 4000000 hot.txt");
  ASSERT_EQ(c.status, 0) << c.out << c.err;
  auto rows = functions("test.1.er");
  std::ifstream truth(dir_ + "/truth.txt");
  std::string kind;
  double process_user = 0;
  std::map<std::string, double> thread_user;
  while (truth >> kind) {
    if (kind == "thread") {
      std::string name;
      long tid;
      double u, s;
      truth >> name >> tid >> u >> s;
      thread_user[name] = u / 1e9;
    } else if (kind == "process") {
      double u, s;
      truth >> u >> s;
      process_user = u / 1e9;
    }
  }
  ASSERT_EQ(thread_user.size(), 5u) << read("truth.txt");
  ASSERT_GT(process_user, 0.2) << read("truth.txt");
  // A worker's whole life is its hot function: each worker thread's CPU time as the kernel
  // accounted it, ±5 % plus the samples at the two ends.
  for (const auto& [name, user] : thread_user) {
    if (name == "main") continue;
    EXPECT_NEAR(at(rows, name), user, 0.05 * user + sampling_margin(0, kTickHi)) << name << "\n" << listing_;
  }
  // Each hot function holds at least the CPU time its thread measured around it (-5 %). Under
  // qemu a signal reaches the program only between translated blocks: while qemu itself works
  // for the thread (translating code, creating the four threads) the timer's signal waits, and
  // that CPU time goes with the next sample, in hot_main. So hot_main lies between its own time
  // and the main thread's whole time (which also holds qemu's start-up before the collector).
  auto hot = read_seconds_by_name(dir_ + "/hot.txt");
  ASSERT_EQ(hot.size(), 5u) << read("hot.txt");
  for (const auto& [fn, t] : hot)
    EXPECT_GE(at(rows, fn), 0.95 * t - sampling_margin(0, kTickHi)) << fn << "\n" << listing_;
  for (const auto& [fn, t] : hot) {
    if (fn == "hot_main") continue;
    EXPECT_LE(at(rows, fn), 1.05 * t + sampling_margin(0, kTickHi)) << fn << "\n" << listing_;
  }
  EXPECT_LE(at(rows, "hot_main"), 1.05 * thread_user["main"] + sampling_margin(0, kTickHi)) << listing_;
  // Every thread's samples are complete stacks: to _start or through the thread root.
  EXPECT_LT(at(rows, "<Unknown>", 2), 0.01 * at(rows, "<Total>")) << listing_;
  EXPECT_GE(at(rows, "worker", 2), 0.95 * (thread_user["hot_a"] + thread_user["hot_b"] + thread_user["hot_c"] +
                                           thread_user["hot_d"]))
      << listing_;
}

}  // namespace
}  // namespace erkit::e2e
