// C++ allocations reach the heap tracer through libstdc++'s operator new: 10 leaked int[25]
// arrays (100 bytes each) from make_array, and a std::vector / std::string workload freed in full.
#include <string>
#include <vector>

int* volatile g_arrays[10];

__attribute__((noinline)) void make_array(int i) { g_arrays[i] = new int[25]; }

__attribute__((noinline)) void containers() {
  std::vector<std::string> v;
  for (int i = 0; i < 100; ++i) v.push_back(std::string(40 + i, 'x'));
  std::vector<int*> owned;
  for (int i = 0; i < 50; ++i) owned.push_back(new int(i));
  for (int* p : owned) delete p;
}

int main() {
  for (int i = 0; i < 10; ++i) make_array(i);
  containers();
  return 0;
}
