#pragma once
// The loops of where and clamp, compiled in
// src/kernels/pointwise_ternary.cpp (integral dtypes) and
// pointwise_ternary_floating.cpp (floating dtypes): one source per dtype group.
#include <array>

#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

template <DtypeGroup G>
void where_clamp_loops_of(TernaryOp op, ScalarType compute, const OperandRef& out,
                          const std::array<OperandRef, 3>& inputs) {
  const char* name = op == TernaryOp::Where ? "where_cpu" : "clamp_cpu";
  dispatch_dtype_group<G>(compute, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    switch (op) {
      case TernaryOp::Where:
        run_pointwise<T, 3>(out, inputs, TernaryPointwise<TernaryOp::Where, C>{});
        return;
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
      default:
        break;
    }
    throw_not_implemented_for(name, compute);
  });
}

#ifndef OPD_HEADER_ONLY
// Instantiated once per dtype group, in src/kernels/pointwise_ternary.cpp (Integral) and
// pointwise_ternary_floating.cpp (Floating).
extern template void where_clamp_loops_of<DtypeGroup::Integral>(TernaryOp, ScalarType, const OperandRef&,
                                                                const std::array<OperandRef, 3>&);
extern template void where_clamp_loops_of<DtypeGroup::Floating>(TernaryOp, ScalarType, const OperandRef&,
                                                                const std::array<OperandRef, 3>&);
#endif

}  // namespace opd::kernels::detail
