// libopdispatch: the loops of where and clamp, for the Integral dtypes
// (the other group: pointwise_ternary_floating.cpp; one source each, the whole dtype product took
// 8-10 s to compile in one).
#include "kernels/cpu/ternary_loops-inl.hpp"

namespace opd::kernels::detail {
template void where_clamp_loops_of<DtypeGroup::Integral>(TernaryOp, ScalarType, const OperandRef&,
                                                         const std::array<OperandRef, 3>&);
}  // namespace opd::kernels::detail
