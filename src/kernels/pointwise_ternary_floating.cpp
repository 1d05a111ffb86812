// libopdispatch: the loops of where and clamp, for the floating dtypes
// (the other group: pointwise_ternary.cpp).
#include "kernels/cpu/ternary_loops-inl.hpp"

namespace opd::kernels::detail {
template void where_clamp_loops_of<DtypeGroup::Floating>(TernaryOp, ScalarType, const OperandRef&,
                                                         const std::array<OperandRef, 3>&);
}  // namespace opd::kernels::detail
