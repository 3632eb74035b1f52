// Java profiling end to end with a real JVM (collect -j; docs/java.md): the purpose-built Java
// programs of tests/programs/java, profiled by collect, read back by er_print in the three view
// modes. Label "java": each test starts one JVM (about a second of CPU).
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "java_fixture.h"

namespace erkit::e2e {
namespace {

class JavaProfile : public JavaTest {};

// Two methods in a known 1:2 ratio on two threads: both by name in user mode, in that ratio;
// nearly every sample of a Java thread has a Java stack rooted at the thread's run or main.
TEST_F(JavaProfile, UserModeShowsMethodsByNameInTheirRatioWithRootedStacks) {
  auto c = collect("-o r.er " + java("Ratio 300000000"));
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  ASSERT_NE(c.out.find("done"), std::string::npos);
  // User CPU: the threads' own work (total thread time also counts waiting for a CPU under load).
  auto r = view_rows("r.er", "user", "user");
  ASSERT_TRUE(r.count("Ratio.light(long)") && r.count("Ratio.heavy(long)")) << er_print("-viewmode user -functions r.er").out;
  double light = excl(r, "Ratio.light(long)"), heavy = excl(r, "Ratio.heavy(long)");
  // Each thread does only its method's loop; a sample straddling a thread's start or end can
  // move at most one sample's time to a neighbour.
  double margin = 2 * largest_cpu_sample_seconds(path("r.er")) * 1e9;
  EXPECT_NEAR(heavy / light, 2.0, 0.2 + margin / light) << light << " " << heavy;
  // Java threads: every sample but <JVM-System>'s. Rooted: under Thread.run or main.
  double total = incl(r, "<Total>");
  double java_threads = total - excl(r, "<JVM-System>");
  double rooted = incl(r, "Ratio$Worker.run()") + incl(r, "Ratio.main(java.lang.String[])");
  EXPECT_GE(rooted, 0.95 * java_threads) << "no Java stack: " << excl(r, "<no Java callstack recorded>")
                                          << " ns of " << java_threads;
  // Source view: the .java file with the lines of heavy()'s loop holding its time.
  auto src = er_print("-viewmode user -metrics e.user -addpath " + std::string(ERKIT_SOURCE_DIR) +
                      "/tests/programs/java -source 'Ratio.heavy(long)' r.er");
  ASSERT_EQ(src.status, 0) << src.err;
  double lines = 0;
  for (const char* row : {" 18.     for (long i = 0; i < 2 * n; i++)", " 19.       x ^= x << 13;",
                          " 20.       x ^= x >>> 7;", " 21.       x ^= x << 17;"})
    lines += std::max(0.0, row_value(src.out, row));
  EXPECT_NEAR(lines, heavy / 1e9, 0.0025) << src.out;  // four values rounded to 1 ms
  // Machine mode: the compiled methods by the agent's names, no Java pseudo-functions.
  auto m = view_rows("r.er", "machine", "user");
  EXPECT_EQ(m.count("<JVM-System>"), 0u);
  EXPECT_GT(excl(m, "Ratio.heavy(long)"), 0.5 * heavy);
  EXPECT_EQ(incl(m, "<Total>"), total);  // the same events in every mode
  // What Java profiling cost, on the log's exit line (docs/java.md, Overhead): a Java stack
  // (AsyncGetCallTrace) for clock samples of Java threads only, each inside its signal's
  // handler time, and the CPU of the agent's callbacks (every class's methods at least).
  std::string log = read("r.er/log");
  auto key = [&](const std::string& k) {
    std::smatch v;
    return std::regex_search(log, v, std::regex(" " + k + "=(\\d+)")) ? std::stod(v[1].str()) : -1.0;
  };
  EXPECT_GT(key("cost_java_stacks"), 0) << log;
  EXPECT_LE(key("cost_java_stacks"), key("cost_signals")) << log;
  EXPECT_GT(key("cost_java_stack_ns"), 0) << log;
  EXPECT_LT(key("cost_java_stack_ns"), key("cost_signal_ns")) << log;
  EXPECT_GT(key("cost_java_agent_cpu_ns"), 0) << log;
}

// Garbage collections: the GC threads' time is <JVM-System>'s in user mode, and their machine
// stacks (the collector's functions in libjvm.so) in machine mode.
TEST_F(JavaProfile, GarbageCollectionIsJvmSystemTime) {
  auto c = collect("-o g.er " + java("-XX:+UseSerialGC -Xmx512m Churn 20"));
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  auto u = view_rows("g.er", "user", "total");
  auto m = view_rows("g.er", "machine", "total");
  double sys = excl(u, "<JVM-System>");
  // Serial GC runs in the VM thread, a JVM thread: what it spends in the collector's code.
  double gc = 0;
  for (auto& [name, v] : m)
    if (name.find("GenCollectedHeap::") != std::string::npos || name.find("SerialHeap::") != std::string::npos)
      gc = std::max(gc, v.at(1));
  EXPECT_GT(gc, 0) << er_print("-viewmode machine -functions g.er").out;
  EXPECT_GE(sys, gc * 0.99) << "GC " << gc << " ns, <JVM-System> " << sys << " ns";
  EXPECT_GT(sys, 0.2 * incl(u, "<Total>"));
}

// Monitor contention on a synchronized block, traced with -s on: the wait is the waiting
// method's, about as long as the program itself measured.
TEST_F(JavaProfile, MonitorContentionIsAttributedToTheWaitingMethod) {
  auto c = collect("-s on -o s.er " + java("Contend"));
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  std::smatch mt;
  ASSERT_TRUE(std::regex_search(c.out, mt, std::regex("waited_ns (\\d+)"))) << c.out;
  double truth = std::stod(mt[1].str());
  auto r = view_rows("s.er", "user", "sync");
  double waited = incl(r, "Contend.waitForLock()");
  EXPECT_NEAR(waited, truth, 0.1 * truth) << er_print("-viewmode user -metrics i.sync -functions s.er").out;
  EXPECT_GT(excl(r, "Contend.waitForLock()"), 0.9 * waited);  // the wait is in the method itself
}

// A native method (JNI): its C function under the Java method that called it, in user mode.
TEST_F(JavaProfile, JniFunctionIsUnderTheCallingJavaMethod) {
  auto c = collect("-o j.er java -Djava.library.path=" + program("java") + " -cp " + program("java") + " Jni");
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  auto r = view_rows("j.er", "user", "total");
  double spin = excl(r, "jni_spin"), native = incl(r, "Java_Jni_work"), method = incl(r, "Jni.work(long)");
  ASSERT_GT(spin, 0) << er_print("-viewmode user -functions j.er").out;
  EXPECT_GE(native, spin);
  EXPECT_GE(method, native);
  auto cc = er_print("-viewmode user -csingle Java_Jni_work j.er");
  ASSERT_EQ(cc.status, 0) << cc.err;
  // The caller (listed before the centre, marked *) is the Java native method.
  size_t center = cc.out.find("*Java_Jni_work");
  ASSERT_NE(center, std::string::npos) << cc.out;
  EXPECT_NE(cc.out.substr(0, center).find("Jni.work(long)"), std::string::npos) << cc.out;
}

}  // namespace
}  // namespace erkit::e2e
