// libopdispatch: the other keep-kind unary ops' loops (neg, abs, rounding, nan_to_num, ...), for the floating dtypes
// (the other group: pointwise_unary_other.cpp).
#include "kernels/cpu/unary_other_loops-inl.hpp"

namespace opd::kernels::detail {
template void unary_other_loops_of<DtypeGroup::Floating>(UnaryOp, const UnaryParams&, ScalarType, const OperandRef&,
                                                         const OperandRef&);
}  // namespace opd::kernels::detail
