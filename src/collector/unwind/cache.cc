// A fixed-size, direct-mapped cache of compact CFI rows keyed by (lookup PC, epoch). Any thread,
// in any handler, may read or write it: each slot is a tiny seqlock. A writer claims a slot by
// moving its sequence from even to odd with a CAS (and simply gives up if another writer holds
// it), so a handler never waits; a reader copies the slot and keeps it only if the sequence was
// even and unchanged around the copy. All accesses are atomic word loads/stores.
#include "collector/unwind/internal.h"

namespace erkit::unwind::internal {
namespace {

inline constexpr int kCacheBits = 12;
inline constexpr uint32_t kCacheSize = 1u << kCacheBits;
inline constexpr int kDataWords = (sizeof(CompactRow) + 7) / 8;

struct alignas(64) Slot {
  uint64_t seq;
  uint64_t key;    // lookup pc
  uint64_t epoch;  // cache_epoch() when written
  uint64_t data[kDataWords];
};

Slot g_slots[kCacheSize];

inline uint32_t slot_of(uintptr_t pc) {
  return uint32_t((uint64_t(pc) * 0x9e3779b97f4a7c15ull) >> (64 - kCacheBits));
}

}  // namespace

bool cache_get(uintptr_t pc, uint64_t epoch, CompactWords* out) {
  Slot& s = g_slots[slot_of(pc)];
  const uint64_t s1 = __atomic_load_n(&s.seq, __ATOMIC_ACQUIRE);
  if (s1 & 1u) return false;
  if (__atomic_load_n(&s.key, __ATOMIC_RELAXED) != pc ||
      __atomic_load_n(&s.epoch, __ATOMIC_RELAXED) != epoch)
    return false;
  static_assert(sizeof(out->w) == sizeof(s.data));
  for (int i = 0; i < kDataWords; ++i) out->w[i] = __atomic_load_n(&s.data[i], __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  if (__atomic_load_n(&s.seq, __ATOMIC_RELAXED) != s1) return false;
  return out->row.kind != 0;
}

void cache_put(uintptr_t pc, uint64_t epoch, const CompactRow& row) {
  Slot& s = g_slots[slot_of(pc)];
  uint64_t s1 = __atomic_load_n(&s.seq, __ATOMIC_RELAXED);
  if ((s1 & 1u) ||
      !__atomic_compare_exchange_n(&s.seq, &s1, s1 + 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return;  // another writer (maybe the code this handler interrupted) owns the slot
  __atomic_thread_fence(__ATOMIC_RELEASE);
  uint64_t words[kDataWords] = {};
  __builtin_memcpy(words, &row, sizeof(CompactRow));
  __atomic_store_n(&s.key, pc, __ATOMIC_RELAXED);
  __atomic_store_n(&s.epoch, epoch, __ATOMIC_RELAXED);
  for (int i = 0; i < kDataWords; ++i) __atomic_store_n(&s.data[i], words[i], __ATOMIC_RELAXED);
  __atomic_store_n(&s.seq, s1 + 2, __ATOMIC_RELEASE);
}

bool compact_row(const Row& row, CompactRow* out) {
  if (row.cfa_kind != kCfaRegOffset || row.cfa_reg >= kNumRegs) return false;
  if (row.cfa_off < INT32_MIN || row.cfa_off > INT32_MAX) return false;
  if (row.ra_reg != kRaColumn) return false;
  *out = CompactRow{};
  out->kind = kCacheRow;
  out->cfa_reg = uint8_t(row.cfa_reg);
  out->cfa_off = int32_t(row.cfa_off);
  out->signal_frame = row.signal_frame;
  out->ra_signed = row.ra_signed;
  uint64_t tracked = 0;
  for (int i = 0; i < kNumTracked; ++i) {
    const int r = kTrackedRegs[i];
    tracked |= uint64_t(1) << r;
    const Rule& rule = row.rules[r];
    switch (rule.kind) {
      case kRuleSame: out->slot[i] = kSlotSame; break;
      case kRuleUndefined: out->slot[i] = kSlotUndefined; break;
      case kRuleOffset:
        if (rule.val < -0x7000 || rule.val > 0x7000) return false;
        out->slot[i] = int16_t(rule.val);
        break;
      default: return false;
    }
  }
  // Untracked registers (caller-saved, and sp which becomes the CFA) must keep their values.
  for (int r = 0; r < kNumRegs; ++r)
    if (!(tracked & (uint64_t(1) << r)) && row.rules[r].kind != kRuleSame) return false;
  return true;
}

}  // namespace erkit::unwind::internal
