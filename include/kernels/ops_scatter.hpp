#pragma once
// The inverses of the views as functional operators, with ATen 1.13's
// schemas: a functionalization layer writes the new value of a view back into
// its base with them (functionalize/view_inverse.hpp), so that a backend
// below it sees neither a view nor a mutation.
//
//   slice_scatter(base, src, dim, start, end, step)    base with base[dim][start:end:step] = src, fresh
//   select_scatter, diagonal_scatter, as_strided_scatter  the same through select, diagonal, as_strided
//   unfold_backward(g, input_sizes, dim, size, step)   zeros of input_sizes, each window of g added in
//   sum.dim_IntList(self, dim, keepdim, dtype)         sums over dims (the inverse of expand sums deltas)
//
// The scatters are ATen's composites: clone self, take the view of the clone,
// check that src has the view's sizes, copy src into it, return the clone;
// every step through the dispatcher (CompositeExplicitAutograd here too), so
// any backend with clone's and copy_'s kernels has them. unfold_backward and
// sum.dim_IntList have CPU and Meta kernels.
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include "dispatch/dispatcher.hpp"

namespace opd::kernels {

namespace ops {

struct slice_scatter : op<"aten::slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor"> {};
struct select_scatter : op<"aten::select_scatter(Tensor self, Tensor src, int dim, int index) -> Tensor"> {};
struct diagonal_scatter : op<"aten::diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor"> {};
struct as_strided_scatter : op<"aten::as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor"> {};
struct unfold_backward : op<"aten::unfold_backward(Tensor grad_in, int[] input_sizes, int dim, int size, int step) -> Tensor"> {};
struct sum_dim : op<"aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"> {};

}  // namespace ops

// Registers the operators above (the scatters at CompositeExplicitAutograd,
// unfold_backward and sum.dim_IntList for CPU and Meta). register_cpu() calls
// it. Compiled once, in libopdispatch (src/kernels/scatter.cpp).
OPD_API RegistrationSet register_scatter();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_scatter-inl.hpp"
#endif
