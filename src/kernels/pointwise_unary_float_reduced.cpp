// libopdispatch: the floating unary ops' loops (exp, sin, gelu, ...), for the Half and BFloat16 dtypes
// (the other group: pointwise_unary_float.cpp).
#include "kernels/cpu/unary_float_loops-inl.hpp"

namespace opd::kernels::detail {
template void unary_float_loops_of<DtypeGroup::ReducedFloating>(UnaryOp, const UnaryParams&, ScalarType,
                                                                const OperandRef&, const OperandRef&);
}  // namespace opd::kernels::detail
