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
OPD_FUNC bool unary_row(UnaryOp, const float*, float*, int64_t) { return false; }
OPD_FUNC bool unary_row(UnaryOp, const double*, double*, int64_t) { return false; }
}  // namespace opd::kernels::simd

#else  // Highway

// The same target set as reduce_simd-inl.hpp (the first of the two a file
// includes decides): no SSSE3, no AVX3_DL.
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_AVX3_DL)
#endif
// Highway's foreach_target.h compiles the per-target bodies once per
// target, but has an include guard: one pass per translation unit. Compiled,
// this family's source makes its own pass; header-only, the first of
// reduce_simd-inl.hpp and unary_simd-inl.hpp a file includes makes the pass
// for both families (simd_targets-inl.hpp).
#if defined(OPD_HEADER_ONLY)
#ifndef OPD_SIMD_TARGETS_COMPILED
#define OPD_SIMD_TARGETS_COMPILED
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/simd_targets-inl.hpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include "kernels/cpu/simd_targets-inl.hpp"  // the static target's pass
#endif
#else
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cpu/unary_simd_targets-inl.hpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include "kernels/cpu/unary_simd_targets-inl.hpp"  // the static target's pass
#endif

namespace opd::kernels::simd {

namespace unary_detail {
HWY_EXPORT(UnaryF32);
HWY_EXPORT(UnaryF64);
}  // namespace unary_detail

OPD_FUNC bool unary_row(UnaryOp op, const float* in, float* out, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(unary_detail::UnaryF32)(op, in, out, n);
}
OPD_FUNC bool unary_row(UnaryOp op, const double* in, double* out, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(unary_detail::UnaryF64)(op, in, out, n);
}

}  // namespace opd::kernels::simd

#endif  // __CUDACC__
