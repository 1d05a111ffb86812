#pragma once
// Helpers of the unary family's loops (unary_float_loops-inl.hpp,
// unary_other_loops-inl.hpp, each compiled in its own source: the op x
// dtype product is the cost).
#include <array>
#include <limits>
#include <type_traits>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

// Runs the functor Op<K, C> of the one K in Ks equal to `op`; false if none.
template <class T, template <UnaryOp, class> class Op, UnaryOp... Ks>
bool run_unary_of(UnaryOp op, const OperandRef& out, const std::array<OperandRef, 1>& in) {
  return ((op == Ks ? (run_pointwise<T, 1>(out, in, Op<Ks, opmath_t<T>>{}), true) : false) || ...);
}

// The largest finite value of T (nan_to_num's default for +inf).
template <class T>
double largest_finite() noexcept {
  if constexpr (std::is_same_v<T, Half>) return 65504.0;
  else if constexpr (std::is_same_v<T, BFloat16>) return 3.3895313892515355e38;
  else return static_cast<double>(std::numeric_limits<T>::max());
}

}  // namespace opd::kernels::detail
