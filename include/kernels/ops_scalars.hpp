#pragma once
// A tensor's scalar and metadata at the operator level: scalar_tensor (a
// Scalar as a 0-dim tensor, ATen 1.13's schema), _local_scalar_dense (the one
// element of a tensor as a Scalar: what `item()` reaches below autograd,
// which checks for one element first) and
// PyTorch 2.x's sym_* queries (sym_size.int, sym_stride.int, sym_numel,
// sym_storage_offset, sym_is_contiguous: ATen 1.13 has none of them; their
// schemas are 2.x's, SymInt / SymBool read as int / bool).
//
//   auto kernels = opd::kernels::register_scalars();   // also part of register_cpu()
//   opd::Scalar v = opd::call<opd::kernels::ops::_local_scalar_dense>(t);
//
// scalar_tensor has CPU and Meta kernels (device=meta gives a Meta tensor);
// the sym_* queries read metadata only and are registered at
// CompositeExplicitAutograd (every backend, Meta included);
// _local_scalar_dense reads data, so it has a CPU kernel and no Meta kernel
// (a Meta tensor has no value to read, as in ATen).
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"

namespace opd::kernels {

namespace ops {

struct scalar_tensor : op<"aten::scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct _local_scalar_dense : op<"aten::_local_scalar_dense(Tensor self) -> Scalar"> {};
struct sym_size : op<"aten::sym_size.int(Tensor self, int dim) -> SymInt"> {};
struct sym_stride : op<"aten::sym_stride.int(Tensor self, int dim) -> SymInt"> {};
struct sym_numel : op<"aten::sym_numel(Tensor self) -> SymInt"> {};
struct sym_storage_offset : op<"aten::sym_storage_offset(Tensor self) -> SymInt"> {};
struct sym_is_contiguous : op<"aten::sym_is_contiguous(Tensor self, MemoryFormat memory_format=contiguous_format) -> SymBool"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/register_scalars.cpp).
OPD_API RegistrationSet register_scalars();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_scalars-inl.hpp"
#endif
