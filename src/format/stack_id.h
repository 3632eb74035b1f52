// The id of a call stack in the `stacks` file: a hash of its PCs (leaf first), the same in
// the collector (collector/stack_store.cc) and in host code writing experiments
// (format/host_writer.cc). Freestanding: usable inside the target, in a signal handler.
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace erkit::format {

// `truncated`: the unwinder stopped at its depth limit (a different stack from the same PCs
// complete). 0 means "no stack" and small values are pseudo-PCs elsewhere: ids are >= 16.
constexpr uint64_t stack_id(const uint64_t* pcs, size_t n, bool truncated) {
  uint64_t h = 0xcbf29ce484222325ull ^ uint64_t(n) ^ (truncated ? 0x9e3779b97f4a7c15ull : 0);
  for (size_t i = 0; i < n; ++i) {
    h ^= pcs[i];
    h *= 0x100000001b3ull;
    h ^= h >> 29;
  }
  h ^= h >> 32;
  return h < 16 ? h + 16 : h;
}

}  // namespace erkit::format
