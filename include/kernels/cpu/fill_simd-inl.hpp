#pragma once
// Out-of-line part of fill_simd.hpp (compiled in src/kernels/fill_simd.cpp):
// Highway's dynamic dispatch over SSE4, AVX2 and AVX-512 (the per-target
// body is fill_simd_targets-inl.hpp, compiled once per target).
#include <cstdint>

#include "kernels/cpu/fill_simd.hpp"

#if defined(__CUDACC__)
// nvcc (a header-only .cu file) cannot compile Highway's dispatch tables
// (HWY_EXPORT): there the scalar loop serves.
namespace opd::kernels::simd {
OPD_FUNC bool fill_row(void*, const void*, int64_t, int64_t) { return false; }
OPD_FUNC bool copy_bytes(void*, const void*, int64_t) { return false; }
OPD_FUNC bool arange_range(void*, bool, int64_t, int64_t, double, double) { return false; }
OPD_FUNC bool linspace_range(void*, bool, int64_t, int64_t, int64_t, double, double) { return false; }
}  // namespace opd::kernels::simd

#else  // Highway

#define OPD_SIMD_FAMILY_TARGETS "kernels/cpu/fill_simd_targets-inl.hpp"
#include "kernels/cpu/simd_pass-inl.hpp"

namespace opd::kernels::simd {

namespace fill_detail {
HWY_EXPORT(FillBits);
HWY_EXPORT(CopyBytes);
HWY_EXPORT(ArangeRange);
HWY_EXPORT(LinspaceRange);
}  // namespace fill_detail

OPD_FUNC bool fill_row(void* out, const void* value, int64_t elem_bytes, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(fill_detail::FillBits)(out, value, elem_bytes, n);
}

OPD_FUNC bool copy_bytes(void* dst, const void* src, int64_t n) {
  return HWY_DYNAMIC_DISPATCH(fill_detail::CopyBytes)(dst, src, n);
}

OPD_FUNC bool arange_range(void* out, bool is_double, int64_t b, int64_t e, double start, double step) {
  return HWY_DYNAMIC_DISPATCH(fill_detail::ArangeRange)(out, is_double, b, e, start, step);
}

OPD_FUNC bool linspace_range(void* out, bool is_double, int64_t b, int64_t e, int64_t steps, double start, double end) {
  return HWY_DYNAMIC_DISPATCH(fill_detail::LinspaceRange)(out, is_double, b, e, steps, start, end);
}

}  // namespace opd::kernels::simd

#endif  // __CUDACC__
