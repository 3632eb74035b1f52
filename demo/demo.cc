// erkit's demo program: a small multi-threaded C++ program with a few hot functions of
// different kinds (floating point, sorting through a lambda, hashing, string building).
// `scripts/demo` profiles it and prints the function list and the callers-callees panels.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

volatile double g_sink;

__attribute__((noinline)) double integrate(int steps) {
  double sum = 0;
  for (int i = 0; i < steps; ++i) {
    double x = (i + 0.5) / steps;
    sum += std::sqrt(1.0 - x * x);
  }
  return 4.0 * sum / steps;
}

__attribute__((noinline)) void sort_records(int rounds) {
  std::mt19937 rng(7);
  std::vector<std::pair<int, double>> v(200000);
  for (int r = 0; r < rounds; ++r) {
    for (auto& p : v) p = {int(rng() % 1000), double(rng() % 100000)};
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second < b.second;
    });
  }
  g_sink = v[v.size() / 2].second;
}

__attribute__((noinline)) size_t count_words(int rounds) {
  std::unordered_map<std::string, int> counts;
  std::string word;
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < 100000; ++i) {
      word = "w" + std::to_string((i * 7919 + r) % 5000);
      counts[word]++;
    }
  }
  return counts.size();
}

__attribute__((noinline)) void worker(int id) {
  if (id % 2 == 0) {
    g_sink = integrate(150000000);
  } else {
    sort_records(14);
  }
  __asm__ volatile("" ::: "memory");
}

}  // namespace

int main() {
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) threads.emplace_back(worker, i);
  size_t words = count_words(30);
  for (auto& t : threads) t.join();
  std::printf("demo: done (%zu distinct words)\n", words);
  return 0;
}
