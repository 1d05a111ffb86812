#pragma once
// Out-of-line part of unary_simd.hpp (compiled in src/kernels/unary_simd.cpp):
// Highway's dynamic dispatch over SSE4, AVX2 and AVX-512 (the per-target
// bodies are unary_simd_targets-inl.hpp, compiled once per target).
#include <cstdint>

#include "kernels/cpu/unary_simd.hpp"

#if defined(__CUDACC__)
// nvcc (a header-only .cu file) cannot compile Highway's dispatch tables
// (HWY_EXPORT): there the scalar loops serve.
namespace opd::kernels::simd {
OPD_FUNC bool unary_row(UnaryOp, const float*, float*, int64_t, double, double, double) { return false; }
OPD_FUNC bool unary_row(UnaryOp, const double*, double*, int64_t, double, double, double) { return false; }
OPD_FUNC bool clamp_row(const float*, float*, int64_t, float, float) { return false; }
OPD_FUNC bool clamp_row(const double*, double*, int64_t, double, double) { return false; }
}  // namespace opd::kernels::simd

#else  // Highway

#define OPD_SIMD_FAMILY_TARGETS "kernels/cpu/unary_simd_targets-inl.hpp"
#include "kernels/cpu/simd_pass-inl.hpp"

namespace opd::kernels::simd {

namespace unary_detail {
HWY_EXPORT(UnaryF32);
HWY_EXPORT(UnaryF64);
HWY_EXPORT(ClampF32);
HWY_EXPORT(ClampF64);
}  // namespace unary_detail

OPD_FUNC bool unary_row(UnaryOp op, const float* in, float* out, int64_t n, double a, double b, double c) {
  return HWY_DYNAMIC_DISPATCH(unary_detail::UnaryF32)(op, in, out, n, a, b, c);
}
OPD_FUNC bool unary_row(UnaryOp op, const double* in, double* out, int64_t n, double a, double b, double c) {
  return HWY_DYNAMIC_DISPATCH(unary_detail::UnaryF64)(op, in, out, n, a, b, c);
}
OPD_FUNC bool clamp_row(const float* in, float* out, int64_t n, float lo, float hi) {
  return HWY_DYNAMIC_DISPATCH(unary_detail::ClampF32)(in, out, n, lo, hi);
}
OPD_FUNC bool clamp_row(const double* in, double* out, int64_t n, double lo, double hi) {
  return HWY_DYNAMIC_DISPATCH(unary_detail::ClampF64)(in, out, n, lo, hi);
}

}  // namespace opd::kernels::simd

#endif  // __CUDACC__
