#pragma once
// Out-of-line part of ops_reductions.hpp (compiled in
// src/kernels/register_reductions.cpp): the kernels' adapters to the schemas
// and register_reductions().
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
  structured_detail::resize_out(op, values, v.sizes(), MemoryFormat::Contiguous);
  structured_detail::resize_out(op, indices, i.sizes(), MemoryFormat::Contiguous);
  kernels::copy_(values, v);
  kernels::copy_(indices, i);
  return {values, indices};
}

template <class F, class O, auto Fn>
void functional_and_out(RegistrationSet& set) {
  set.add(register_kernel<F, Fn>(DispatchKey::CPU));
  set.add(derive_missing_variants<F, void, O>(DispatchKey::CPU));
}

}  // namespace reductions_detail

OPD_FUNC RegistrationSet register_reductions() {
  namespace d = reductions_detail;
  constexpr DispatchKey cpu = DispatchKey::CPU;
  RegistrationSet set;
  set.add(register_kernel<ops::sum, &kernels::sum>(cpu));
  d::functional_and_out<ops::sum_dim, ops::sum_out, &kernels::sum_dim>(set);
  set.add(register_kernel<ops::mean, &kernels::mean>(cpu));
  d::functional_and_out<ops::mean_dim, ops::mean_out, &kernels::mean_dim>(set);
  set.add(register_kernel<ops::prod, &kernels::prod>(cpu));
  d::functional_and_out<ops::prod_dim, ops::prod_out, &kernels::prod_dim>(set);

  d::functional_and_out<ops::amax, ops::amax_out, &kernels::amax>(set);
  d::functional_and_out<ops::amin, ops::amin_out, &kernels::amin>(set);
  set.add(register_kernel<ops::max_dim, &kernels::max_dim>(cpu));
  set.add(register_kernel<ops::max_dim_max, &d::extreme_dim_out<true>>(cpu));
  set.add(register_kernel<ops::min_dim, &kernels::min_dim>(cpu));
  set.add(register_kernel<ops::min_dim_min, &d::extreme_dim_out<false>>(cpu));
  set.add(register_kernel<ops::max, &kernels::max>(cpu));
  set.add(register_kernel<ops::min, &kernels::min>(cpu));
  d::functional_and_out<ops::argmax, ops::argmax_out, &kernels::argmax>(set);
  d::functional_and_out<ops::argmin, ops::argmin_out, &kernels::argmin>(set);

  set.add(register_kernel<ops::var, &d::var_full>(cpu));
  d::functional_and_out<ops::var_dim, ops::var_out, &d::var_dim>(set);
  d::functional_and_out<ops::var_correction, ops::var_correction_out, &kernels::var>(set);
  set.add(register_kernel<ops::std_dev, &d::std_full>(cpu));
  d::functional_and_out<ops::std_dev_dim, ops::std_dev_out, &d::std_dim>(set);
  d::functional_and_out<ops::std_dev_correction, ops::std_dev_correction_out, &kernels::std_dev>(set);

  set.add(register_kernel<ops::norm_scalar, &d::norm_scalar>(cpu));
  set.add(register_kernel<ops::norm_scalaropt_dtype, &d::norm_scalaropt_dtype>(cpu));
  d::functional_and_out<ops::norm_scalaropt_dim, ops::norm_out, &d::norm_dim>(set);
  d::functional_and_out<ops::norm_scalaropt_dim_dtype, ops::norm_dtype_out, &d::norm_dim_dtype>(set);
  d::functional_and_out<ops::logsumexp, ops::logsumexp_out, &kernels::logsumexp>(set);

  d::functional_and_out<ops::all, ops::all_all_out, &kernels::all>(set);
  d::functional_and_out<ops::all_dim, ops::all_out, &kernels::all_dim>(set);
  d::functional_and_out<ops::any, ops::any_all_out, &kernels::any>(set);
  d::functional_and_out<ops::any_dim, ops::any_out, &kernels::any_dim>(set);
  set.add(register_kernel<ops::count_nonzero_dims, &kernels::count_nonzero>(cpu));
  set.add(register_kernel<ops::count_nonzero, &d::count_nonzero_opt>(cpu));

  d::functional_and_out<ops::cumsum, ops::cumsum_out, &kernels::cumsum>(set);
  d::functional_and_out<ops::cumprod, ops::cumprod_out, &kernels::cumprod>(set);

  d::functional_and_out<ops::softmax, ops::softmax_out, &kernels::softmax_int>(set);
  d::functional_and_out<ops::log_softmax, ops::log_softmax_out, &kernels::log_softmax_int>(set);
  d::functional_and_out<ops::internal_softmax, ops::internal_softmax_out, &kernels::softmax>(set);
  d::functional_and_out<ops::internal_log_softmax, ops::internal_log_softmax_out, &kernels::log_softmax>(set);
  set.add(register_kernel<ops::native_layer_norm, &kernels::native_layer_norm>(cpu));
  set.add(register_kernel<ops::layer_norm, &kernels::layer_norm>(cpu));
  return set;
}

}  // namespace opd::kernels
