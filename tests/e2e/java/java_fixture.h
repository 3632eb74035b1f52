// The fixture of the Java end-to-end tests (label "java"; tests/e2e/java/CMakeLists.txt): the
// purpose-built Java programs of tests/programs/java run by a real JVM under collect, and
// er_print's JSON function rows read back by name.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "collect_fixture.h"

namespace erkit::e2e {

class JavaTest : public CollectTest {
 protected:
  using Rows = std::map<std::string, std::vector<double>>;
  // "java -cp <the test programs' classes> ARGS": a JVM command line for collect or run.
  std::string java(const std::string& args) const { return "java -cp " + program("java") + " " + args; }
  // er_print -json ARGS (-functions): function name -> its values, in the order of -metrics.
  Rows rows(const std::string& args) {
    auto p = er_print("-json " + args);
    EXPECT_EQ(p.status, 0) << p.err;
    return parse_json_function_rows(p.out);
  }
  // The functions of `exp` in view `mode` with e.METRIC and i.METRIC: [excl ns, incl ns].
  Rows view_rows(const std::string& exp, const std::string& mode, const std::string& metric = "user") {
    return rows("-viewmode " + mode + " -metrics e." + metric + ":i." + metric + " -functions " + exp);
  }
  // Value i of function f (0 when f has no row: never sampled).
  static double at(Rows& r, const std::string& f, size_t i = 0) { return r.count(f) ? r[f].at(i) : 0; }
  static double excl(Rows& r, const std::string& f) { return at(r, f, 0); }
  static double incl(Rows& r, const std::string& f) { return at(r, f, 1); }
};

}  // namespace erkit::e2e
