// Vectorized fill of a contiguous row with one element's bytes, through
// Highway's run-time dispatch (SSE4, AVX2, AVX-512; fill_simd-inl.hpp). The
// default build targets SSE2, where std::fill_n stores 16 bytes per
// instruction: a fill of a cache-resident tensor is bound by that store
// width (ones over 10^6 floats took 1.65x ATen's time, which stores 32 or
// 64 bytes). The row stores the element's bit pattern, so one function
// serves every dtype of 1, 2, 4 or 8 bytes.
#pragma once

#include <cstdint>

#include "dispatch/config.hpp"

namespace opd::kernels::simd {

// Writes the `elem_bytes` bytes at `value` to out[0, n) (n elements, out
// aligned to elem_bytes). False (nothing written) for an element size other
// than 1, 2, 4 or 8 or when the CPU has none of the instruction sets.
OPD_API bool fill_row(void* out, const void* value, int64_t elem_bytes, int64_t n);

}  // namespace opd::kernels::simd

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/fill_simd-inl.hpp"
#endif
