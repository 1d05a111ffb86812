#pragma once
// The loops of the ordering comparisons (lt, le, gt, ge), compiled once in
// src/kernels/pointwise_compare.cpp.
#include <array>

#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC void compare_loops(PointwiseOp op, ScalarType compute, const OperandRef& out,
                            const std::array<OperandRef, 2>& inputs) {
  dispatch_dtype(compute, pointwise_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = PointwiseOp;
    const bool done = run_binary_of<T, P::Lt, P::Le, P::Gt, P::Ge>(op, out, inputs);
    if (!done) throw_not_implemented_for(pointwise_name(op), compute);
  });
}

}  // namespace opd::kernels::detail
