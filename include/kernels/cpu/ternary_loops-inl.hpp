#pragma once
// The loops of where, clamp, lerp, addcmul and addcdiv, compiled once in
// src/kernels/pointwise_ternary.cpp.
#include <array>

#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

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
