#pragma once
// The loops of lerp, addcmul and addcdiv, compiled once in
// src/kernels/pointwise_ternary_math.cpp.
#include <array>
#include <type_traits>

#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC void ternary_math_loops(TernaryOp op, ScalarType compute, const OperandRef& out,
                                 const std::array<OperandRef, 3>& inputs, const Scalar* value) {
  const char* name = op == TernaryOp::Lerp || op == TernaryOp::LerpScalar ? "lerp_kernel_scalar"
                     : op == TernaryOp::Addcmul                           ? "addcmul_cpu_out"
                                                                          : "addcdiv_cpu_out";
  dispatch_dtype(compute, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    switch (op) {
      case TernaryOp::Lerp:
      case TernaryOp::LerpScalar:
        if constexpr (std::is_floating_point_v<C>) {
          if (op == TernaryOp::Lerp) {
            run_pointwise<T, 3>(out, inputs, [](C s, C e, C w) { return lerp_of(s, e, w); });
          } else {
            const C w = static_cast<C>(checked_scalar_to<T>(*value));
            if (w < C(0.5)) {
              run_pointwise<T, 2>(out, {inputs[0], inputs[1]}, LerpScalarOp<C, true>{w});
            } else {
              run_pointwise<T, 2>(out, {inputs[0], inputs[1]}, LerpScalarOp<C, false>{w});
            }
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
      default: break;
    }
    throw_not_implemented_for(name, compute);
  });
}

}  // namespace opd::kernels::detail
