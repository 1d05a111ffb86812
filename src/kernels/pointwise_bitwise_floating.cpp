// libopdispatch: the loops of the bitwise ops and shifts, for the floating dtypes
// (the other group: pointwise_bitwise.cpp).
#include "kernels/cpu/bitwise_loops-inl.hpp"

namespace opd::kernels::detail {
template void bitwise_loops_of<DtypeGroup::Floating>(PointwiseOp, ScalarType, const OperandRef&,
                                                     const std::array<OperandRef, 2>&);
}  // namespace opd::kernels::detail
