// libopdispatch: the floating unary ops' loops (exp, sin, gelu, ...), for the Float and Double dtypes
// (the other group: pointwise_unary_float_reduced.cpp; one source each, the whole dtype product took
// 8-10 s to compile in one).
#include "kernels/cpu/unary_float_loops-inl.hpp"

namespace opd::kernels::detail {
template void unary_float_loops_of<DtypeGroup::WideFloating>(UnaryOp, const UnaryParams&, ScalarType, const OperandRef&,
                                                             const OperandRef&);
}  // namespace opd::kernels::detail
