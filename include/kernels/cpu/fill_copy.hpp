// fill_ and copy_ on CPU.
//
//   fill_(Tensor(a!) self, Scalar value) -> Tensor(a!)
//   copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
//
// fill_ converts value with c10's checked Scalar::to<T> (so uint8.fill_(256)
// throws "value cannot be converted to type uint8_t without overflow", and
// int.fill_(2.7) stores 2); any layout, overlapping (expanded) self allowed.
// copy_ broadcasts src to self's shape and converts element by element
// (c10::convert: float -> int truncates, x -> bool is x != 0); both sides
// may be non-contiguous. src sharing memory with self is handled: the same
// elements (self.copy_(self) or an identical view) return at once; any other
// overlap reads from a temporary copy of src (PyTorch rejects the partial
// overlaps it can detect instead). A self whose elements overlap each other
// (expand()) is rejected as in PyTorch. Meta tensors: checks only.
#pragma once

#include "dispatch/config.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API Tensor& fill_(Tensor& self, const Scalar& value);
OPD_API Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking = false);
// copy_'s branch for tensors on two different devices (neither Meta), after
// the shape checks: through the CPU with the devices' _copy_from kernels
// (dispatch/transfer.hpp); without such a kernel, opd::NotImplementedError.
OPD_API Tensor& copy_between_devices(Tensor& self, const Tensor& src, bool non_blocking);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/fill_copy-inl.hpp"
#endif
