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
  const int kRounds = 5;
  for (int i = 1; i < argc; ++i) {
    std::string err;
    // Object 1: list every function (indexes every CU); used to pick the PCs.
    auto t0 = std::chrono::steady_clock::now();
    auto all = ObjectSymbols::open(argv[i], "", &err);
    if (!all) {
      std::fprintf(stderr, "%s\n", err.c_str());
      return 1;
    }
    const auto& fs = all->functions();
    double full_ms = ms_since(t0);
    std::mt19937_64 rng(42);
    std::vector<uint64_t> pcs;
    for (size_t k = 0; k < kPcs && !fs.empty(); ++k) {
      const auto& f = fs[rng() % fs.size()];
      pcs.push_back(f.addr + (f.size ? rng() % f.size : 0));
    }
    // Object 2: what an analysis pays: open, then only the CUs its PCs touch.
    t0 = std::chrono::steady_clock::now();
    auto o = ObjectSymbols::open(argv[i], "", &err);
    double open_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    size_t frames = o->lookup(pcs.empty() ? 0 : pcs[0]).size();
    double first_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    for (size_t k = 0; k < 100 && k < pcs.size(); ++k) frames += o->lookup(pcs[k]).size();
    double hundred_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    for (uint64_t pc : pcs) frames += o->lookup(pc).size();
    double cold_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < kRounds; ++r) {
      for (uint64_t pc : pcs) frames += o->lookup(pc).size();
    }
    double warm_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    size_t found = 0;
    for (uint64_t pc : pcs) found += o->function_at(pc) != nullptr;
    double fa_first_ms = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    for (uint64_t pc : pcs) found += o->function_at(pc) != nullptr;
    double fa_warm_ms = ms_since(t0);
    std::printf("%s\n  debug file: %s\n  functions: %zu (from symbol tables + PLT: %zu)\n"
                "  open (symbol table): %.1f ms\n"
                "  first lookup (loads DWARF, indexes CU ranges and one CU): %.1f ms\n"
                "  next 100 random PCs (indexing the CUs they touch): %.1f ms\n"
                "  %zu random PCs, first pass: %.1f ms (%.2f us/PC)\n"
                "  warm lookup: %.3f us/PC (%.2f frames/PC)\n"
                "  function_at: first pass %.1f ms, warm %.3f us/PC (%zu found)\n"
                "  open + functions() (every CU indexed): %.1f ms\n",
                argv[i], o->debug_file().c_str(), fs.size(), o->symbol_count(), open_ms, first_ms,
                hundred_ms, pcs.size(), cold_ms, 1000 * cold_ms / pcs.size(),
                1000 * warm_ms / (kRounds * pcs.size()),
                double(frames) / ((kRounds + 1) * pcs.size() + 101), fa_first_ms,
                1000 * fa_warm_ms / pcs.size(), found / 2, full_ms);
  }
  return 0;
}
