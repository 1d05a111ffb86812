// The per-target bodies of random_bits-inl.hpp: Highway's foreach_target.h
// includes this file once per instruction set (so no #pragma once; the
// toggle below is Highway's per-target include guard).
#if defined(OPD_RANDOM_BITS_TARGETS_TOGGLE) == defined(HWY_TARGET_TOGGLE)
#ifdef OPD_RANDOM_BITS_TARGETS_TOGGLE
#undef OPD_RANDOM_BITS_TARGETS_TOGGLE
#else
#define OPD_RANDOM_BITS_TARGETS_TOGGLE
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "dispatch/config.hpp"  // OPD_FUNC: inline when header-only (two files may include this)
#include "dispatch/core/mt19937_64.hpp"

HWY_BEFORE_NAMESPACE();
namespace opd::kernels::simd::random_detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Mt19937_64::next_word on whole vectors: words [i, i + N) from words
// [i, i + N], each with its `far` word at i + far_offset.
template <class D>
HWY_INLINE void TwistVector(D d, uint64_t* x, std::ptrdiff_t i, std::ptrdiff_t far_offset) {
  const auto y = hn::Or(hn::And(hn::LoadU(d, x + i), hn::Set(d, Mt19937_64::kUpperMask)),
                        hn::And(hn::LoadU(d, x + i + 1), hn::Set(d, Mt19937_64::kLowerMask)));
  // 0 - (y & 1): all ones where the low bit is set
  const auto odd = hn::Sub(hn::Zero(d), hn::And(y, hn::Set(d, uint64_t{1})));
  const auto word = hn::Xor(hn::Xor(hn::LoadU(d, x + i + far_offset), hn::ShiftRight<1>(y)),
                            hn::And(odd, hn::Set(d, Mt19937_64::kMatrixA)));
  hn::StoreU(word, d, x + i);
}

// Mt19937_64::twist: words below n - m read word i + m (not yet
// regenerated), words above read word i + m - n (already regenerated), so
// each half runs whole vectors, then single words.
OPD_FUNC HWY_NOINLINE void Twist(uint64_t* x) {
  constexpr std::ptrdiff_t n = Mt19937_64::kStateSize, m = Mt19937_64::kShift;
  const hn::ScalableTag<uint64_t> d;
  const std::ptrdiff_t N = static_cast<std::ptrdiff_t>(hn::Lanes(d));
  std::ptrdiff_t i = 0;
  for (; i + N <= n - m; i += N) TwistVector(d, x, i, m);
  for (; i < n - m; ++i) x[i] = Mt19937_64::next_word(x[i], x[i + 1], x[i + m]);
  for (; i + N <= n - 1; i += N) TwistVector(d, x, i, m - n);
  for (; i < n - 1; ++i) x[i] = Mt19937_64::next_word(x[i], x[i + 1], x[i + m - n]);
  x[n - 1] = Mt19937_64::next_word(x[n - 1], x[0], x[m - 1]);
}

// out[i] = Mt19937_64::temper(x[i]) for i < count.
OPD_FUNC HWY_NOINLINE void Temper(const uint64_t* x, uint64_t* out, int64_t count) {
  const hn::ScalableTag<uint64_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + N <= count; i += N) {
    auto y = hn::LoadU(d, x + i);
    y = hn::Xor(y, hn::And(hn::ShiftRight<29>(y), hn::Set(d, uint64_t{0x5555555555555555ULL})));
    y = hn::Xor(y, hn::And(hn::ShiftLeft<17>(y), hn::Set(d, uint64_t{0x71D67FFFEDA60000ULL})));
    y = hn::Xor(y, hn::And(hn::ShiftLeft<37>(y), hn::Set(d, uint64_t{0xFFF7EEE000000000ULL})));
    hn::StoreU(hn::Xor(y, hn::ShiftRight<43>(y)), d, out + i);
  }
  for (; i < count; ++i) out[i] = Mt19937_64::temper(x[i]);
}

}  // namespace HWY_NAMESPACE
}  // namespace opd::kernels::simd::random_detail
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
