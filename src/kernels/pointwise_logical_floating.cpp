// libopdispatch: the logical and maximum/minimum loops, for the floating dtypes
// (the other group: pointwise_logical.cpp).
#include "kernels/cpu/logical_loops-inl.hpp"

namespace opd::kernels::detail {
template void logical_loops_of<DtypeGroup::Floating>(PointwiseOp, ScalarType, const OperandRef&,
                                                     const std::array<OperandRef, 2>&);
}  // namespace opd::kernels::detail
