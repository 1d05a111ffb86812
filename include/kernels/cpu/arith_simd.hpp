// Vectorized rows of the floating binary ops that have no instruction of
// their own: remainder, fmod, atan2, floor_divide and div's 'trunc' and
// 'floor' modes, on contiguous float or double data (either input possibly a
// single broadcast value). The default build targets SSE2, where the scalar
// loops call libm's fmod / floor / atan2 per element; these rows use Sleef's
// vector fmod (exact) and atan2 (1 ULP, as ATen 1.13) and SSE4's rounding,
// through Highway's run-time dispatch (SSE4, AVX2, AVX-512;
// arith_simd-inl.hpp). arith_loops-inl.hpp calls them.
#pragma once

#include <cstdint>

#include "dispatch/config.hpp"
#include "kernels/cpu/pointwise_ops.hpp"

namespace opd::kernels::simd {

// out[i] = op(a[i], b[i]) for i < n with the scalar functors' formulas
// (BinaryPointwise in pointwise_functors-inl.hpp) and results; bit 0 of
// `broadcast`: a is one value for every i, bit 1: b is. out may be a or b.
// False (nothing written) when `op` has no vector row or the CPU has none of
// the instruction sets (arith_row(op, a, b, out, 0, 0) asks without writing).
OPD_API bool arith_row(PointwiseOp op, const float* a, const float* b, float* out, int64_t n, unsigned broadcast);
OPD_API bool arith_row(PointwiseOp op, const double* a, const double* b, double* out, int64_t n, unsigned broadcast);

// out[i] = a[i] / b[i] (true division, IEEE: as the scalar DivOp), with
// `broadcast` and the answer as arith_row's. Not an instruction the default
// SSE2 build lacks, but its 4-wide division is the bound; AVX2's 8-wide
// halves it.
OPD_API bool div_row(const float* a, const float* b, float* out, int64_t n, unsigned broadcast);
OPD_API bool div_row(const double* a, const double* b, double* out, int64_t n, unsigned broadcast);

}  // namespace opd::kernels::simd

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/arith_simd-inl.hpp"
#endif
