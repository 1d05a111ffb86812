// Vectorized fill of a contiguous row with one element's bytes (and with an
// arithmetic progression, arange_range), through
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

// Copies n bytes from src to dst (not overlapping) with the widest unaligned
// vector loads and stores the CPU has. copy_memory's path for blocks whose
// source and destination differ in alignment. False (nothing copied) when
// the CPU has none of the instruction sets.
OPD_API bool copy_bytes(void* dst, const void* src, int64_t n);

// ATen 1.13's vectorized arange of float (`is_double` false) or double, to
// the bit, over one thread's range [b, e) of out: from b, blocks of two
// vectors of `lanes` elements (ATen's Vectorized<T>::size() for AVX2: 8
// floats, 4 doubles) whose lane j is T(fma(j, step, base)) with
// base = T(fma(step, i0, start)) at the vector's first index i0, then single
// elements T(fma(step, i, start)); each multiply-add fused, as libtorch's
// AVX2 kernels compute them. False (nothing written) when the CPU has no
// FMA: the caller computes the same values with std::fma.
OPD_API bool arange_range(void* out, bool is_double, int64_t b, int64_t e, double start, double step);

// ATen 1.13's vectorized linspace of float or double, to the bit, over one
// thread's range [b, e) of its `steps` values, in T's arithmetic: step =
// (end - start) / (steps - 1); value(i) = fma(step, i, start) below steps / 2
// and fma(-step, steps - 1 - i, end) from there; blocks of two vectors of 8
// floats or 4 doubles from b, lane j = base + j * step (not fused) with
// base = value(i0); then single values. False when the CPU has no FMA.
OPD_API bool linspace_range(void* out, bool is_double, int64_t b, int64_t e, int64_t steps, double start, double end);

}  // namespace opd::kernels::simd

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/fill_simd-inl.hpp"
#endif
