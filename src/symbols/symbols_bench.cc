// erkit_symbols_bench OBJECT...: preparation and per-PC lookup cost, for docs/symbols.md.
// For each object: open (symbol table + CU ranges), then N distinct PCs spread over its
// functions are looked up cold (building the CUs they touch) and again warm.
#include <chrono>
#include <cstdio>
#include <random>

#include "symbols/symbols.h"

using erkit::symbols::ObjectSymbols;

namespace {
double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main(int argc, char** argv) {
  const size_t kPcs = 20000;
  for (int i = 1; i < argc; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    std::string err;
    auto o = ObjectSymbols::open(argv[i], "", &err);
    if (!o) {
      std::fprintf(stderr, "%s\n", err.c_str());
      return 1;
    }
    double open_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    const auto& fs = o->functions();
    double funcs_ms = ms_since(t0);
    // A second object measures lookups before functions() forced every CU.
    auto fresh = ObjectSymbols::open(argv[i], "", &err);
    std::mt19937_64 rng(42);
    std::vector<uint64_t> pcs;
    for (size_t k = 0; k < kPcs && !fs.empty(); ++k) {
      const auto& f = fs[rng() % fs.size()];
      pcs.push_back(f.addr + (f.size ? rng() % f.size : 0));
    }
    size_t frames = 0;
    t0 = std::chrono::steady_clock::now();
    for (uint64_t pc : pcs) frames += fresh->lookup(pc).size();
    double cold_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    const int kRounds = 5;
    for (int r = 0; r < kRounds; ++r) {
      for (uint64_t pc : pcs) frames += fresh->lookup(pc).size();
    }
    double warm_ms = ms_since(t0);
    std::printf("%s\n  debug file: %s\n  functions: %zu (symbols+plt %zu)\n"
                "  open: %.1f ms   functions(): %.1f ms (all CUs indexed)\n"
                "  %zu random PCs: first pass %.1f ms (%.2f us/PC, builds touched CUs), "
                "warm %.3f us/PC (%.2f frames/PC)\n",
                argv[i], o->debug_file().c_str(), fs.size(), o->symbol_count(), open_ms, funcs_ms,
                pcs.size(), cold_ms, 1000 * cold_ms / pcs.size(), 1000 * warm_ms / (kRounds * pcs.size()),
                double(frames) / ((kRounds + 1) * pcs.size()));
  }
  return 0;
}
