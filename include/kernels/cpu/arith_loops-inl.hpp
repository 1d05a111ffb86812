#pragma once
// The loops of pow, remainder, fmod, atan2, the divisions and the bitwise
// ops, compiled once in src/kernels/pointwise_arith.cpp.
#include <array>

#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

template <class T, PointwiseOp... Ks>
bool run_arith_of(PointwiseOp op, const OperandRef& out, const std::array<OperandRef, 2>& in) {
  return ((op == Ks ? (run_pointwise<T, 2>(out, in, BinaryPointwise<Ks, opmath_t<T>>{}), true) : false) || ...);
}

OPD_FUNC void arith_loops(PointwiseOp op, ScalarType compute, const OperandRef& out,
                          const std::array<OperandRef, 2>& inputs) {
  dispatch_dtype(compute, pointwise_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = PointwiseOp;
    const bool done = run_arith_of<T, P::Pow, P::Remainder, P::Fmod, P::Atan2, P::FloorDivide, P::DivTrunc,
                                    P::DivFloor, P::BitwiseAnd, P::BitwiseOr, P::BitwiseXor, P::LeftShift,
                                    P::RightShift>(op, out, inputs);
    if (!done) throw_not_implemented_for(pointwise_name(op), compute);
  });
}

OPD_FUNC bool has_zero(const OperandRef& t) {
  bool zero = false;
  dispatch_dtype(t.dtype, "has_zero", [&](auto tag) {
    using T = typename decltype(tag)::type;
    ElementwiseIter<0> iter(t, {});
    iter.for_each_row([&](const auto& ptrs, const auto& strides, int64_t n) {
      for (int64_t j = 0; j < n && !zero; ++j) zero = load<T>(ptrs[0] + j * strides[0]) == T(0);
    });
  });
  return zero;
}

}  // namespace opd::kernels::detail
