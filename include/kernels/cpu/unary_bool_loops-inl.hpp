#pragma once
// The loops of the bool-kind unary ops (logical_not, isnan, isinf,
// isfinite), every kernel dtype; compiled in
// src/kernels/pointwise_unary_bool.cpp.
#include "kernels/cpu/unary_loops-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC void unary_bool_loops(UnaryOp op, ScalarType compute, const OperandRef& out, const OperandRef& in) {
  const std::array<OperandRef, 1> inputs{in};
  dispatch_dtype(compute, unary_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using U = UnaryOp;
    if (!run_unary_of<T, BoolUnary, U::LogicalNot, U::IsNan, U::IsInf, U::IsFinite>(op, out, inputs)) {
      throw_not_implemented_for(unary_name(op), compute);
    }
  });
}

}  // namespace opd::kernels::detail
