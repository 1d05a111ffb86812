#pragma once
// The loops of eq and ne (complex64/complex128 included), compiled once in
// src/kernels/pointwise_equality.cpp.
#include <array>

#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC void equality_loops(PointwiseOp op, ScalarType compute, const OperandRef& out,
                             const std::array<OperandRef, 2>& inputs) {
  dispatch_dtype_with_complex(compute, pointwise_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = PointwiseOp;
    const bool done = run_binary_of<T, P::Eq, P::Ne>(op, out, inputs);
    if (!done) throw_not_implemented_for(pointwise_name(op), compute);
  });
}

}  // namespace opd::kernels::detail
