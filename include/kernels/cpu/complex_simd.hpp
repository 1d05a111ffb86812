// Vectorized rows of the complex unary ops whose ATen 1.13 CPU loops are
// vector loops (conj_physical, sgn, angle, abs) on contiguous complex64 or
// complex128 data, seen as interleaved (real, imaginary) float or double
// pairs. Highway picks the widest instruction set the CPU has at run time
// (SSE4, AVX2 or AVX-512; complex_simd-inl.hpp); the complex loops
// (unary_complex_loops-inl.hpp) call these on contiguous rows and use their
// scalar loops for the rest. The formulas are the scalar loops', so the
// values are the same: conj negates the imaginary part; abs is
// sqrt(a*a + b*b) (two products and a sum, never fused: the source is
// compiled with -ffp-contract=off); sgn each part over abs, 0 where abs is
// 0; angle Sleef's atan2(b, a) (1 ULP, as ATen's vector loop; the scalar
// loop's libm atan2 is within 1 ULP too).
#pragma once

#include <cstdint>

#include "dispatch/config.hpp"
#include "kernels/cpu/pointwise_ops.hpp"

namespace opd::kernels::simd {

// n complex elements from in (2n values): out gets n pairs (ConjPhysical,
// Sgn) or n real values (Abs, Angle); out may be in for the pair results.
// False (nothing written) for another op or when the CPU has none of the
// vector instruction sets (complex_row(op, x, y, 0) asks without writing).
OPD_API bool complex_row(UnaryOp op, const float* in, float* out, int64_t n);
OPD_API bool complex_row(UnaryOp op, const double* in, double* out, int64_t n);

}  // namespace opd::kernels::simd

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/complex_simd-inl.hpp"
#endif
