// libopdispatch: the loops of where and clamp, for the Integral dtypes
// (the other group: pointwise_ternary_floating.cpp; one source each, the whole dtype product took
// 8-10 s to compile in one).
#include "kernels/cpu/ternary_loops-inl.hpp"

namespace opd::kernels::detail {
// where's select rows for every value size (the floating group's too).
template void select_rows<1>(const unsigned char*, const void*, bool, const void*, bool, void*, int64_t);
template void select_rows<2>(const unsigned char*, const void*, bool, const void*, bool, void*, int64_t);
template void select_rows<4>(const unsigned char*, const void*, bool, const void*, bool, void*, int64_t);
template void select_rows<8>(const unsigned char*, const void*, bool, const void*, bool, void*, int64_t);
template void where_clamp_loops_of<DtypeGroup::Integral>(TernaryOp, ScalarType, const OperandRef&,
                                                         const std::array<OperandRef, 3>&);
}  // namespace opd::kernels::detail
