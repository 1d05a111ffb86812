#pragma once
// Core ATen operators of no larger family (issue 25): squeeze.dims and
// any.dims (PyTorch 2.x's schemas: ATen 1.13 has neither), resize_ (and resize, 2.x's) and the
// scatter_reduce.two family (ATen 1.13's).
//
//   squeeze.dims    a view without the listed dimensions that have size 1
//                   (CompositeExplicitAutograd: every backend, Meta included)
//   any.dims        any over the listed dimensions (None or []: all of them),
//                   a composite over any.dim; .dims_out writes a Bool or Byte out
//   resize_         self's sizes changed in place (contiguous strides, or the
//                   memory format given; the storage grows, never shrinks);
//                   CPU and Meta kernels
//   resize          PyTorch 2.x's functional variant (what the Functionalize
//                   layer runs for resize_): a resized copy of self, its
//                   elements kept in self's logical order
//   scatter_reduce.two (with scatter_reduce_.two and .two_out derived)
//                   kernels/cpu/scatter_reduce.hpp; CPU and Meta kernels
//
//   auto kernels = opd::kernels::register_core_aten();   // also part of register_cpu()
//   opd::Tensor y = opd::call<opd::kernels::ops::squeeze_dims>(x, std::vector<int64_t>{0, 2});
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/scatter_reduce.hpp"

namespace opd::kernels {

namespace ops {

struct squeeze_dims : op<"aten::squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)"> {};
struct any_dims : op<"aten::any.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor"> {};
struct any_dims_out : op<"aten::any.dims_out(Tensor self, int[]? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct resize_ : op<"aten::resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)"> {};
struct resize : op<"aten::resize(Tensor self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor"> {};
struct scatter_reduce_two : op<"aten::scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor"> {};
struct scatter_reduce__two : op<"aten::scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor(a!)"> {};
struct scatter_reduce_two_out : op<"aten::scatter_reduce.two_out(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True, Tensor(a!) out) -> Tensor(a!)"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/core_aten.cpp, with the scatter_reduce kernel).
OPD_API RegistrationSet register_core_aten();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_core_aten-inl.hpp"
#endif
