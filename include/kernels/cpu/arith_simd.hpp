// Vectorized rows of the floating binary ops on contiguous float or double
// data (either input possibly a single broadcast value), through Highway's
// run-time dispatch (SSE4, AVX2, AVX-512; arith_simd-inl.hpp). The default
// build targets SSE2: there the generic loops run 4 floats per instruction
// and call libm's fmod / floor / atan2 per element. These rows: add, sub,
// mul, div, maximum and minimum at the CPU's full width, and remainder,
// fmod, atan2, floor_divide and div's 'trunc' and 'floor' modes with Sleef's
// vector fmod (exact) and atan2 (1 ULP, as ATen 1.13) and SSE4's rounding.
// simd_row_split-inl.hpp runs them.
#pragma once

#include <cstdint>

#include "dispatch/config.hpp"
#include "kernels/cpu/basic_arith.hpp"
#include "kernels/cpu/pointwise_ops.hpp"

namespace opd::kernels::simd {

// out[i] = op(a[i], b[i]) for i < n with the scalar functors' formulas
// (BinaryPointwise in pointwise_functors-inl.hpp) and results; bit 0 of
// `broadcast`: a is one value for every i, bit 1: b is. out may be a or b.
// False (nothing written) when `op` has no vector row or the CPU has none of
// the instruction sets (arith_row(op, a, b, out, 0, 0) asks without writing).
OPD_API bool arith_row(PointwiseOp op, const float* a, const float* b, float* out, int64_t n, unsigned broadcast);
OPD_API bool arith_row(PointwiseOp op, const double* a, const double* b, double* out, int64_t n, unsigned broadcast);

// add, sub, mul and true division (BasicArith, the binary family's ops, which
// have no PointwiseOp): the same rows and answer, IEEE-exact as the scalar
// loops. Not instructions the default SSE2 build lacks, but there they run 4
// floats wide (division's throughput the bound); AVX2 runs 8, AVX-512 16.
OPD_API bool basic_arith_row(BasicArith op, const float* a, const float* b, float* out, int64_t n, unsigned broadcast);
OPD_API bool basic_arith_row(BasicArith op, const double* a, const double* b, double* out, int64_t n,
                             unsigned broadcast);

}  // namespace opd::kernels::simd

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/arith_simd-inl.hpp"
#endif
