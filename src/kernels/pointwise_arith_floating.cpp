// libopdispatch: the loops of pow, remainder, fmod, atan2 and the divisions, for the floating dtypes
// (the other group: pointwise_arith.cpp).
#include "kernels/cpu/arith_loops-inl.hpp"

namespace opd::kernels::detail {
template void arith_loops_of<DtypeGroup::Floating>(PointwiseOp, ScalarType, const OperandRef&,
                                                   const std::array<OperandRef, 2>&);
}  // namespace opd::kernels::detail
