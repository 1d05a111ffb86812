#pragma once
// Out-of-line part of ops_reductions.hpp (compiled in
// src/kernels/register_reductions.cpp): the kernels' adapters to the schemas
// and register_reductions().
#include <array>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>

#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/normalization.hpp"
#include "kernels/cpu/reduce.hpp"
#include "kernels/ops_reductions.hpp"
#include "structured/derive.hpp"
#include "structured/out_semantics.hpp"

namespace opd::kernels {

namespace reductions_detail {

using ints = std::span<const int64_t>;
using opt_ints = std::optional<std::span<const int64_t>>;

inline Tensor var_full(const Tensor& s, bool unbiased) { return kernels::var(s, std::nullopt, unbiased ? 1 : 0, false); }
inline Tensor var_dim(const Tensor& s, opt_ints d, bool unbiased, bool keepdim) {
  return kernels::var(s, d, unbiased ? 1 : 0, keepdim);
}
inline Tensor std_full(const Tensor& s, bool unbiased) { return kernels::std_dev(s, std::nullopt, unbiased ? 1 : 0, false); }
inline Tensor std_dim(const Tensor& s, opt_ints d, bool unbiased, bool keepdim) {
  return kernels::std_dev(s, d, unbiased ? 1 : 0, keepdim);
}
inline Tensor norm_scalar(const Tensor& s, const Scalar& p) { return kernels::norm(s, p, {}, false, std::nullopt); }
inline Tensor norm_scalaropt_dtype(const Tensor& s, const std::optional<Scalar>& p, ScalarType dtype) {
  return kernels::norm(s, p, {}, false, dtype);
}
inline Tensor norm_dim(const Tensor& s, const std::optional<Scalar>& p, ints d, bool keepdim) {
  return kernels::norm(s, p, d, keepdim, std::nullopt);
}
inline Tensor norm_dim_dtype(const Tensor& s, const std::optional<Scalar>& p, ints d, bool keepdim, ScalarType dtype) {
  return kernels::norm(s, p, d, keepdim, dtype);
}
inline Tensor count_nonzero_opt(const Tensor& s, std::optional<int64_t> dim) {
  if (!dim) return kernels::count_nonzero(s, {});
  const int64_t d = *dim;
  return kernels::count_nonzero(s, ints(&d, 1));
}

// The out= rules after the result is computed: out on the result's device,
// resized (with the resize warning when it had elements), written.
inline Tensor& write_out(std::string_view op, const Tensor& result, Tensor& out) {
  structured_detail::check_out_device(op, result.device(), out);
  structured_detail::resize_out(op, out, result.sizes(), MemoryFormat::Contiguous);
  if (!out.is_meta()) kernels::copy_(out, result);
  return out;
}

// sum.IntList_out, mean.out, prod.int_out are structured in ATen: without
// `dtype` the reduction runs in out's dtype; with one, out must have it.
inline ScalarType out_dtype(std::string_view op, std::optional<ScalarType> dtype, const Tensor& out) {
  OPD_CHECK(!dtype || *dtype == out.dtype(), op, ": Expected out tensor to have dtype ", *dtype, ", but got ",
            out.dtype(), " instead");
  return out.dtype();
}
inline Tensor& sum_out(const Tensor& self, opt_ints dim, bool keepdim, std::optional<ScalarType> dtype, Tensor& out) {
  constexpr std::string_view op = "sum.IntList_out";
  return write_out(op, kernels::sum_dim(self, dim, keepdim, out_dtype(op, dtype, out)), out);
}
inline Tensor& mean_out(const Tensor& self, opt_ints dim, bool keepdim, std::optional<ScalarType> dtype, Tensor& out) {
  constexpr std::string_view op = "mean.out";
  // The input's dtype is checked as the functional variant does, before out's.
  if (!dtype && self.defined() && !is_floating_type(self.dtype())) (void)kernels::mean_dim(self, dim, keepdim, dtype);
  return write_out(op, kernels::mean_dim(self, dim, keepdim, out_dtype(op, dtype, out)), out);
}
inline Tensor& prod_out(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype, Tensor& out) {
  constexpr std::string_view op = "prod.int_out";
  return write_out(op, kernels::prod_dim(self, dim, keepdim, out_dtype(op, dtype, out)), out);
}
// amax.out / amin.out: out must have self's dtype.
template <bool kMax>
Tensor& amax_out(const Tensor& self, ints dim, bool keepdim, Tensor& out) {
  const std::string_view op = kMax ? "amax.out" : "amin.out";
  Tensor result = kMax ? kernels::amax(self, dim, keepdim) : kernels::amin(self, dim, keepdim);
  OPD_CHECK(self.dtype() == out.dtype(), op, ": Expected the dtype for input and out to match, but got ",
            self.dtype(), " for input's dtype and ", out.dtype(), " for out's dtype.");
  return write_out(op, result, out);
}

// max.dim_max / min.dim_min: the out= rules of a derived out= kernel, for two outs.
template <bool kMax>
std::tuple<Tensor&, Tensor&> extreme_dim_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& values,
                                             Tensor& indices) {
  const std::string_view op = kMax ? "max.dim_max" : "min.dim_min";
  auto [v, i] = kMax ? kernels::max_dim(self, dim, keepdim) : kernels::min_dim(self, dim, keepdim);
  OPD_CHECK(values.dtype() == self.dtype(), op, ": Expected out tensor to have dtype ", self.dtype(), ", but got ",
            values.dtype(), " instead");
  OPD_CHECK(indices.dtype() == ScalarType::Long, op, ": Expected out tensor to have dtype Long, but got ",
            indices.dtype(), " instead");
  structured_detail::check_out_device(op, self.device(), values);
  structured_detail::check_out_device(op, self.device(), indices);
  write_out(op, v, values);
  write_out(op, i, indices);
  return {values, indices};
}

// all / any out=: a Bool or Byte out (ATen's "all only supports bool tensor
// for result"), whatever the input's dtype.
template <bool kAll>
void check_logical_out(const Tensor& out) {
  OPD_CHECK(out.dtype() == ScalarType::Bool || out.dtype() == ScalarType::Byte, kAll ? "all" : "any",
            " only supports bool tensor for result, got: ", out.dtype());
}
template <bool kAll>
Tensor& all_any_out(const Tensor& self, Tensor& out) {
  Tensor result = kAll ? kernels::all(self) : kernels::any(self);
  check_logical_out<kAll>(out);
  return write_out(kAll ? "all.all_out" : "any.all_out", result, out);
}
template <bool kAll>
Tensor& all_any_dim_out(const Tensor& self, int64_t dim, bool keepdim, Tensor& out) {
  Tensor result = kAll ? kernels::all_dim(self, dim, keepdim) : kernels::any_dim(self, dim, keepdim);
  check_logical_out<kAll>(out);
  return write_out(kAll ? "all.out" : "any.out", result, out);
}
// logsumexp.out: rounded once into out's dtype (ATen sums into out).
inline Tensor& logsumexp_out(const Tensor& self, ints dim, bool keepdim, Tensor& out) {
  OPD_CHECK(is_floating_type(out.dtype()), "logsumexp.out: result type ", out.dtype(),
            " can't be cast to the desired output type");
  return write_out("logsumexp.out", reduce_detail::logsumexp_as(self, dim, keepdim, out.dtype()), out);
}

template <class F, class O, auto Fn>
void functional_and_out(RegistrationSet& set, DispatchKey key) {
  set.add(register_kernel<F, Fn>(key));
  set.add(derive_missing_variants<F, void, O>(key));
}

inline std::tuple<Tensor, Tensor, Tensor> layer_norm_backward(const Tensor& grad_out, const Tensor& input,
                                                              std::span<const int64_t> normalized_shape,
                                                              const Tensor& mean, const Tensor& rstd,
                                                              const std::optional<Tensor>& weight,
                                                              const std::optional<Tensor>& bias,
                                                              std::array<bool, 3> output_mask) {
  return kernels::native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias,
                                             output_mask);
}
inline std::tuple<Tensor, Tensor, Tensor> group_norm_backward(const Tensor& grad_out, const Tensor& input,
                                                              const Tensor& mean, const Tensor& rstd,
                                                              const std::optional<Tensor>& weight, int64_t N,
                                                              int64_t C, int64_t HxW, int64_t group,
                                                              std::array<bool, 3> output_mask) {
  return kernels::native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask);
}

}  // namespace reductions_detail

OPD_FUNC RegistrationSet register_reductions() {
  namespace d = reductions_detail;
  RegistrationSet set;
  // The kernels are the Meta kernels too: on Meta tensors they check, size
  // the output and return before reading a value (reduce-inl.hpp).
  for (const DispatchKey cpu : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::sum, &kernels::sum>(cpu));
    set.add(register_kernel<ops::sum_dim, &kernels::sum_dim>(cpu));
    set.add(register_kernel<ops::sum_out, &d::sum_out>(cpu));
    set.add(register_kernel<ops::mean, &kernels::mean>(cpu));
    set.add(register_kernel<ops::mean_dim, &kernels::mean_dim>(cpu));
    set.add(register_kernel<ops::mean_out, &d::mean_out>(cpu));
    set.add(register_kernel<ops::prod, &kernels::prod>(cpu));
    set.add(register_kernel<ops::prod_dim, &kernels::prod_dim>(cpu));
    set.add(register_kernel<ops::prod_out, &d::prod_out>(cpu));

    set.add(register_kernel<ops::amax, &kernels::amax>(cpu));
    set.add(register_kernel<ops::amax_out, &d::amax_out<true>>(cpu));
    set.add(register_kernel<ops::amin, &kernels::amin>(cpu));
    set.add(register_kernel<ops::amin_out, &d::amax_out<false>>(cpu));
    set.add(register_kernel<ops::max_dim, &kernels::max_dim>(cpu));
    set.add(register_kernel<ops::max_dim_max, &d::extreme_dim_out<true>>(cpu));
    set.add(register_kernel<ops::min_dim, &kernels::min_dim>(cpu));
    set.add(register_kernel<ops::min_dim_min, &d::extreme_dim_out<false>>(cpu));
    set.add(register_kernel<ops::max, &kernels::max>(cpu));
    set.add(register_kernel<ops::min, &kernels::min>(cpu));
    d::functional_and_out<ops::argmax, ops::argmax_out, &kernels::argmax>(set, cpu);
    d::functional_and_out<ops::argmin, ops::argmin_out, &kernels::argmin>(set, cpu);

    set.add(register_kernel<ops::var, &d::var_full>(cpu));
    d::functional_and_out<ops::var_dim, ops::var_out, &d::var_dim>(set, cpu);
    d::functional_and_out<ops::var_correction, ops::var_correction_out, &kernels::var>(set, cpu);
    set.add(register_kernel<ops::std_dev, &d::std_full>(cpu));
    d::functional_and_out<ops::std_dev_dim, ops::std_dev_out, &d::std_dim>(set, cpu);
    d::functional_and_out<ops::std_dev_correction, ops::std_dev_correction_out, &kernels::std_dev>(set, cpu);

    set.add(register_kernel<ops::norm_scalar, &d::norm_scalar>(cpu));
    set.add(register_kernel<ops::norm_scalaropt_dtype, &d::norm_scalaropt_dtype>(cpu));
    d::functional_and_out<ops::norm_scalaropt_dim, ops::norm_out, &d::norm_dim>(set, cpu);
    d::functional_and_out<ops::norm_scalaropt_dim_dtype, ops::norm_dtype_out, &d::norm_dim_dtype>(set, cpu);
    set.add(register_kernel<ops::logsumexp, &kernels::logsumexp>(cpu));
    set.add(register_kernel<ops::logsumexp_out, &d::logsumexp_out>(cpu));

    set.add(register_kernel<ops::all, &kernels::all>(cpu));
    set.add(register_kernel<ops::all_all_out, &d::all_any_out<true>>(cpu));
    set.add(register_kernel<ops::all_dim, &kernels::all_dim>(cpu));
    set.add(register_kernel<ops::all_out, &d::all_any_dim_out<true>>(cpu));
    set.add(register_kernel<ops::any, &kernels::any>(cpu));
    set.add(register_kernel<ops::any_all_out, &d::all_any_out<false>>(cpu));
    set.add(register_kernel<ops::any_dim, &kernels::any_dim>(cpu));
    set.add(register_kernel<ops::any_out, &d::all_any_dim_out<false>>(cpu));
    set.add(register_kernel<ops::count_nonzero_dims, &kernels::count_nonzero>(cpu));
    set.add(register_kernel<ops::count_nonzero, &d::count_nonzero_opt>(cpu));

    d::functional_and_out<ops::cumsum, ops::cumsum_out, &kernels::cumsum>(set, cpu);
    d::functional_and_out<ops::cumprod, ops::cumprod_out, &kernels::cumprod>(set, cpu);

    d::functional_and_out<ops::softmax, ops::softmax_out, &kernels::softmax_int>(set, cpu);
    d::functional_and_out<ops::log_softmax, ops::log_softmax_out, &kernels::log_softmax_int>(set, cpu);
    d::functional_and_out<ops::internal_softmax, ops::internal_softmax_out, &kernels::softmax>(set, cpu);
    d::functional_and_out<ops::internal_log_softmax, ops::internal_log_softmax_out, &kernels::log_softmax>(set, cpu);
    set.add(register_kernel<ops::native_layer_norm, &kernels::native_layer_norm>(cpu));
    set.add(register_kernel<ops::layer_norm, &kernels::layer_norm>(cpu));
    set.add(register_kernel<ops::native_layer_norm_backward, &d::layer_norm_backward>(cpu));
    set.add(register_kernel<ops::native_group_norm, &kernels::native_group_norm>(cpu));
    set.add(register_kernel<ops::native_group_norm_backward, &d::group_norm_backward>(cpu));
  }
  return set;
}

}  // namespace opd::kernels
