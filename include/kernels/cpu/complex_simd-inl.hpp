#pragma once
// Out-of-line part of complex_simd.hpp (compiled in src/kernels/complex_simd.cpp):
// Highway's dynamic dispatch over SSE4, AVX2 and AVX-512 (the per-target
// bodies are complex_simd_targets-inl.hpp, compiled once per target).
#include <cstdint>

#include "kernels/cpu/complex_simd.hpp"

#if defined(__CUDACC__)
// nvcc (a header-only .cu file) cannot compile Highway's dispatch tables
// (HWY_EXPORT): there the scalar loops serve.
namespace opd::kernels::simd {
OPD_FUNC bool complex_row(UnaryOp, const float*, float*, int64_t) { return false; }
OPD_FUNC bool complex_row(UnaryOp, const double*, double*, int64_t) { return false; }
}  // namespace opd::kernels::simd

#else  // Highway

#define OPD_SIMD_FAMILY_TARGETS "kernels/cpu/complex_simd_targets-inl.hpp"
#include "kernels/cpu/simd_pass-inl.hpp"

namespace opd::kernels::simd {

namespace complex_detail {
HWY_EXPORT(ComplexF32);
HWY_EXPORT(ComplexF64);
}  // namespace complex_detail

OPD_FUNC bool complex_row(UnaryOp op, const float* in, float* out, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(complex_detail::ComplexF32)(op, in, out, n);
}
OPD_FUNC bool complex_row(UnaryOp op, const double* in, double* out, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(complex_detail::ComplexF64)(op, in, out, n);
}

}  // namespace opd::kernels::simd

#endif  // __CUDACC__
