// libopdispatch: the loops of lt, le, gt and ge, for the floating dtypes
// (the other group: pointwise_compare.cpp).
#include "kernels/cpu/compare_loops-inl.hpp"

namespace opd::kernels::detail {
template void compare_loops_of<DtypeGroup::Floating>(PointwiseOp, ScalarType, const OperandRef&,
                                                     const std::array<OperandRef, 2>&);
}  // namespace opd::kernels::detail
