#pragma once
// Out-of-line part of random_bits.hpp (compiled in src/kernels/random_bits.cpp):
// Highway's dynamic dispatch over SSE4, AVX2 and AVX-512 (the per-target
// bodies are random_bits_targets-inl.hpp, compiled once per target).
#include <algorithm>
#include <cstdint>

#include "kernels/cpu/random_bits.hpp"

#if defined(__CUDACC__)
// nvcc (a header-only .cu file) cannot compile Highway's dispatch tables
// (HWY_EXPORT): there the engine draws one number at a time.
namespace opd::kernels::simd {
OPD_FUNC void random_bits(Mt19937_64& engine, uint64_t* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = engine();
}
}  // namespace opd::kernels::simd

#else  // Highway

#define OPD_SIMD_FAMILY_TARGETS "kernels/cpu/random_bits_targets-inl.hpp"
#include "kernels/cpu/simd_pass-inl.hpp"

namespace opd::kernels::simd {

namespace random_detail {
HWY_EXPORT(Twist);
HWY_EXPORT(Temper);
}  // namespace random_detail

OPD_FUNC void random_bits(Mt19937_64& engine, uint64_t* out, int64_t n) {
  constexpr int64_t size = static_cast<int64_t>(Mt19937_64::kStateSize);
  while (n > 0) {
    if (engine.pos >= Mt19937_64::kStateSize) {
      HWY_DYNAMIC_DISPATCH(random_detail::Twist)(engine.state.data());
      engine.pos = 0;
    }
    const int64_t pos = static_cast<int64_t>(engine.pos);
    const int64_t k = std::min(n, size - pos);
    HWY_DYNAMIC_DISPATCH(random_detail::Temper)(engine.state.data() + pos, out, k);
    engine.pos += static_cast<std::size_t>(k);
    out += k;
    n -= k;
  }
}

}  // namespace opd::kernels::simd

#endif  // __CUDACC__
