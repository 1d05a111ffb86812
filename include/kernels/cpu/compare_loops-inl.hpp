#pragma once
// The loops of the comparison, logical and maximum/minimum ops, compiled
// once in src/kernels/pointwise_compare.cpp.
#include <array>

#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

template <class T, PointwiseOp... Ks>
bool run_binary_of(PointwiseOp op, const OperandRef& out, const std::array<OperandRef, 2>& in) {
  return ((op == Ks ? (run_pointwise<T, 2>(out, in, BinaryPointwise<Ks, opmath_t<T>>{}), true) : false) || ...);
}

OPD_FUNC void compare_loops(PointwiseOp op, ScalarType compute, const OperandRef& out,
                            const std::array<OperandRef, 2>& inputs) {
  dispatch_dtype(compute, pointwise_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = PointwiseOp;
    const bool done = run_binary_of<T, P::Eq, P::Ne, P::Lt, P::Le, P::Gt, P::Ge, P::LogicalAnd, P::LogicalOr,
                                    P::LogicalXor, P::Maximum, P::Minimum>(op, out, inputs);
    if (!done) throw_not_implemented_for(pointwise_name(op), compute);
  });
}

}  // namespace opd::kernels::detail
