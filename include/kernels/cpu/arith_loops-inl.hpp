#pragma once
// The loops of pow, remainder, fmod, atan2 and the divisions, compiled in
// src/kernels/pointwise_arith.cpp (integral dtypes) and
// pointwise_arith_floating.cpp (floating dtypes): one source per dtype group.
#include <array>

#include "kernels/cpu/pointwise_functors-inl.hpp"
#include "kernels/cpu/simd_row_split-inl.hpp"

namespace opd::kernels::detail {

template <DtypeGroup G>
void arith_loops_of(PointwiseOp op, ScalarType compute, const OperandRef& out,
                    const std::array<OperandRef, 2>& inputs) {
  if (try_arith_simd(op, compute, out, inputs)) return;
  dispatch_dtype_group<G>(compute, pointwise_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = PointwiseOp;
    const bool done =
        run_binary_of<T, P::Pow, P::Remainder, P::Fmod, P::Atan2, P::FloorDivide, P::DivTrunc, P::DivFloor>(op, out,
                                                                                                            inputs);
    if (!done) throw_not_implemented_for(pointwise_name(op), compute);
  });
}

#ifndef OPD_HEADER_ONLY
// Instantiated once per dtype group, in src/kernels/pointwise_arith.cpp (Integral) and
// pointwise_arith_floating.cpp (Floating).
extern template void arith_loops_of<DtypeGroup::Integral>(PointwiseOp, ScalarType, const OperandRef&,
                                                          const std::array<OperandRef, 2>&);
extern template void arith_loops_of<DtypeGroup::Floating>(PointwiseOp, ScalarType, const OperandRef&,
                                                          const std::array<OperandRef, 2>&);
#endif

}  // namespace opd::kernels::detail
