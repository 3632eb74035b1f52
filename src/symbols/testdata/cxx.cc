// C++ test program for symbols_test: namespaces, templates, a method.
#include <cstdio>
#include <string>

namespace outer::inner {

template <typename T>
struct Calc {
  __attribute__((noinline)) T twice(T v) const { return v + v; }  // LINE:twice
};

template <typename T>
__attribute__((noinline)) T sum3(T a, T b, T c) {
  return a + b + c;  // LINE:sum3
}

}  // namespace outer::inner

__attribute__((noinline)) int use_string(const std::string& s) { return static_cast<int>(s.size()); }

int main(int argc, char**) {
  outer::inner::Calc<int> c;
  int r = c.twice(argc) + outer::inner::sum3<long>(argc, 2, 3) + use_string("hello");
  std::printf("%d\n", r);
  return r == 1000;
}
