#pragma once
// masked_scatter's loop with AVX-512's expand: out[i] = mask[i] ? src[k++] :
// old[i], a whole vector of elements per step (16 floats) where the scalar
// loop does one element and carries k from each to the next.
//
//   const MaskedExpandDone done = detail::masked_expand(out, old, mask, src, n, itemsize);
//   // then the scalar loop from element done.i, source element done.k
//
// Each step turns the vector's mask bytes into a lane mask, loads the next
// popcount(mask) source elements (a masked load: nothing past them is read)
// and expands them into the mask's lanes over `old`. Highway 1.0.3 has
// Compress but not Expand, so this is written with the intrinsics, compiled
// for AVX-512 VBMI2 (vpexpandb/w; F for d/q) by a function attribute and
// chosen at run time: on a CPU without it nothing is done ({0, 0}).
#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define OPD_MASKED_EXPAND_AVX512 1
#endif

namespace opd::kernels::detail {

struct MaskedExpandDone {
  int64_t i = 0;  // elements of out written
  int64_t k = 0;  // elements of src used
};

#if OPD_MASKED_EXPAND_AVX512
#define OPD_MASKED_EXPAND_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi2,bmi2,popcnt")))

// Lanes elements of Size bytes per 64-byte vector; the expand of that width.
template <std::size_t Size>
OPD_MASKED_EXPAND_TARGET inline MaskedExpandDone masked_expand_avx512(char* out, const char* old, const bool* mask,
                                                                      const char* src, int64_t n) {
  constexpr int64_t kLanes = 64 / static_cast<int64_t>(Size);
  const auto* m = reinterpret_cast<const char*>(mask);
  MaskedExpandDone done;
  for (; done.i + kLanes <= n; done.i += kLanes) {
    uint64_t lanes;  // bit j: mask[i + j] (a bool's byte is 0 or 1)
    if constexpr (kLanes == 64) {
      const __m512i b = _mm512_loadu_si512(m + done.i);
      lanes = _mm512_test_epi8_mask(b, b);
    } else if constexpr (kLanes == 32) {
      const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(m + done.i));
      lanes = _mm256_test_epi8_mask(b, b);
    } else if constexpr (kLanes == 16) {
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(m + done.i));
      lanes = _mm_test_epi8_mask(b, b);
    } else {
      const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(m + done.i));
      lanes = _mm_test_epi8_mask(b, b) & 0xffu;
    }
    const auto count = static_cast<unsigned>(_mm_popcnt_u64(lanes));
    const uint64_t first = _bzhi_u64(~uint64_t{0}, count);  // the next `count` source elements
    const char* s = src + static_cast<std::size_t>(done.k) * Size;
    const __m512i keep = _mm512_loadu_si512(old + static_cast<std::size_t>(done.i) * Size);
    __m512i r;
    if constexpr (Size == 1) {
      r = _mm512_mask_expand_epi8(keep, lanes, _mm512_maskz_loadu_epi8(first, s));
    } else if constexpr (Size == 2) {
      r = _mm512_mask_expand_epi16(keep, static_cast<__mmask32>(lanes),
                                   _mm512_maskz_loadu_epi16(static_cast<__mmask32>(first), s));
    } else if constexpr (Size == 4) {
      r = _mm512_mask_expand_epi32(keep, static_cast<__mmask16>(lanes),
                                   _mm512_maskz_loadu_epi32(static_cast<__mmask16>(first), s));
    } else {
      r = _mm512_mask_expand_epi64(keep, static_cast<__mmask8>(lanes),
                                   _mm512_maskz_loadu_epi64(static_cast<__mmask8>(first), s));
    }
    _mm512_storeu_si512(out + static_cast<std::size_t>(done.i) * Size, r);
    done.k += count;
  }
  return done;
}

inline bool has_avx512_expand() {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi2") &&
                          __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  return has;
}
#undef OPD_MASKED_EXPAND_TARGET
#endif

// out and old may be the same buffer (each vector is read before it is
// written); src holds at least as many elements as mask has true bytes.
inline MaskedExpandDone masked_expand(char* out, const char* old, const bool* mask, const char* src, int64_t n,
                                      std::size_t size) {
#if OPD_MASKED_EXPAND_AVX512
  if (has_avx512_expand()) {
    switch (size) {
      case 1: return masked_expand_avx512<1>(out, old, mask, src, n);
      case 2: return masked_expand_avx512<2>(out, old, mask, src, n);
      case 4: return masked_expand_avx512<4>(out, old, mask, src, n);
      case 8: return masked_expand_avx512<8>(out, old, mask, src, n);
      default: break;
    }
  }
#else
  (void)out, (void)old, (void)mask, (void)src, (void)n, (void)size;
#endif
  return {};
}

}  // namespace opd::kernels::detail
