// Issue 21 end to end with a real JVM: Java thread names in the views (thread_list, header,
// thread_select name=), Java allocations (collect -H on), and the bytecode disassembly of a Java
// method (user mode) against javap -c of the same class, machine mode the compiled code.
// Label "java" (tests/e2e/java/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cmath>
#include <regex>

#include "java_fixture.h"

namespace erkit::e2e {
namespace {

class JavaViews : public JavaTest {};

// The JVMTI names of Java threads: in thread_list (text and JSON), in the header, and as the
// thread_select name=pattern selection, which must select the thread that ran that method.
TEST_F(JavaViews, JavaThreadNamesInThreadListHeaderAndSelection) {
  auto c = collect("-o t.er " + java("Ratio 60000000"));
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  auto list = er_print("-json -thread_list t.er");
  ASSERT_EQ(list.status, 0) << list.err;
  std::map<std::string, int> number;  // name -> thread number
  std::regex th("\"thread\":\\s*(\\d+),\\s*\"lwp\":\\s*\\d+,.*?\"name\":\\s*\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(list.out.begin(), list.out.end(), th); it != std::sregex_iterator(); ++it)
    if (!(*it)[2].str().empty()) number[(*it)[2].str()] = std::stoi((*it)[1].str());
  ASSERT_TRUE(number.count("light-worker") && number.count("heavy-worker") && number.count("main")) << list.out;
  EXPECT_NE(number["light-worker"], number["heavy-worker"]);
  auto text = er_print("-thread_list t.er");
  EXPECT_NE(text.out.find(" Name\n"), std::string::npos) << text.out;
  EXPECT_TRUE(std::regex_search(text.out, std::regex("\\n\\s+1\\s+" + std::to_string(number["heavy-worker"]) +
                                                     "\\s+\\d+\\s+yes .* heavy-worker\\n")))
      << text.out;
  auto head = er_print("-header t.er");
  EXPECT_NE(head.out.find("heavy-worker (thread " + std::to_string(number["heavy-worker"]) + ")"), std::string::npos)
      << head.out;
  // Selected by name: each worker's thread holds its own method only.
  auto heavy = rows("-thread_select name=heavy-worker -viewmode user -metrics e.user -functions t.er");
  auto light = rows("-thread_select 'name=light-*' -viewmode user -metrics e.user -functions t.er");
  EXPECT_GT(at(heavy, "Ratio.heavy(long)"), 0);
  EXPECT_EQ(at(heavy, "Ratio.light(long)"), 0);
  EXPECT_GT(at(light, "Ratio.light(long)"), 0);
  EXPECT_EQ(at(light, "Ratio.heavy(long)"), 0);
  auto none = er_print("-thread_select name=nosuch -functions t.er");
  EXPECT_NE(none.status, 0);
  EXPECT_NE(none.err.find("no thread named 'nosuch'"), std::string::npos) << none.err;
}

// collect -H on in a JVM with ERKIT_JAVA_ALLOCS=on: every Java object (JVMTI sampled allocations at interval 0) under the
// Java method that allocated it, exact counts; Java objects are not leaks.
TEST_F(JavaViews, JavaAllocationsByJavaStackWithExactCounts) {
  const int n = 20000;
  auto c = run("cd " + path("") + " && ERKIT_JAVA_ALLOCS=on " + bin("collect") + " -H on -p off -o a.er " +
               java("Alloc " + std::to_string(n)));
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  ASSERT_NE(c.out.find("done allocated"), std::string::npos) << c.out;
  // Expert mode: the Java objects exactly, apart from the JVM's own mallocs on the allocation path.
  auto x = rows("-viewmode expert -metrics e.alloc:i.alloc:e.balloc:e.leak -functions a.er");
  ASSERT_TRUE(x.count("Alloc.make(int)")) << er_print("-viewmode expert -metrics e.alloc:i.alloc -functions a.er").out;
  EXPECT_EQ(at(x, "Alloc.make(int)", 0), n);
  // Every object of make() is a byte[1000]: one size, between 1000 bytes and 1000 + a header.
  double bytes = at(x, "Alloc.make(int)", 2);
  EXPECT_EQ(std::fmod(bytes, n), 0.0) << bytes;
  EXPECT_GE(bytes / n, 1000);
  EXPECT_LE(bytes / n, 1024);
  // Allocated in the callee; its first, interpreted calls may add a few objects or mallocs of the
  // JVM's runtime (seen: 2, sizes 24 and 32) below any machine frame expert mode can show.
  EXPECT_GE(at(x, "Alloc.cell(int)", 0), 2 * n);
  EXPECT_LE(at(x, "Alloc.cell(int)", 0), 2 * n + 8);
  EXPECT_EQ(at(x, "Alloc.pair(int)", 0), 0);      // nothing of its own
  EXPECT_GE(at(x, "Alloc.pair(int)", 1), 2 * n);  // the callee's, inclusive
  EXPECT_EQ(at(x, "Alloc.make(int)", 3), 0);      // not leaks: the GC frees them
  // User mode: the same objects under the same methods, with the few mallocs the JVM makes on
  // their allocation path (its machine frames are folded into the Java method).
  auto r = rows("-viewmode user -metrics e.alloc:i.alloc:e.balloc:e.leak -functions a.er");
  EXPECT_GE(at(r, "Alloc.make(int)", 0), n);
  EXPECT_LE(at(r, "Alloc.make(int)", 0), n + n / 100);
  EXPECT_GE(at(r, "Alloc.cell(int)", 0), 2 * n);
  EXPECT_LE(at(r, "Alloc.cell(int)", 0), 2 * n + n / 50);
  EXPECT_GE(at(r, "Alloc.main(java.lang.String[])", 1), 3 * n);
}

// -disasm of a Java method in user mode: its bytecodes (recorded by the agent) as javap -c lists
// them, bci by bci, with the method's time on them; machine mode the compiled code's instructions.
TEST_F(JavaViews, BytecodeDisassemblyMatchesJavapAndCarriesMetrics) {
  auto c = collect("-o d.er " + java("Ratio 100000000"));
  ASSERT_EQ(c.status, 0) << c.err << c.out;
  auto javap = run("javap -c -cp " + program("java") + " Ratio");
  ASSERT_EQ(javap.status, 0) << javap.err;
  // javap's instructions of heavy(): "      12: lxor".
  size_t from = javap.out.find("static long heavy(long);");
  ASSERT_NE(from, std::string::npos) << javap.out;
  size_t to = javap.out.find("\n\n", from);
  std::string body = javap.out.substr(from, to - from);
  std::vector<std::pair<int, std::string>> want;
  std::regex ins("\\n\\s+(\\d+): (\\w+)");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), ins); it != std::sregex_iterator(); ++it)
    want.emplace_back(std::stoi((*it)[1].str()), (*it)[2].str());
  ASSERT_GT(want.size(), 10u) << body;
  auto d = er_print("-json -viewmode user -metrics e.user -disasm 'Ratio.heavy(long)' d.er");
  ASSERT_EQ(d.status, 0) << d.err;
  std::vector<std::pair<int, std::string>> got;
  std::regex row("\"kind\":\\s*\"bytecode\",.*?\"bci\":\\s*(\\d+),.*?\"mnemonic\":\\s*\"(\\w+)\".*?\"values\":\\s*\\[([0-9.e+]+)");
  double on_bytecodes = 0;
  for (auto it = std::sregex_iterator(d.out.begin(), d.out.end(), row); it != std::sregex_iterator(); ++it) {
    got.emplace_back(std::stoi((*it)[1].str()), (*it)[2].str());
    on_bytecodes += std::stod((*it)[3].str());
  }
  EXPECT_EQ(got, want) << d.out;
  // The samples of heavy() are at its bytecodes: their sum is the method's time (the JVM may
  // give a frame no bytecode index now and then: at most a few per cent elsewhere).
  auto r = rows("-viewmode user -metrics e.user -functions d.er");
  const double heavy = at(r, "Ratio.heavy(long)");
  EXPECT_GT(heavy, 0);
  EXPECT_LE(on_bytecodes, heavy * (1 + 1e-9)) << d.out;
  EXPECT_GE(on_bytecodes, 0.95 * heavy) << d.out;
  auto text = er_print("-viewmode user -metrics e.user -disasm 'Ratio.heavy(long)' d.er");
  EXPECT_TRUE(std::regex_search(text.out, std::regex("\\[\\s*19\\]\\s+>?\\s*\\d+:\\s+lload"))) << text.out;
  // Machine mode: the compiled method's generated code (x86-64 or aarch64 instructions).
  auto m = er_print("-viewmode machine -metrics e.user -disasm 'Ratio.heavy(long)' d.er");
  ASSERT_EQ(m.status, 0) << m.err;
  EXPECT_EQ(m.out.find("lload"), std::string::npos) << m.out;
  EXPECT_TRUE(std::regex_search(m.out, std::regex("\\]\\s+>?\\s*[0-9a-f]+:\\s+(mov|xor|shl|shr|add|cmp|eor|lsl|lsr)")))
      << m.out;
  EXPECT_NE(m.out.find("(compiled instance at 0x"), std::string::npos) << m.out;
}

}  // namespace
}  // namespace erkit::e2e
