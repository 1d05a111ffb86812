#pragma once
// Out-of-line part of normalization.hpp (compiled in src/kernels/normalization.cpp).
// Both ops work on contiguous rows (the reduced dims last, as reduce-inl.hpp's
// Plan lays them out): a contiguous Float input with the dim last is read in
// place; anything else is copied into a row block in float or double first.
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/normalization.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/reduce_engine-inl.hpp"
#include "kernels/cpu/reduce_simd.hpp"
#include "kernels/views/geometry.hpp"

namespace opd::kernels {

namespace norm_detail {

// `round` (BFloat16 log_softmax): ATen 1.13 rounds x - max and log(sum) to
// BFloat16 before subtracting them; so does this.
template <class A>
void softmax_row_scalar(A* x, int64_t n, bool log, bool round = false) {
  A m = x[0];
  for (int64_t i = 1; i < n; ++i)
    if (std::isnan(x[i]) || x[i] > m) m = x[i];
  const auto r = [round](A v) { return round ? static_cast<A>(static_cast<BFloat16>(v)) : v; };
  if (log) {
    const A s = reduce_detail::pairwise_sum<A>(0, n, [&](int64_t i) { return std::exp(x[i] - m); });
    const A log_s = r(std::log(s));
    for (int64_t i = 0; i < n; ++i) x[i] = r(x[i] - m) - log_s;  // ATen's order
    return;
  }
  for (int64_t i = 0; i < n; ++i) x[i] = std::exp(x[i] - m);
  const A inv = A(1) / reduce_detail::pairwise_sum<A>(0, n, [&](int64_t i) { return x[i]; });
  for (int64_t i = 0; i < n; ++i) x[i] *= inv;
}

inline Tensor softmax_impl(const char* op, const Tensor& self, int64_t dim, bool half_to_float, bool log) {
  reduce_detail::check_input(op, self);
  OPD_CHECK(!half_to_float, op, ": softmax with half to float conversion is not supported on CPU");
  const int64_t d = views::wrap_dim(op, dim, self.dim());
  const bool last = self.dim() == 0 || d == self.dim() - 1;
  if (self.numel() == 0) return kernels::empty(self.sizes(), self.dtype(), self.device());  // before the dtype check, as ATen
  // ATen 1.13's names for the loops it lacks (floating only). Half is
  // computed here (ATen 1.13's CPU kernels refuse it): in float, rounded once.
  if (!is_floating_type(self.dtype()))
    throw_not_implemented_for(last ? (log ? "log_softmax_lastdim_kernel_impl" : "softmax_lastdim_kernel_impl")
                                   : "softmax_kernel_impl",
                              self.dtype());
  Tensor out = kernels::empty(self.sizes(), self.dtype(), self.device());
  if (out.is_meta()) return out;  // Meta: checked, nothing computed
  if (self.dtype() == ScalarType::Float && last && self.is_contiguous()) {
    // Rows of self and out alike (out is contiguous, dim last too): no plan,
    // no copies.
    const int64_t n = self.dim() == 0 ? 1 : self.sizes()[static_cast<std::size_t>(d)];
    const int64_t outer = self.numel() / n;
    const float* x = static_cast<const float*>(self.data_ptr());
    float* y = static_cast<float*>(out.data_ptr());
    parallel_for(0, outer, std::max<int64_t>(1, grain_size / n), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) simd::softmax_row(x + o * n, y + o * n, n, log);
    });
    return out;
  }
  const int64_t dims[1] = {d};
  const reduce_detail::DimSpan dl = self.dim() == 0 ? reduce_detail::DimSpan() : reduce_detail::DimSpan(dims);
  const reduce_detail::Plan p = reduce_detail::make_plan(op, self, dl, true);
  const int64_t n = p.inner;
  const int64_t grain = std::max<int64_t>(1, grain_size / n);
  const ScalarType acc = self.dtype() == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  Tensor buf = kernels::empty(p.rows.sizes(), acc);
  kernels::copy_(buf, p.rows);
  if (acc == ScalarType::Float && log && self.dtype() == ScalarType::BFloat16) {
    float* x = static_cast<float*>(buf.data_ptr());
    parallel_for(0, p.outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) softmax_row_scalar(x + o * n, n, true, /*round=*/true);
    });
  } else if (acc == ScalarType::Float) {
    float* x = static_cast<float*>(buf.data_ptr());
    parallel_for(0, p.outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) simd::softmax_row(x + o * n, x + o * n, n, log);
    });
  } else {
    double* x = static_cast<double*>(buf.data_ptr());
    parallel_for(0, p.outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) softmax_row_scalar(x + o * n, n, log);
    });
  }
  const reduce_detail::Plan q = reduce_detail::make_plan(op, out, dl, true);
  Tensor target = q.rows;
  kernels::copy_(target, buf);
  return out;
}

inline std::string shape_string(std::span<const int64_t> s) {
  std::string r = "[";
  for (std::size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

}  // namespace norm_detail

OPD_FUNC Tensor softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return norm_detail::softmax_impl("_softmax", self, dim, half_to_float, false);
}
OPD_FUNC Tensor log_softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return norm_detail::softmax_impl("_log_softmax", self, dim, half_to_float, true);
}
OPD_FUNC Tensor softmax_int(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  reduce_detail::check_input("softmax", self);
  if (!dtype || *dtype == self.dtype()) return norm_detail::softmax_impl("softmax", self, dim, false, false);
  Tensor converted = kernels::empty(self.sizes(), *dtype, self.device());
  if (!converted.is_meta()) kernels::copy_(converted, self);
  return norm_detail::softmax_impl("softmax", converted, dim, false, false);
}
OPD_FUNC Tensor log_softmax_int(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  reduce_detail::check_input("log_softmax", self);
  if (!dtype || *dtype == self.dtype()) return norm_detail::softmax_impl("log_softmax", self, dim, false, true);
  Tensor converted = kernels::empty(self.sizes(), *dtype, self.device());
  if (!converted.is_meta()) kernels::copy_(converted, self);
  return norm_detail::softmax_impl("log_softmax", converted, dim, false, true);
}

OPD_FUNC std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input, std::span<const int64_t> normalized_shape,
                                                              const std::optional<Tensor>& weight,
                                                              const std::optional<Tensor>& bias, double eps) {
  constexpr const char* op = "native_layer_norm";
  reduce_detail::check_input(op, input);
  const auto nn = static_cast<int64_t>(normalized_shape.size());
  OPD_CHECK(nn >= 1, op, ": Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = ",
            norm_detail::shape_string(normalized_shape));
  const bool has_w = weight && weight->defined();
  const bool has_b = bias && bias->defined();
  OPD_CHECK(!has_w || weight->sizes() == IntArrayRef(normalized_shape.data(), normalized_shape.size()), op,
            ": Expected weight to be of same shape as normalized_shape, but got weight of shape ",
            has_w ? weight->sizes() : IntArrayRef(), " and normalized_shape = ", norm_detail::shape_string(normalized_shape));
  OPD_CHECK(!has_b || bias->sizes() == IntArrayRef(normalized_shape.data(), normalized_shape.size()), op,
            ": Expected bias to be of same shape as normalized_shape, but got bias of shape ",
            has_b ? bias->sizes() : IntArrayRef(), " and normalized_shape = ", norm_detail::shape_string(normalized_shape));
  const int64_t nd = input.dim();
  bool fits = nd >= nn;
  for (int64_t i = 0; fits && i < nn; ++i)
    fits = input.sizes()[static_cast<std::size_t>(nd - nn + i)] == normalized_shape[static_cast<std::size_t>(i)];
  OPD_CHECK(fits, op, ": Given normalized_shape=", norm_detail::shape_string(normalized_shape),
            ", expected input with shape [*", [&] {
              std::string s;
              for (const int64_t v : normalized_shape) s += ", " + std::to_string(v);
              return s;
            }(), "], but got input of size", input.sizes());
  // ATen 1.13's LayerNormKernelImpl: floating types and BFloat16, no Half.
  if (!is_floating_type(input.dtype()) || input.dtype() == ScalarType::Half)
    throw_not_implemented_for("LayerNormKernelImpl", input.dtype());
  const int64_t axis = nd - nn;
  std::vector<int64_t> stat_sizes(input.sizes().begin(), input.sizes().begin() + axis);
  stat_sizes.insert(stat_sizes.end(), static_cast<std::size_t>(nn), 1);
  // Meta: checked, nothing computed (a Meta weight or bias makes it a Meta call too)
  if (input.is_meta() || (has_w && weight->is_meta()) || (has_b && bias->is_meta())) {
    const Device meta = Device::meta();
    return {opd::empty(input.sizes(), input.dtype(), meta), opd::empty(IntArrayRef(stat_sizes), input.dtype(), meta),
            opd::empty(IntArrayRef(stat_sizes), input.dtype(), meta)};
  }
  Tensor out = kernels::empty(input.sizes(), input.dtype());
  Tensor mean = kernels::empty(stat_sizes, input.dtype());
  Tensor rstd = kernels::empty(stat_sizes, input.dtype());
  int64_t M = 1, N = 1;
  for (int64_t i = 0; i < axis; ++i) M *= input.sizes()[static_cast<std::size_t>(i)];
  for (int64_t i = axis; i < nd; ++i) N *= input.sizes()[static_cast<std::size_t>(i)];
  if (M == 0) return {out, mean, rstd};
  dispatch_floating_dtype(input.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const Tensor x = reduce_detail::contiguous_rows(input, input.dtype());
    const Tensor w = has_w ? reduce_detail::contiguous_rows(*weight, input.dtype()) : Tensor();
    const Tensor b = has_b ? reduce_detail::contiguous_rows(*bias, input.dtype()) : Tensor();
    const T* xp = static_cast<const T*>(x.data_ptr());
    const T* wp = has_w ? static_cast<const T*>(w.data_ptr()) : nullptr;
    const T* bp = has_b ? static_cast<const T*>(b.data_ptr()) : nullptr;
    T* yp = static_cast<T*>(out.data_ptr());
    T* mp = static_cast<T*>(mean.data_ptr());
    T* rp = static_cast<T*>(rstd.data_ptr());
    const int64_t grain = std::max<int64_t>(1, grain_size / std::max<int64_t>(N, 1));
    if constexpr (std::is_same_v<T, float>) {
      // Float rows: statistics in float (as ATen's), pairwise and vectorized.
      parallel_for(0, M, grain, [&](int64_t lo, int64_t hi) {
        for (int64_t m = lo; m < hi; ++m) {
          const float* row = xp + m * N;
          const float mu = N == 0 ? 0.f : simd::sum_row(row, N) / static_cast<float>(N);
          const float var = N == 0 ? 0.f : simd::sum_sq_dev_row(row, N, mu) / static_cast<float>(N);
          const float r = 1.0f / std::sqrt(std::max(var, 0.f) + static_cast<float>(eps));
          simd::affine_row(row, yp + m * N, N, r, -r * mu, wp, bp);
          mp[m] = mu;
          rp[m] = r;
        }
      });
      return;
    }
    parallel_for(0, M, grain, [&](int64_t lo, int64_t hi) {
      for (int64_t m = lo; m < hi; ++m) {
        const T* row = xp + m * N;
        const double mu = N == 0 ? 0.0
                                 : reduce_detail::pairwise_sum<double>(0, N, [&](int64_t i) { return static_cast<double>(static_cast<C>(row[i])); }) /
                                       static_cast<double>(N);
        const double var = N == 0 ? 0.0
                                  : reduce_detail::pairwise_sum<double>(0, N, [&](int64_t i) {
                                      const double dv = static_cast<double>(static_cast<C>(row[i])) - mu;
                                      return dv * dv;
                                    }) / static_cast<double>(N);
        const C r = static_cast<C>(1.0 / std::sqrt(std::max(var, 0.0) + eps));
        const C cmu = static_cast<C>(mu);
        const C shift = -r * cmu;
        T* y = yp + m * N;
        for (int64_t i = 0; i < N; ++i) {
          C v = static_cast<C>(row[i]) * r + shift;
          if (wp) v *= static_cast<C>(wp[i]);
          if (bp) v += static_cast<C>(bp[i]);
          y[i] = static_cast<T>(v);
        }
        mp[m] = static_cast<T>(cmu);
        rp[m] = static_cast<T>(r);
      }
    });
  });
  return {out, mean, rstd};
}

OPD_FUNC Tensor layer_norm(const Tensor& input, std::span<const int64_t> normalized_shape,
                           const std::optional<Tensor>& weight, const std::optional<Tensor>& bias, double eps,
                           bool cudnn_enable) {
  (void)cudnn_enable;  // CUDA's choice only
  return std::get<0>(native_layer_norm(input, normalized_shape, weight, bias, eps));
}

}  // namespace opd::kernels
