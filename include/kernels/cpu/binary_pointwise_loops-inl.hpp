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
                                    P::LogicalXor, P::Maximum, P::Minimum, P::Pow, P::Remainder, P::Fmod,
                                    P::Atan2, P::FloorDivide, P::DivTrunc, P::DivFloor, P::BitwiseAnd, P::BitwiseOr,
                                    P::BitwiseXor, P::LeftShift, P::RightShift>(op, out, inputs);
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

OPD_FUNC void ternary_pointwise_loops(TernaryOp op, ScalarType compute, const OperandRef& out,
                                      const std::array<OperandRef, 3>& inputs, const Scalar* value) {
  const char* name = op == TernaryOp::Where                                    ? "where_cpu"
                     : op == TernaryOp::Lerp || op == TernaryOp::LerpScalar    ? "lerp_kernel_scalar"
                     : op == TernaryOp::Addcmul                                ? "addcmul_cpu_out"
                     : op == TernaryOp::Addcdiv                                ? "addcdiv_cpu_out"
                                                                               : "clamp_cpu";
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
      case TernaryOp::Lerp:
      case TernaryOp::LerpScalar:
        if constexpr (std::is_floating_point_v<C>) {
          if (op == TernaryOp::Lerp) {
            run_pointwise<T, 3>(out, inputs, [](C s, C e, C w) { return lerp_of(s, e, w); });
          } else {
            run_pointwise<T, 2>(out, {inputs[0], inputs[1]},
                                LerpScalarOp<C>{static_cast<C>(checked_scalar_to<T>(*value))});
          }
          return;
        }
        break;
      case TernaryOp::Addcmul:
      case TernaryOp::Addcdiv:
        if constexpr (!std::is_same_v<C, bool>) {
          const C v = static_cast<C>(checked_scalar_to<T>(*value));
          if (op == TernaryOp::Addcmul) {
            run_pointwise<T, 3>(out, inputs, ScaledTernary<TernaryOp::Addcmul, C>{v});
          } else {
            run_pointwise<T, 3>(out, inputs, ScaledTernary<TernaryOp::Addcdiv, C>{v});
          }
          return;
        }
        break;
    }
    throw_not_implemented_for(name, compute);
  });
}

}  // namespace opd::kernels::detail
