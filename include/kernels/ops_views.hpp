#pragma once
// ATen's view operators, and the copies that go with them (contiguous, clone,
// empty_strided, _to_copy, to), declared with ATen 1.13's schemas verbatim.
// A view shares its input's storage and version counter: is_view() is true
// and _base() is the tensor the first view was taken from (detach and
// _unsafe_view alias the storage without being views, as in PyTorch).
//
//   auto kernels = opd::kernels::register_cpu();   // registers these too (register_views())
//   opd::Tensor t = opd::call<opd::kernels::ops::transpose>(x, 0, 1);
//   opd::call_boxed("aten::transpose.int", stack);
//
// The kernels work on any tensor made of the library's TensorImpl/Storage:
// they are registered for CompositeExplicitAutograd (or, where ATen does,
// CompositeImplicitAutograd), which every backend key (CPU, Meta,
// PrivateUse1, ...) without its own kernel reaches before its fallback. The
// copies allocate and copy through the dispatcher (empty_strided, copy_), so
// a backend provides those two. empty_strided has CPU and Meta kernels.
//
// Argument errors read like PyTorch's, prefixed with the operator's name
// (kernels/views/geometry.hpp).
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error

#include <string_view>

#include "dispatch/dispatcher.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

namespace ops {

struct view : op<"aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)"> {};
struct unsafe_view : op<"aten::_unsafe_view(Tensor self, SymInt[] size) -> Tensor"> {};
struct reshape : op<"aten::reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)"> {};
struct transpose : op<"aten::transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)"> {};
struct t : op<"aten::t(Tensor(a) self) -> Tensor(a)"> {};
struct permute : op<"aten::permute(Tensor(a) self, int[] dims) -> Tensor(a)"> {};
struct slice : op<"aten::slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)"> {};
struct select : op<"aten::select.int(Tensor(a) self, int dim, int index) -> Tensor(a)"> {};
struct narrow : op<"aten::narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)"> {};
struct diagonal : op<"aten::diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)"> {};
struct unsqueeze : op<"aten::unsqueeze(Tensor(a) self, int dim) -> Tensor(a)"> {};
struct squeeze : op<"aten::squeeze(Tensor(a) self) -> Tensor(a)"> {};
struct squeeze_dim : op<"aten::squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)"> {};
struct expand : op<"aten::expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)"> {};
struct expand_as : op<"aten::expand_as(Tensor(a) self, Tensor other) -> Tensor(a)"> {};
struct as_strided : op<"aten::as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)"> {};
struct alias : op<"aten::alias(Tensor(a) self) -> Tensor(a)"> {};
// reshape's view when the strides are already known (as_strided at self's
// storage offset); what a recorded model's flatten / view reaches below autograd.
struct reshape_alias : op<"aten::_reshape_alias(Tensor(a) self, SymInt[] size, SymInt[] stride) -> Tensor(a)"> {};
// self itself: what torch.tensor(...) constants pass through when traced.
struct lift_fresh : op<"aten::lift_fresh(Tensor(a) self) -> Tensor(a)"> {};
struct split : op<"aten::split.Tensor(Tensor(a -> *) self, int split_size, int dim=0) -> Tensor(a)[]"> {};
struct split_with_sizes : op<"aten::split_with_sizes(Tensor(a -> *) self, int[] split_sizes, int dim=0) -> Tensor(a)[]"> {};
struct unbind : op<"aten::unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]"> {};
struct chunk : op<"aten::chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]"> {};
struct unfold : op<"aten::unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)"> {};
struct flatten : op<"aten::flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)"> {};
struct detach : op<"aten::detach(Tensor(a) self) -> Tensor(a)"> {};

// Copies (or, for contiguous and to, the input itself when nothing changes).
struct contiguous : op<"aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)"> {};
struct clone : op<"aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor"> {};
struct empty_strided : op<"aten::empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct to_copy : op<"aten::_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor"> {};
struct to_dtype : op<"aten::to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)"> {};
struct to_dtype_layout : op<"aten::to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)"> {};
struct to_other : op<"aten::to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)"> {};
struct to_device : op<"aten::to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)"> {};

}  // namespace ops

// Registers every operator above (the views and copies for
// CompositeExplicitAutograd / CompositeImplicitAutograd as ATen does,
// empty_strided for CPU and Meta). register_cpu() calls it. Compiled once, in
// libopdispatch (src/kernels/views.cpp).
OPD_API RegistrationSet register_views();

namespace views_detail {
// An uninitialised tensor like `self` (empty_like): self's strides under
// MemoryFormat::Preserve when self is dense, else `format`'s layout; through
// the dispatcher (empty_strided / empty). op: named in the layout error.
OPD_API Tensor empty_like_for_copy(std::string_view op, const Tensor& self, ScalarType dtype, Device device,
                                   MemoryFormat format);
}  // namespace views_detail

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_views-inl.hpp"
#endif
