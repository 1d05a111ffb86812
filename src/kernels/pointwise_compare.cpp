// libopdispatch: the loops of lt, le, gt and ge, for the Integral dtypes
// (the other group: pointwise_compare_floating.cpp; one source each, the whole dtype product took
// 8-10 s to compile in one).
#include "kernels/cpu/compare_loops-inl.hpp"

namespace opd::kernels::detail {
template void compare_loops_of<DtypeGroup::Integral>(PointwiseOp, ScalarType, const OperandRef&,
                                                     const std::array<OperandRef, 2>&);
}  // namespace opd::kernels::detail
