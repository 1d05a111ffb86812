#pragma once
// The loops of the binary (comparison, logical, maximum/minimum) and
// ternary (where, clamp) pointwise families, compiled once in
// src/kernels/pointwise_binary.cpp.
#include <array>

#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

template <class T, PointwiseOp... Ks>
bool run_binary_of(PointwiseOp op, const OperandRef& out, const std::array<OperandRef, 2>& in) {
  return ((op == Ks ? (run_pointwise<T, 2>(out, in, BinaryPointwise<Ks, opmath_t<T>>{}), true) : false) || ...);
}

OPD_FUNC void binary_pointwise_loops(PointwiseOp op, ScalarType compute, const OperandRef& out,
                                     const std::array<OperandRef, 2>& inputs) {
  dispatch_dtype(compute, pointwise_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = PointwiseOp;
    const bool done = run_binary_of<T, P::Eq, P::Ne, P::Lt, P::Le, P::Gt, P::Ge, P::LogicalAnd, P::LogicalOr,
                                    P::LogicalXor, P::Maximum, P::Minimum>(op, out, inputs);
    if (!done) throw_not_implemented_for(pointwise_name(op), compute);
  });
}

OPD_FUNC void ternary_pointwise_loops(TernaryOp op, ScalarType compute, const OperandRef& out,
                                      const std::array<OperandRef, 3>& inputs) {
  const char* name = op == TernaryOp::Where ? "where_cpu" : "clamp_cpu";
  dispatch_dtype(compute, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    switch (op) {
      case TernaryOp::Where: run_pointwise<T, 3>(out, inputs, TernaryPointwise<TernaryOp::Where, C>{}); return;
      case TernaryOp::ClampTensor:
        run_pointwise<T, 3>(out, inputs, TernaryPointwise<TernaryOp::ClampTensor, C>{});
        return;
      case TernaryOp::ClampScalar:
        run_pointwise<T, 3>(out, inputs, TernaryPointwise<TernaryOp::ClampScalar, C>{});
        return;
      case TernaryOp::ClampMinScalar:
        run_pointwise<T, 2>(out, {inputs[0], inputs[1]}, ClampOneSide<TernaryOp::ClampMinScalar, C>{});
        return;
      case TernaryOp::ClampMaxScalar:
        run_pointwise<T, 2>(out, {inputs[0], inputs[1]}, ClampOneSide<TernaryOp::ClampMaxScalar, C>{});
        return;
    }
  });
}

}  // namespace opd::kernels::detail
