#pragma once
// The loops of pow, remainder, fmod, atan2 and the divisions, compiled in
// src/kernels/pointwise_arith.cpp (integral dtypes) and
// pointwise_arith_floating.cpp (floating dtypes): one source per dtype group.
#include <array>

#include "kernels/cpu/arith_simd.hpp"
#include "kernels/cpu/pointwise_functors-inl.hpp"
#include "kernels/cpu/simd_row_split-inl.hpp"

namespace opd::kernels::detail {

// The vector rows (arith_simd.hpp) for Float/Double when out is contiguous
// and each input is contiguous with out's sizes or a 0-dim value, all of the
// compute dtype (simd_row_split-inl.hpp). False (nothing written) when that
// path does not apply.
inline bool try_arith_simd(PointwiseOp op, ScalarType compute, const OperandRef& out,
                           const std::array<OperandRef, 2>& inputs) {
  return try_simd_binary_row(compute, out, inputs, [op](const auto* a, const auto* b, auto* y, int64_t n, unsigned bc) {
    return simd::arith_row(op, a, b, y, n, bc);
  });
}

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
