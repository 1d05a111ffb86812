// libopdispatch: the logical and maximum/minimum loops, for the Integral dtypes
// (the other group: pointwise_logical_floating.cpp; one source each, the whole dtype product took
// 8-10 s to compile in one).
#include "kernels/cpu/logical_loops-inl.hpp"

namespace opd::kernels::detail {
template void logical_loops_of<DtypeGroup::Integral>(PointwiseOp, ScalarType, const OperandRef&,
                                                     const std::array<OperandRef, 2>&);
}  // namespace opd::kernels::detail
