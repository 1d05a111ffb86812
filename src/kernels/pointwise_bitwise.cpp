// libopdispatch: the loops of the bitwise ops and shifts, for the Integral dtypes
// (the other group: pointwise_bitwise_floating.cpp; one source each, the whole dtype product took
// 8-10 s to compile in one).
#include "kernels/cpu/bitwise_loops-inl.hpp"

namespace opd::kernels::detail {
template void bitwise_loops_of<DtypeGroup::Integral>(PointwiseOp, ScalarType, const OperandRef&,
                                                     const std::array<OperandRef, 2>&);
}  // namespace opd::kernels::detail
