// Putting a data kind's records in time order, stably, in little memory: the records of an
// experiment come block by block (one writer thread per block), nearly in time order; 10 M
// clock samples are 960 MB, and std::stable_sort's buffer would add half of that again.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace erkit::reader {

// Sorts v by tstamp_of(record), equal times keeping their order. Already sorted: one pass.
// Else the (time, index) keys are sorted (16 bytes a record) and the records moved into place
// along the permutation's cycles, each record moved once.
template <typename T, typename Key>
void sort_by_time(std::vector<T>& v, Key tstamp_of) {
  auto before = [&](const T& a, const T& b) { return tstamp_of(a) < tstamp_of(b); };
  if (std::is_sorted(v.begin(), v.end(), before)) return;
  if (v.size() < 4096 || v.size() > UINT32_MAX) {
    std::stable_sort(v.begin(), v.end(), before);
    return;
  }
  std::vector<std::pair<uint64_t, uint32_t>> keys(v.size());
  for (size_t i = 0; i < v.size(); ++i) keys[i] = {uint64_t(tstamp_of(v[i])), uint32_t(i)};
  std::sort(keys.begin(), keys.end());  // the index breaks ties: stable
  // Position i takes the record now at keys[i].second; a position done is marked by its own
  // index.
  for (size_t start = 0; start < v.size(); ++start) {
    if (keys[start].second == start) continue;
    T held = std::move(v[start]);
    size_t at = start;
    for (;;) {
      size_t from = keys[at].second;
      keys[at].second = uint32_t(at);
      if (from == start) {
        v[at] = std::move(held);
        break;
      }
      v[at] = std::move(v[from]);
      at = from;
    }
  }
}

}  // namespace erkit::reader
