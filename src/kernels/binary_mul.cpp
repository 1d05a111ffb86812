// libopdispatch: the loops of the mul family, for every dtype (one source
// per family: the dtype product makes each of them long to compile).
#include "kernels/cpu/binary_loops-inl.hpp"

namespace opd::kernels::detail {
template void binary_loops<BinaryFamily::Mul>(const char*, const Scalar*, ScalarType, const OperandRef&,
                                              const std::array<OperandRef, 2>&);
}  // namespace opd::kernels::detail
