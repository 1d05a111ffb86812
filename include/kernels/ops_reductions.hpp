#pragma once
// The reductions, softmax / log_softmax, layer_norm and group_norm (and their
// backward) as operators, with
// ATen 1.13's schemas verbatim (tests/data/native_functions_1.13.jsonl):
// the functional overloads have CPU kernels (kernels/cpu/reduce.hpp,
// normalization.hpp); the out= overloads are derived from them
// (derive_missing_variants: compute, check out's dtype can hold the result,
// resize out -- with the resize warning -- and copy). Some have their own
// out= kernel, for ATen's stricter rules: sum.IntList_out, mean.out and
// prod.int_out compute in out's dtype (and refuse an out other than `dtype`),
// amax.out / amin.out want out of self's dtype, max.dim_max / min.dim_min
// (two outs) want self's dtype and Long. None of these
// ATen ops is in-place, and none has a Meta kernel here. Struct names follow
// the schema's name, except `std` (std_dev: `std` would hide namespace std)
// and `_softmax` / `_log_softmax` (internal_softmax, internal_log_softmax).
//
//   auto kernels = opd::kernels::register_cpu();   // calls register_reductions()
//   opd::Tensor s = opd::call<opd::kernels::ops::sum_dim>(x, dims, false, std::nullopt);
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include "dispatch/dispatcher.hpp"

namespace opd::kernels {

namespace ops {

struct sum : op<"aten::sum(Tensor self, *, ScalarType? dtype=None) -> Tensor"> {};
struct sum_dim : op<"aten::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"> {};
struct sum_out : op<"aten::sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)"> {};
struct mean : op<"aten::mean(Tensor self, *, ScalarType? dtype=None) -> Tensor"> {};
struct mean_dim : op<"aten::mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"> {};
struct mean_out : op<"aten::mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)"> {};
struct prod : op<"aten::prod(Tensor self, *, ScalarType? dtype=None) -> Tensor"> {};
struct prod_dim : op<"aten::prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"> {};
struct prod_out : op<"aten::prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)"> {};

struct amax : op<"aten::amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor"> {};
struct amax_out : op<"aten::amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct amin : op<"aten::amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor"> {};
struct amin_out : op<"aten::amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct max_dim : op<"aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"> {};
struct max_dim_max : op<"aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)"> {};
struct min_dim : op<"aten::min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"> {};
struct min_dim_min : op<"aten::min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) min_indices) -> (Tensor(a!) values, Tensor(b!) indices)"> {};
struct max : op<"aten::max(Tensor self) -> Tensor"> {};
struct min : op<"aten::min(Tensor self) -> Tensor"> {};
struct argmax : op<"aten::argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor"> {};
struct argmax_out : op<"aten::argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct argmin : op<"aten::argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor"> {};
struct argmin_out : op<"aten::argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"> {};

struct var : op<"aten::var(Tensor self, bool unbiased=True) -> Tensor"> {};
struct var_dim : op<"aten::var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor"> {};
struct var_out : op<"aten::var.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct var_correction : op<"aten::var.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor"> {};
struct var_correction_out : op<"aten::var.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out) -> Tensor(a!)"> {};
struct std_dev : op<"aten::std(Tensor self, bool unbiased=True) -> Tensor"> {};
struct std_dev_dim : op<"aten::std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor"> {};
struct std_dev_out : op<"aten::std.out(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct std_dev_correction : op<"aten::std.correction(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False) -> Tensor"> {};
struct std_dev_correction_out : op<"aten::std.correction_out(Tensor self, int[1]? dim, *, int? correction, bool keepdim=False, Tensor(a!) out) -> Tensor(a!)"> {};

struct norm_scalar : op<"aten::norm.Scalar(Tensor self, Scalar p=2) -> Tensor"> {};
struct norm_scalaropt_dtype : op<"aten::norm.ScalarOpt_dtype(Tensor self, Scalar? p, *, ScalarType dtype) -> Tensor"> {};
struct norm_scalaropt_dim : op<"aten::norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor"> {};
struct norm_out : op<"aten::norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct norm_scalaropt_dim_dtype : op<"aten::norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype) -> Tensor"> {};
struct norm_dtype_out : op<"aten::norm.dtype_out(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, ScalarType dtype, Tensor(a!) out) -> Tensor(a!)"> {};
struct logsumexp : op<"aten::logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor"> {};
struct logsumexp_out : op<"aten::logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"> {};

struct all : op<"aten::all(Tensor self) -> Tensor"> {};
struct all_all_out : op<"aten::all.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct all_dim : op<"aten::all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor"> {};
struct all_out : op<"aten::all.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct any : op<"aten::any(Tensor self) -> Tensor"> {};
struct any_all_out : op<"aten::any.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct any_dim : op<"aten::any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor"> {};
struct any_out : op<"aten::any.out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct count_nonzero_dims : op<"aten::count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor"> {};
struct count_nonzero : op<"aten::count_nonzero(Tensor self, int? dim=None) -> Tensor"> {};

struct cumsum : op<"aten::cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor"> {};
struct cumsum_out : op<"aten::cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)"> {};
struct cumprod : op<"aten::cumprod(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor"> {};
struct cumprod_out : op<"aten::cumprod.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)"> {};

struct softmax : op<"aten::softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor"> {};
struct softmax_out : op<"aten::softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct log_softmax : op<"aten::log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor"> {};
struct log_softmax_out : op<"aten::log_softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct internal_softmax : op<"aten::_softmax(Tensor self, int dim, bool half_to_float) -> Tensor"> {};
struct internal_softmax_out : op<"aten::_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct internal_log_softmax : op<"aten::_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor"> {};
struct internal_log_softmax_out : op<"aten::_log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct native_layer_norm : op<"aten::native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)"> {};
struct layer_norm : op<"aten::layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor"> {};
struct native_layer_norm_backward : op<"aten::native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)"> {};
struct native_group_norm : op<"aten::native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)"> {};
struct native_group_norm_backward : op<"aten::native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? weight, SymInt N, SymInt C, SymInt HxW, int group, bool[3] output_mask) -> (Tensor, Tensor, Tensor)"> {};

}  // namespace ops

// Registers every operator above for CPU. register_cpu() calls it. Compiled
// once, in libopdispatch (src/kernels/register_reductions.cpp).
OPD_API RegistrationSet register_reductions();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_reductions-inl.hpp"
#endif
