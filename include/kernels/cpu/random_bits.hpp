// Many numbers of the library's generator at once: the 64-bit Mersenne
// Twister's state regenerated and tempered a vector at a time (Highway's
// run-time dispatch: SSE4, AVX2, AVX-512; random_bits-inl.hpp), the same
// numbers, in the same order, as as many calls of the engine. rand, randn,
// randperm and native_dropout draw their blocks through it.
#pragma once

#include <cstdint>

#include "dispatch/config.hpp"
#include "dispatch/core/mt19937_64.hpp"

namespace opd::kernels::simd {

// out[i] = the engine's next n numbers (the caller holds the generator's
// lock).
OPD_API void random_bits(Mt19937_64& engine, uint64_t* out, int64_t n);

}  // namespace opd::kernels::simd

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/random_bits-inl.hpp"
#endif
