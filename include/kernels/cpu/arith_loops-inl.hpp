#pragma once
// The loops of pow, remainder, fmod, atan2 and the divisions, compiled once
// in src/kernels/pointwise_arith.cpp.
#include <array>

#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC void arith_loops(PointwiseOp op, ScalarType compute, const OperandRef& out,
                          const std::array<OperandRef, 2>& inputs) {
  dispatch_dtype(compute, pointwise_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = PointwiseOp;
    const bool done = run_binary_of<T, P::Pow, P::Remainder, P::Fmod, P::Atan2, P::FloorDivide, P::DivTrunc,
                                    P::DivFloor>(op, out, inputs);
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
