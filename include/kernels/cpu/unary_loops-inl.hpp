#pragma once
// Helpers of the unary family's loops (unary_float_loops-inl.hpp,
// unary_other_loops-inl.hpp, each compiled in its own source: the op x
// dtype product is the cost).
#include <array>
#include <limits>
#include <type_traits>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/pointwise_functors-inl.hpp"
#include "kernels/cpu/simd_row_split-inl.hpp"
#include "kernels/cpu/unary_simd.hpp"

namespace opd::kernels::detail {

// Runs the functor Op<K, C> of the one K in Ks equal to `op`; false if none.
template <class T, template <UnaryOp, class> class Op, UnaryOp... Ks>
bool run_unary_of(UnaryOp op, const OperandRef& out, const std::array<OperandRef, 1>& in) {
  return ((op == Ks ? (run_pointwise<T, 1>(out, in, Op<Ks, opmath_t<T>>{}), true) : false) || ...);
}

// The vector rows (unary_simd.hpp: Highway + Sleef) for Float/Double when
// out and in are contiguous and of the compute dtype, split across threads
// above grain_size; false if that path does not apply (nothing written).
template <class T>
bool try_unary_simd_of(UnaryOp op, const UnaryParams& params, const OperandRef& out, const OperandRef& in) {
  const double a = params.a.value_or(0.0);
  const double b = params.b.value_or(0.0);
  const double c = params.c.value_or(0.0);
  return try_simd_row<T>(out, in, [&](const T* x, T* y, int64_t n) { return simd::unary_row(op, x, y, n, a, b, c); });
}
inline bool try_unary_simd(UnaryOp op, const UnaryParams& params, ScalarType compute, const OperandRef& out,
                           const OperandRef& in) {
  if (compute != ScalarType::Float && compute != ScalarType::Double) return false;
  if (in.dtype != compute || out.dtype != compute || !(in.sizes == out.sizes)) return false;
  int64_t n = 1;
  for (int64_t s : out.sizes) n *= s;
  // A few elements: the scalar loop, cheaper than the run-time dispatch
  // (the ops that were vectorized before floor & co. keep their path).
  if (n < kMinSimdElements && unary_kind(op) != UnaryKind::Float && op != UnaryOp::Silu) return false;
  return compute == ScalarType::Double ? try_unary_simd_of<double>(op, params, out, in)
                                        : try_unary_simd_of<float>(op, params, out, in);
}

// The largest finite value of T (nan_to_num's default for +inf).
template <class T>
double largest_finite() noexcept {
  if constexpr (std::is_same_v<T, Half>) return 65504.0;
  else if constexpr (std::is_same_v<T, BFloat16>) return 3.3895313892515355e38;
  else return static_cast<double>(std::numeric_limits<T>::max());
}

}  // namespace opd::kernels::detail
