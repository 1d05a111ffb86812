// libopdispatch: the loops of pow, remainder, fmod, atan2 and the divisions, for the Integral dtypes
// (the other group: pointwise_arith_floating.cpp; one source each, the whole dtype product took
// 8-10 s to compile in one).
#include "kernels/cpu/arith_loops-inl.hpp"

namespace opd::kernels::detail {
template void arith_loops_of<DtypeGroup::Integral>(PointwiseOp, ScalarType, const OperandRef&,
                                                   const std::array<OperandRef, 2>&);
}  // namespace opd::kernels::detail
