// Vectorized rows of the floating unary ops (exp, log, sin, tanh, sigmoid,
// ...) on contiguous float or double data, through Sleef's vector math (the
// functions and accuracy ATen 1.13 uses: 1 ULP; erfc 1.5 ULP). Highway picks
// the widest instruction set the CPU has at run time (SSE4, AVX2 or
// AVX-512; unary_simd-inl.hpp); the unary loops (unary_float_loops-inl.hpp)
// call these on contiguous rows and use scalar loops for the rest.
#pragma once

#include <cstdint>

#include "dispatch/config.hpp"
#include "kernels/cpu/pointwise_ops.hpp"

namespace opd::kernels::simd {

// out[i] = op(in[i]) for i < n, out may be in; false (nothing written) when
// `op` has no vector row or the CPU has none of the vector instruction sets
// (unary_row(op, x, y, 0) asks without writing). a, b: softplus's beta and
// threshold; a, b, c: elu's alpha, scale and input_scale; a: leaky_relu's
// slope; the other ops ignore them. Besides the float-kind ops: floor, ceil,
// round, trunc, frac, neg, abs, relu, sign, gelu (both forms), hardswish,
// softplus, elu, leaky_relu.
OPD_API bool unary_row(UnaryOp op, const float* in, float* out, int64_t n, double a = 0, double b = 0, double c = 0);
OPD_API bool unary_row(UnaryOp op, const double* in, double* out, int64_t n, double a = 0, double b = 0, double c = 0);

// out[i] = std::min(std::max(in[i], lo), hi) for i < n (clamp with Scalar
// bounds, bit for bit as the scalar loop: NaN passes, a NaN bound changes
// nothing); clamp_min / clamp_max pass hi = +inf / lo = -inf, which change
// nothing either. False as unary_row.
OPD_API bool clamp_row(const float* in, float* out, int64_t n, float lo, float hi);
OPD_API bool clamp_row(const double* in, double* out, int64_t n, double lo, double hi);

}  // namespace opd::kernels::simd

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/unary_simd-inl.hpp"
#endif
