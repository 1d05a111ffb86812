#pragma once
// ATen's shape, indexing and range-factory operators, declared with ATen
// 1.13's schemas verbatim and backed by kernels/cpu/shape.hpp (CPU):
// cat, stack, index_select, gather, scatter (src / value, with and without
// reduce), scatter_add, flip, roll, repeat, tril, triu, where(condition), nonzero,
// masked_select, masked_scatter, index.Tensor, index_put_ / index_put, sort, argsort, topk,
// arange, full, linspace, eye.
//
//   auto kernels = opd::kernels::register_cpu();   // calls register_shape()
//   opd::Tensor c = opd::call<opd::kernels::ops::cat>(std::vector<opd::Tensor>{a, b}, 0);
//
// The functional kernels are written. cat.out and stack.out are derived by
// derive_missing_variants (structured/derive.hpp): compute, check the dtype
// can be cast to out's, resize out (warning when it had elements), copy.
// The other out= overloads require out's dtype to be the result's, as ATen's
// structured kernels do; scatter_ refuses a self with internal overlap;
// tril_/triu_ zero self in place. The factories' out= overloads, whose
// arguments differ from the functional ones, and sort's / topk's
// two-output overloads are written.
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include "dispatch/dispatcher.hpp"

namespace opd::kernels {

namespace ops {

struct cat : op<"aten::cat(Tensor[] tensors, int dim=0) -> Tensor"> {};
struct cat_out : op<"aten::cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct stack : op<"aten::stack(Tensor[] tensors, int dim=0) -> Tensor"> {};
struct stack_out : op<"aten::stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct index_select : op<"aten::index_select(Tensor self, int dim, Tensor index) -> Tensor"> {};
struct index_select_out : op<"aten::index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct gather : op<"aten::gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor"> {};
struct gather_out : op<"aten::gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) -> Tensor(a!)"> {};

struct scatter_src : op<"aten::scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor"> {};
struct scatter__src : op<"aten::scatter_.src(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)"> {};
struct scatter_src_out : op<"aten::scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct scatter_value : op<"aten::scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor"> {};
struct scatter__value : op<"aten::scatter_.value(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)"> {};
struct scatter_value_out : op<"aten::scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct scatter_reduce : op<"aten::scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor"> {};
struct scatter__reduce : op<"aten::scatter_.reduce(Tensor(a!) self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor(a!)"> {};
struct scatter_reduce_out : op<"aten::scatter.reduce_out(Tensor self, int dim, Tensor index, Tensor src, *, str reduce, Tensor(a!) out) -> Tensor(a!)"> {};
struct scatter_value_reduce : op<"aten::scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor"> {};
struct scatter__value_reduce : op<"aten::scatter_.value_reduce(Tensor(a!) self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor(a!)"> {};
struct scatter_value_reduce_out : op<"aten::scatter.value_reduce_out(Tensor self, int dim, Tensor index, Scalar value, *, str reduce, Tensor(a!) out) -> Tensor(a!)"> {};
// scatter_add: scatter's reduce="add" under its own name (ATen's kernel is the same loop).
struct scatter_add : op<"aten::scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor"> {};
struct scatter_add_ : op<"aten::scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)"> {};
struct scatter_add_out : op<"aten::scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)"> {};

struct flip : op<"aten::flip(Tensor self, int[] dims) -> Tensor"> {};
struct roll : op<"aten::roll(Tensor self, int[1] shifts, int[1] dims=[]) -> Tensor"> {};
struct repeat : op<"aten::repeat(Tensor self, SymInt[] repeats) -> Tensor"> {};
struct tril : op<"aten::tril(Tensor self, int diagonal=0) -> Tensor"> {};
struct tril_ : op<"aten::tril_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)"> {};
struct tril_out : op<"aten::tril.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct triu : op<"aten::triu(Tensor self, int diagonal=0) -> Tensor"> {};
struct triu_ : op<"aten::triu_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)"> {};
struct triu_out : op<"aten::triu.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)"> {};

struct where_condition : op<"aten::where(Tensor condition) -> Tensor[]"> {};
struct nonzero : op<"aten::nonzero(Tensor self) -> Tensor"> {};
struct nonzero_out : op<"aten::nonzero.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct masked_select : op<"aten::masked_select(Tensor self, Tensor mask) -> Tensor"> {};
struct masked_select_out : op<"aten::masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out) -> Tensor(a!)"> {};
// masked_scatter: self (broadcast with mask) with the elements where mask is
// true taken from source in order; masked_scatter_ in place (mask broadcast to self).
struct masked_scatter : op<"aten::masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor"> {};
struct masked_scatter_ : op<"aten::masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)"> {};

struct index : op<"aten::index.Tensor(Tensor self, Tensor?[] indices) -> Tensor"> {};
struct index_out : op<"aten::index.Tensor_out(Tensor self, Tensor?[] indices, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct index_put_ : op<"aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor(a!)"> {};
struct index_put : op<"aten::index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor"> {};

struct sort : op<"aten::sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)"> {};
struct sort_stable : op<"aten::sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)"> {};
struct sort_values : op<"aten::sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)"> {};
struct sort_values_stable : op<"aten::sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)"> {};
struct argsort : op<"aten::argsort(Tensor self, int dim=-1, bool descending=False) -> Tensor"> {};
struct argsort_stable : op<"aten::argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor"> {};
struct topk : op<"aten::topk(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)"> {};
struct topk_values : op<"aten::topk.values(Tensor self, int k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)"> {};

struct arange : op<"aten::arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct arange_start : op<"aten::arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct arange_start_step : op<"aten::arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct arange_out : op<"aten::arange.out(Scalar end, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct arange_start_out : op<"aten::arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct full : op<"aten::full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct full_out : op<"aten::full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct linspace : op<"aten::linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct linspace_out : op<"aten::linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct eye : op<"aten::eye(int n, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct eye_m : op<"aten::eye.m(int n, int m, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct eye_out : op<"aten::eye.out(int n, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct eye_m_out : op<"aten::eye.m_out(int n, int m, *, Tensor(a!) out) -> Tensor(a!)"> {};

}  // namespace ops

// Registers every operator above for CPU. register_cpu() calls it. Compiled
// once, in libopdispatch (src/kernels/register_shape.cpp).
OPD_API RegistrationSet register_shape();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_shape-inl.hpp"
#endif
