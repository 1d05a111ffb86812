#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise_unary_activation.cpp): the registration of silu, hardswish, hardsigmoid, frac, gelu, nan_to_num, elu, leaky_relu, relu, softplus and hardtanh;
// register_pointwise() gathers the groups. (Split from
// ops_pointwise_unary_other-inl.hpp: one source took 8-10 s to compile.)
#include <utility>

#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/unary_simd.hpp"
#include "kernels/ops_pointwise_kernels-inl.hpp"

namespace opd::kernels::detail {

// ATen's hardtanh_out: the bounds as integers for integral inputs (no
// promotion), then clamp.
inline std::pair<Scalar, Scalar> hardtanh_bounds(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  OPD_CHECK(self.dtype() != ScalarType::Bool, "Bool inputs not supported for hardtanh");
  if (!is_integral_type(self.dtype(), /*include_bool=*/false)) return {min_val, max_val};
  const int64_t lo = min_val.to<int64_t>(), hi = max_val.to<int64_t>();
  OPD_CHECK(self.dtype() != ScalarType::Byte || (lo >= 0 && hi >= 0),
            "cannot do hardtanh on an unsigned type with negative limits");
  return {Scalar(lo), Scalar(hi)};
}
// A contiguous Float or Double CPU tensor skips clamp's general engine
// (promotion, broadcasting, strides): ATen's clamp_scalar loop, NaN kept,
// then max with the lower bound and min with the upper one (so min_val >
// max_val gives max_val, as clamp). mobilenet_v2's ReLU6 takes this path.
inline bool hardtanh_direct(const Tensor& self) {
  return self.device().is_cpu() && self.is_contiguous() &&
         (self.dtype() == ScalarType::Float || self.dtype() == ScalarType::Double);
}
template <class T>
void hardtanh_loop(const T* in, T* out, int64_t n, const Scalar& min_val, const Scalar& max_val) {
  const T lo = min_val.to<T>(), hi = max_val.to<T>();
  parallel_for(0, n, grain_size, [&](int64_t b, int64_t e) {
    // Highway's widest vectors (unary_simd.hpp), else the scalar loop: NaN
    // falls through both comparisons.
    if (simd::clamp_row(in + b, out + b, e - b, lo, hi)) return;
    for (int64_t i = b; i < e; ++i) {
      const T x = in[i];
      const T y = x < lo ? lo : x;
      out[i] = hi < y ? hi : y;
    }
  });
}
inline void hardtanh_direct_into(const Tensor& self, const Tensor& out, const Scalar& lo, const Scalar& hi) {
  if (self.dtype() == ScalarType::Float) {
    hardtanh_loop<float>(self.data_ptr<float>(), out.data_ptr<float>(), self.numel(), lo, hi);
  } else {
    hardtanh_loop<double>(self.data_ptr<double>(), out.data_ptr<double>(), self.numel(), lo, hi);
  }
}
inline Tensor hardtanh_kernel(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  const auto [lo, hi] = hardtanh_bounds(self, min_val, max_val);
  if (hardtanh_direct(self)) {
    Tensor out = opd::empty(self.sizes(), self.dtype(), Device::cpu());
    hardtanh_direct_into(self, out, lo, hi);
    return out;
  }
  return call<ops::clamp::functional>(self, std::optional<Scalar>(lo), std::optional<Scalar>(hi));
}
inline Tensor& hardtanh_inplace_kernel(Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  const auto [lo, hi] = hardtanh_bounds(self, min_val, max_val);
  if (hardtanh_direct(self)) {
    hardtanh_direct_into(self, self, lo, hi);
    return self;
  }
  return call<ops::clamp::inplace>(self, std::optional<Scalar>(lo), std::optional<Scalar>(hi));
}
inline Tensor& hardtanh_out_kernel(const Tensor& self, const Scalar& min_val, const Scalar& max_val, Tensor& out) {
  const auto [lo, hi] = hardtanh_bounds(self, min_val, max_val);
  return call<ops::clamp::out>(self, std::optional<Scalar>(lo), std::optional<Scalar>(hi), out);
}

OPD_FUNC RegistrationSet register_pointwise_unary_activation() {
  RegistrationSet set;
  set.add(register_structured<ops::silu>());
  set.add(register_structured<ops::hardswish>());
  set.add(register_structured<ops::hardsigmoid>());
  set.add(register_structured<ops::frac>());
  set.add(register_structured<ops::gelu>());
  set.add(register_structured<ops::nan_to_num>());
  set.add(register_structured<ops::elu>());
  set.add(register_structured<ops::leaky_relu>());
  constexpr DispatchKey cpu = DispatchKey::CPU;
  set.add(register_kernel<ops::relu, &detail::relu_kernel>(cpu));
  set.add(register_kernel<ops::relu_, &detail::relu_inplace_kernel>(cpu));
  set.add(register_kernel<ops::softplus, &detail::softplus_kernel>(cpu));
  set.add(derive_missing_variants<ops::softplus, void, ops::softplus_out>(cpu, detail::softplus_spec{}));
  // hardtanh: over clamp's variants, which every backend with clamp serves.
  constexpr DispatchKey explicit_ = DispatchKey::CompositeExplicitAutograd;
  set.add(register_kernel<ops::hardtanh, &detail::hardtanh_kernel>(explicit_));
  set.add(register_kernel<ops::hardtanh_, &detail::hardtanh_inplace_kernel>(explicit_));
  set.add(register_kernel<ops::hardtanh_out, &detail::hardtanh_out_kernel>(explicit_));
  // Meta: the same meta functions; out= derived at Meta too.
  constexpr DispatchKey meta = DispatchKey::Meta;
  set.add(register_kernel<ops::relu, &detail::unary_meta_kernel<UnaryOp::Relu>>(meta));
  set.add(register_kernel<ops::relu_, &detail::relu_inplace_meta>(meta));
  set.add(register_kernel<ops::softplus, &detail::softplus_meta_kernel>(meta));
  set.add(derive_missing_variants<ops::softplus, void, ops::softplus_out>(meta, detail::softplus_spec{}));
  return set;
}

}  // namespace opd::kernels::detail
