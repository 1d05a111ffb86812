#pragma once
// The loops of the ordering comparisons (lt, le, gt, ge), compiled in
// src/kernels/pointwise_compare.cpp (integral dtypes) and
// pointwise_compare_floating.cpp (floating dtypes): one source per dtype group.
#include <array>

#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

template <DtypeGroup G>
void compare_loops_of(PointwiseOp op, ScalarType compute, const OperandRef& out,
                      const std::array<OperandRef, 2>& inputs) {
  dispatch_dtype_group<G>(compute, pointwise_name(op), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using P = PointwiseOp;
    const bool done = run_binary_of<T, P::Lt, P::Le, P::Gt, P::Ge>(op, out, inputs);
    if (!done) throw_not_implemented_for(pointwise_name(op), compute);
  });
}

#ifndef OPD_HEADER_ONLY
// Instantiated once per dtype group, in src/kernels/pointwise_compare.cpp (Integral) and
// pointwise_compare_floating.cpp (Floating).
extern template void compare_loops_of<DtypeGroup::Integral>(PointwiseOp, ScalarType, const OperandRef&,
                                                            const std::array<OperandRef, 2>&);
extern template void compare_loops_of<DtypeGroup::Floating>(PointwiseOp, ScalarType, const OperandRef&,
                                                            const std::array<OperandRef, 2>&);
#endif

}  // namespace opd::kernels::detail
