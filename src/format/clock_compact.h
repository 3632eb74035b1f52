// The compact clock-sample record (kind 14, issue 24): one clock sample in 16 to 24 bytes
// instead of the 88 of ClockSampleRecord. Freestanding (the collector writes it from its
// SIGPROF handler): no libstdc++, no allocation, async-signal-safe.
//
// A record is the usual 32-bit record word, then a body of bytes, zero-padded to a multiple of
// 8 (docs/experiment-format.md, "Compact clock samples"):
//
//   u8 present   bit 0: tid follows (varint), bit 1: stack_id follows (8 bytes, little endian),
//                bit 2: cpu follows (zigzag varint), bit 3: flags follow (varint)
//   u8 ns_mask   bit i: ns[i] follows (varint); absent values are 0
//   tid, stack_id, cpu, flags (those present), then the ns values present
//   time         zigzag varint: tstamp_ns minus the thread's previous sample's, minus the sum
//                of this record's ns (a thread's samples are as far apart as the time they
//                stand for, so what remains is the timer's lateness: one or two bytes)
//
// An absent tid is the previous compact record's in the same block. The other fields are
// encoded against the previous sample *of the same thread* in the block, kept in a table of
// kClockCompactThreads slots chosen by tid modulo the table's size (a slot held by another
// thread counts as empty: the fields are then encoded against zeros). So a thread's own block
// repeats nothing but the time and states, and the sampler thread's block, which interleaves
// many threads' blocked samples, still finds each thread's previous stack. The table starts
// empty in every block, so each block decodes on its own: a block belongs to one writer thread
// and signal depth at a time (collector/data_writer.h), its records are written strictly in
// order, and the only record that can be incomplete is the last one a killed writer left. A
// reader that skips an incomplete record cannot decode the compact records after it in that
// block and drops them (counted, never guessed).
#pragma once
#include <stddef.h>
#include <stdint.h>

#include "format/experiment_format.h"

namespace erkit::format {

// The record kind (kept here, not in experiment_format.h's RecordKind, so that adding it did
// not rebuild every file of the project; unique among the kinds all the same).
inline constexpr uint32_t kRecClockCompact = 14;

// One clock sample's values, whatever record carried them.
struct ClockFields {
  uint64_t tstamp_ns;
  uint64_t stack_id;
  uint32_t tid;
  int32_t cpu;
  uint32_t flags;
  uint64_t ns[kMsCount];
};

// What the next compact record of a block is encoded against: each thread's previous sample.
inline constexpr uint32_t kClockCompactThreads = 8;
struct ClockCompactThreadBase {
  uint64_t tstamp_ns;
  uint64_t stack_id;
  uint32_t tid;
  int32_t cpu;
  uint32_t flags;
  uint32_t used;  // 0: empty
};
struct ClockCompactBase {
  ClockCompactThreadBase slot[kClockCompactThreads];
  uint32_t last_tid;  // the previous record's tid
  uint32_t reserved;
};

inline constexpr uint32_t kClockCompactMaxSize = 4 + 2 + 5 + 8 + 5 + 5 + 10 * kMsCount + 10 + 7;  // 114
inline constexpr uint32_t kClockCompactPresentTid = 1u, kClockCompactPresentStack = 2u,
                          kClockCompactPresentCpu = 4u, kClockCompactPresentFlags = 8u;

namespace clock_compact_detail {
inline uint8_t* put_varint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = uint8_t(v | 0x80);
    v >>= 7;
  }
  *p++ = uint8_t(v);
  return p;
}
// The states' sum, modulo 2^64: what a thread's clock advanced since its previous sample.
inline uint64_t ns_sum(const uint64_t* ns) {
  uint64_t t = 0;
  for (uint32_t i = 0; i < kMsCount; ++i) t += ns[i];
  return t;
}
inline uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
inline int64_t unzigzag(uint64_t v) { return int64_t(v >> 1) ^ -int64_t(v & 1); }
// Reads a varint of at most 10 bytes from [*p, end); false if it runs past end or is too long.
inline bool get_varint(const uint8_t** p, const uint8_t* end, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (*p >= end) return false;
    uint8_t b = *(*p)++;
    if (shift == 63 && b > 1) return false;
    v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}
}  // namespace clock_compact_detail

// Encodes f against *base into out (at least kClockCompactMaxSize bytes, the record word
// included, written here with the complete bit clear), updates *base, and returns the record's
// size (a multiple of 8, at most kClockCompactMaxSize rounded down to 8: 112).
inline uint32_t encode_clock_compact(ClockCompactBase* base, const ClockFields& f, uint8_t* out) {
  using namespace clock_compact_detail;
  uint8_t* p = out + 6;
  uint8_t present = 0, mask = 0;
  ClockCompactThreadBase& slot = base->slot[f.tid % kClockCompactThreads];
  ClockCompactThreadBase prev{};
  if (slot.used && slot.tid == f.tid) prev = slot;
  if (f.tid != base->last_tid) {
    present |= kClockCompactPresentTid;
    p = put_varint(p, f.tid);
  }
  if (f.stack_id != prev.stack_id) {
    present |= kClockCompactPresentStack;
    for (int i = 0; i < 8; ++i) *p++ = uint8_t(f.stack_id >> (8 * i));
  }
  if (f.cpu != prev.cpu) {
    present |= kClockCompactPresentCpu;
    p = put_varint(p, zigzag(f.cpu));
  }
  if (f.flags != prev.flags) {
    present |= kClockCompactPresentFlags;
    p = put_varint(p, f.flags);
  }
  for (uint32_t i = 0; i < kMsCount; ++i) {
    if (!f.ns[i]) continue;
    mask |= uint8_t(1u << i);
    p = put_varint(p, f.ns[i]);
  }
  p = put_varint(p, zigzag(int64_t(f.tstamp_ns - prev.tstamp_ns - ns_sum(f.ns))));
  uint32_t size = align8(uint32_t(p - out));
  while (p < out + size) *p++ = 0;
  uint32_t word = make_record_word(kRecClockCompact, size);
  __builtin_memcpy(out, &word, 4);
  out[4] = present;
  out[5] = mask;
  slot = ClockCompactThreadBase{f.tstamp_ns, f.stack_id, f.tid, f.cpu, f.flags, 1};
  base->last_tid = f.tid;
  return size;
}

// Decodes the compact record rec[0, size) (record word included) against *base; on success
// fills *f, updates *base and returns true. False (base unchanged) for a body that does not
// parse: unknown bits, a varint past the record's end, padding that is not zero.
inline bool decode_clock_compact(ClockCompactBase* base, const uint8_t* rec, uint32_t size, ClockFields* f) {
  using namespace clock_compact_detail;
  if (size < 8 || (size & 7)) return false;
  const uint8_t* end = rec + size;
  uint8_t present = rec[4], mask = rec[5];
  if (present & ~0x0fu || mask & ~((1u << kMsCount) - 1)) return false;
  const uint8_t* p = rec + 6;
  uint64_t v;
  ClockFields out;
  out.tid = base->last_tid;
  if (present & kClockCompactPresentTid) {
    if (!get_varint(&p, end, &v) || v > 0xffffffffu) return false;
    out.tid = uint32_t(v);
  }
  const ClockCompactThreadBase& slot = base->slot[out.tid % kClockCompactThreads];
  ClockCompactThreadBase prev{};
  if (slot.used && slot.tid == out.tid) prev = slot;
  out.stack_id = prev.stack_id;
  if (present & kClockCompactPresentStack) {
    if (end - p < 8) return false;
    out.stack_id = 0;
    for (int i = 0; i < 8; ++i) out.stack_id |= uint64_t(p[i]) << (8 * i);
    p += 8;
  }
  out.cpu = prev.cpu;
  if (present & kClockCompactPresentCpu) {
    if (!get_varint(&p, end, &v)) return false;
    int64_t c = unzigzag(v);
    if (c < -2147483648ll || c > 2147483647ll) return false;
    out.cpu = int32_t(c);
  }
  out.flags = prev.flags;
  if (present & kClockCompactPresentFlags) {
    if (!get_varint(&p, end, &v) || v > 0xffffffffu) return false;
    out.flags = uint32_t(v);
  }
  for (uint32_t i = 0; i < kMsCount; ++i) {
    out.ns[i] = 0;
    if (mask & (1u << i) && !get_varint(&p, end, &out.ns[i])) return false;
  }
  if (!get_varint(&p, end, &v)) return false;
  out.tstamp_ns = prev.tstamp_ns + ns_sum(out.ns) + uint64_t(unzigzag(v));
  if (end - p >= 8) return false;  // a record is padded by fewer than 8 bytes
  for (; p < end; ++p)
    if (*p) return false;
  *f = out;
  base->slot[out.tid % kClockCompactThreads] =
      ClockCompactThreadBase{out.tstamp_ns, out.stack_id, out.tid, out.cpu, out.flags, 1};
  base->last_tid = out.tid;
  return true;
}

}  // namespace erkit::format
