// libopdispatch: the other keep-kind unary ops' loops (neg, abs, rounding, nan_to_num, ...), for the Integral dtypes
// (the other group: pointwise_unary_other_floating.cpp; one source each, the whole dtype product took
// 8-10 s to compile in one).
#include "kernels/cpu/unary_other_loops-inl.hpp"

namespace opd::kernels::detail {
template void unary_other_loops_of<DtypeGroup::Integral>(UnaryOp, const UnaryParams&, ScalarType, const OperandRef&,
                                                         const OperandRef&);
}  // namespace opd::kernels::detail
