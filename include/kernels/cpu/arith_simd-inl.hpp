#pragma once
// Out-of-line part of arith_simd.hpp (compiled in src/kernels/arith_simd.cpp):
// Highway's dynamic dispatch over SSE4, AVX2 and AVX-512 (the per-target
// bodies are arith_simd_targets-inl.hpp, compiled once per target).
#include <cstdint>

#include "kernels/cpu/arith_simd.hpp"

#if defined(__CUDACC__)
// nvcc (a header-only .cu file) cannot compile Highway's dispatch tables
// (HWY_EXPORT): there the scalar loops serve.
namespace opd::kernels::simd {
OPD_FUNC bool arith_row(PointwiseOp, const float*, const float*, float*, int64_t, unsigned) { return false; }
OPD_FUNC bool arith_row(PointwiseOp, const double*, const double*, double*, int64_t, unsigned) { return false; }
OPD_FUNC bool basic_arith_row(BasicArith, const float*, const float*, float*, int64_t, unsigned) { return false; }
OPD_FUNC bool basic_arith_row(BasicArith, const double*, const double*, double*, int64_t, unsigned) { return false; }
}  // namespace opd::kernels::simd

#else  // Highway

#define OPD_SIMD_FAMILY_TARGETS "kernels/cpu/arith_simd_targets-inl.hpp"
#include "kernels/cpu/simd_pass-inl.hpp"

namespace opd::kernels::simd {

namespace arith_detail {
HWY_EXPORT(ArithF32);
HWY_EXPORT(ArithF64);
HWY_EXPORT(BasicF32);
HWY_EXPORT(BasicF64);
}  // namespace arith_detail

OPD_FUNC bool arith_row(PointwiseOp op, const float* a, const float* b, float* out, int64_t n, unsigned broadcast) {
  return HWY_DYNAMIC_DISPATCH(arith_detail::ArithF32)(op, a, b, out, n, broadcast);
}
OPD_FUNC bool arith_row(PointwiseOp op, const double* a, const double* b, double* out, int64_t n,
                        unsigned broadcast) {
  return HWY_DYNAMIC_DISPATCH(arith_detail::ArithF64)(op, a, b, out, n, broadcast);
}
OPD_FUNC bool basic_arith_row(BasicArith op, const float* a, const float* b, float* out, int64_t n,
                              unsigned broadcast) {
  return HWY_DYNAMIC_DISPATCH(arith_detail::BasicF32)(op, a, b, out, n, broadcast);
}
OPD_FUNC bool basic_arith_row(BasicArith op, const double* a, const double* b, double* out, int64_t n,
                              unsigned broadcast) {
  return HWY_DYNAMIC_DISPATCH(arith_detail::BasicF64)(op, a, b, out, n, broadcast);
}

}  // namespace opd::kernels::simd

#endif  // __CUDACC__
