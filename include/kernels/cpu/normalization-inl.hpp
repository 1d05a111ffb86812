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
#include "kernels/cpu/loops-inl.hpp"
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

// A row's mean and 1 / sqrt(biased variance + eps), as layer and group norm
// compute them: Float in float (pairwise, vectorized), others in double.
struct RowMoments {
  double mean, rstd;
};
template <class T>
RowMoments row_moments(const T* row, int64_t n, double eps) {
  if (n == 0) return {0.0, 1.0 / std::sqrt(eps)};
  if constexpr (std::is_same_v<T, float>) {
    const float mu = simd::sum_row(row, n) / static_cast<float>(n);
    const float var = simd::sum_sq_dev_row(row, n, mu) / static_cast<float>(n);
    return {mu, 1.0f / std::sqrt(std::max(var, 0.f) + static_cast<float>(eps))};
  } else {
    using C = opmath_t<T>;
    const auto at = [&](int64_t i) { return static_cast<double>(static_cast<C>(row[i])); };
    const double mu = reduce_detail::pairwise_sum<double>(0, n, at) / static_cast<double>(n);
    const double var = reduce_detail::pairwise_sum<double>(0, n, [&](int64_t i) {
                         const double dv = at(i) - mu;
                         return dv * dv;
                       }) / static_cast<double>(n);
    return {mu, 1.0 / std::sqrt(std::max(var, 0.0) + eps)};
  }
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
          const norm_detail::RowMoments st = norm_detail::row_moments(row, N, eps);
          const auto mu = static_cast<float>(st.mean), r = static_cast<float>(st.rstd);
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

// ------------------------------------------------ group norm, norm backward ---

namespace norm_detail {

// ATen 1.13's group norm kernels (`kernel` names them): Float, Double and
// BFloat16, with every other tensor of the input's dtype.
inline void check_group_norm_dtypes(const char* kernel, const Tensor& input, std::initializer_list<const Tensor*> others) {
  const ScalarType dt = input.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double && dt != ScalarType::BFloat16) throw_not_implemented_for(kernel, dt);
  for (const Tensor* t : others)
    OPD_CHECK(!t || !t->defined() || t->dtype() == dt, "expected scalar type ", dt, " but found ", t->dtype());
}
inline bool any_meta(std::initializer_list<const Tensor*> ts) {
  for (const Tensor* t : ts)
    if (t && t->defined() && t->is_meta()) return true;
  return false;
}
// A defined optional tensor's contiguous copy in `dtype` (undefined when absent).
inline Tensor rows_or_none(const std::optional<Tensor>& t, ScalarType dtype) {
  return t && t->defined() ? reduce_detail::contiguous_rows(*t, dtype) : Tensor();
}
inline void check_affine(const char* op, const char* what, const std::optional<Tensor>& t, int64_t C,
                         const Tensor& input) {
  OPD_CHECK(!t || !t->defined() || (t->dim() == 1 && t->numel() == C), op, ": Expected ", what,
            " to be a vector of size equal to the number of channels in input, but got ", what, " of shape ",
            t && t->defined() ? t->sizes() : IntArrayRef(), " and input of shape ", input.sizes());
}
inline void check_group_norm(const char* op, const Tensor& input, int64_t N, int64_t C, int64_t HxW, int64_t group) {
  reduce_detail::check_input(op, input);
  OPD_CHECK(group > 0, op, ": Expected num groups to be greater than 0, got ", group);
  OPD_CHECK(C % group == 0, op, ": Expected number of channels in input to be divisible by num_groups, but got input "
            "of shape ", input.sizes(), " and num_groups=", group);
  OPD_CHECK(N >= 0 && HxW >= 0 && input.numel() == N * C * HxW && input.dim() >= 2 && input.size(0) == N &&
                input.size(1) == C,
            op, ": input of shape ", input.sizes(), " is not (N=", N, ", C=", C, ", HxW=", HxW, ")");
}

}  // namespace norm_detail

OPD_FUNC std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                                              const std::optional<Tensor>& bias, int64_t N, int64_t C,
                                                              int64_t HxW, int64_t group, double eps) {
  constexpr const char* op = "native_group_norm";
  norm_detail::check_group_norm(op, input, N, C, HxW, group);
  norm_detail::check_affine(op, "weight", weight, C, input);
  norm_detail::check_affine(op, "bias", bias, C, input);
  norm_detail::check_group_norm_dtypes("GroupNormKernelImpl", input, {weight ? &*weight : nullptr, bias ? &*bias : nullptr});
  const ScalarType dt = input.dtype();
  const std::vector<int64_t> stat_sizes{N, group};
  if (norm_detail::any_meta({&input, weight ? &*weight : nullptr, bias ? &*bias : nullptr})) {
    const Device meta = Device::meta();
    return {opd::empty(input.sizes(), dt, meta), opd::empty(IntArrayRef(stat_sizes), dt, meta),
            opd::empty(IntArrayRef(stat_sizes), dt, meta)};
  }
  Tensor out = kernels::empty(input.sizes(), dt);
  Tensor mean = kernels::empty(stat_sizes, dt);
  Tensor rstd = kernels::empty(stat_sizes, dt);
  if (N * group == 0) return {out, mean, rstd};
  const int64_t D = C / group, row = D * HxW;
  dispatch_floating_dtype(dt, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, Half>) {
      // BFloat16: moments, scale and shift in float, each output rounded once.
      using A = opmath_t<T>;
      const Tensor x = reduce_detail::contiguous_rows(input, dt);
      const Tensor w = norm_detail::rows_or_none(weight, dt), b = norm_detail::rows_or_none(bias, dt);
      const T* xp = x.data_ptr<T>();
      const T* wp = w.defined() ? w.data_ptr<T>() : nullptr;
      const T* bp = b.defined() ? b.data_ptr<T>() : nullptr;
      T* yp = out.data_ptr<T>();
      T* mp = mean.data_ptr<T>();
      T* rp = rstd.data_ptr<T>();
      // one (sample, group) row of D channels x HxW at a time: its moments,
      // then y = x * scale + shift per channel (ATen's order).
      parallel_for(0, N * group, std::max<int64_t>(1, grain_size / std::max<int64_t>(row, 1)), [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
          const T* xr = xp + r * row;
          const norm_detail::RowMoments st = norm_detail::row_moments(xr, row, eps);
          const A mu = static_cast<A>(st.mean), rs = static_cast<A>(st.rstd);
          mp[r] = static_cast<T>(mu);
          rp[r] = static_cast<T>(rs);
          const int64_t c0 = (r % group) * D;
          for (int64_t d = 0; d < D; ++d) {
            const A scale = wp ? rs * static_cast<A>(wp[c0 + d]) : rs;
            const A shift = -scale * mu + (bp ? static_cast<A>(bp[c0 + d]) : A(0));
            const T* xc = xr + d * HxW;
            T* yc = yp + r * row + d * HxW;
            for (int64_t i = 0; i < HxW; ++i) yc[i] = static_cast<T>(static_cast<A>(xc[i]) * scale + shift);
          }
        }
      });
    }
  });
  return {out, mean, rstd};
}

namespace norm_detail {

// native_group_norm_backward's per-channel loops, in double: float and double
// by the vectorized row kernels (reduce_simd.hpp), BFloat16 here over 16
// partial sums, compiled twice, the AVX2 clone picked at run time.
template <class T>
[[gnu::always_inline]] inline void channel_sums_body(const T* g, const T* x, int64_t n, double* s, double* t) {
  constexpr int64_t kLanes = 16;
  double sl[kLanes] = {}, tl[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) {
      sl[l] += static_cast<double>(g[i + l]) * static_cast<double>(x[i + l]);
      tl[l] += static_cast<double>(g[i + l]);
    }
  double a = 0, b = 0;
  for (int64_t l = 0; l < kLanes; ++l) {
    a += sl[l];
    b += tl[l];
  }
  for (; i < n; ++i) {
    a += static_cast<double>(g[i]) * static_cast<double>(x[i]);
    b += static_cast<double>(g[i]);
  }
  *s = a;
  *t = b;
}
template <class T>
[[gnu::always_inline]] inline void channel_dx_body(const T* g, const T* x, T* dx, int64_t n, double c1, double c2,
                                                   double c3) {
  for (int64_t i = 0; i < n; ++i)
    dx[i] = static_cast<T>(c1 * static_cast<double>(g[i]) + c2 * static_cast<double>(x[i]) + c3);
}
#if OPD_KERNEL_AVX2_ROWS
template <class T>
[[gnu::target("avx2"), gnu::noinline]] void channel_sums_avx2(const T* g, const T* x, int64_t n, double* s, double* t) {
  channel_sums_body(g, x, n, s, t);
}
template <class T>
[[gnu::target("avx2"), gnu::noinline]] void channel_dx_avx2(const T* g, const T* x, T* dx, int64_t n, double c1,
                                                           double c2, double c3) {
  channel_dx_body(g, x, dx, n, c1, c2, c3);
}
#endif
template <class T>
void channel_sums(const T* g, const T* x, int64_t n, double* s, double* t) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    simd::dot_sum_row(g, x, n, s, t);
  } else {
#if OPD_KERNEL_AVX2_ROWS
    if (detail::cpu_has_avx2()) return channel_sums_avx2(g, x, n, s, t);
#endif
    channel_sums_body(g, x, n, s, t);
  }
}
template <class T>
void channel_dx(const T* g, const T* x, T* dx, int64_t n, double c1, double c2, double c3) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    simd::axpbyc_row(g, x, dx, n, c1, c2, c3);
  } else {
#if OPD_KERNEL_AVX2_ROWS
    if (detail::cpu_has_avx2()) return channel_dx_avx2(g, x, dx, n, c1, c2, c3);
#endif
    channel_dx_body(g, x, dx, n, c1, c2, c3);
  }
}

}  // namespace norm_detail

OPD_FUNC std::tuple<Tensor, Tensor, Tensor> native_group_norm_backward(
    const Tensor& grad_out, const Tensor& input, const Tensor& mean, const Tensor& rstd,
    const std::optional<Tensor>& weight, int64_t N, int64_t C, int64_t HxW, int64_t group,
    std::span<const bool> output_mask) {
  constexpr const char* op = "native_group_norm_backward";
  norm_detail::check_group_norm(op, input, N, C, HxW, group);
  reduce_detail::check_input(op, grad_out);
  reduce_detail::check_input(op, mean);
  reduce_detail::check_input(op, rstd);
  norm_detail::check_affine(op, "weight", weight, C, input);
  OPD_CHECK(output_mask.size() == 3, op, ": output_mask must have 3 elements");
  OPD_CHECK(grad_out.sizes() == input.sizes(), op, ": Expected grad_out to be of the same shape as input, but got ",
            grad_out.sizes(), " and ", input.sizes());
  OPD_CHECK(mean.numel() == N * group && rstd.numel() == N * group, op, ": Expected mean and rstd of N * group = ",
            N * group, " elements, but got ", mean.numel(), " and ", rstd.numel());
  norm_detail::check_group_norm_dtypes("GroupNormBackwardKernelImpl", input,
                                       {&grad_out, &mean, &rstd, weight ? &*weight : nullptr});
  const ScalarType dt = input.dtype();
  const Device device = norm_detail::any_meta({&grad_out, &input, &mean, &rstd, weight ? &*weight : nullptr})
                            ? Device::meta()
                            : Device::cpu();
  const std::vector<int64_t> c_sizes{C};
  Tensor dx = output_mask[0] ? kernels::empty(input.sizes(), dt, device) : Tensor();
  Tensor dgamma = output_mask[1] ? kernels::zeros(c_sizes, dt, device) : Tensor();
  Tensor dbeta = output_mask[2] ? kernels::zeros(c_sizes, dt, device) : Tensor();
  if (device.is_meta() || N * C == 0) return {dx, dgamma, dbeta};
  const int64_t D = C / group;
  dispatch_floating_dtype(dt, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, Half>) {  // sums in double, each result rounded once
      const Tensor x = reduce_detail::contiguous_rows(input, dt), dy = reduce_detail::contiguous_rows(grad_out, dt);
      const Tensor mu_t = reduce_detail::contiguous_rows(mean, dt), rs_t = reduce_detail::contiguous_rows(rstd, dt);
      const Tensor w = norm_detail::rows_or_none(weight, dt);
      const T* xp = x.data_ptr<T>();
      const T* gp = dy.data_ptr<T>();
      const T* mp = mu_t.data_ptr<T>();
      const T* rp = rs_t.data_ptr<T>();
      const T* wp = w.defined() ? w.data_ptr<T>() : nullptr;
      // ds[n, c] = sum dy * x, db[n, c] = sum dy over each channel's HxW.
      std::vector<double> ds(static_cast<std::size_t>(N * C)), db(static_cast<std::size_t>(N * C));
      parallel_for(0, N * C, std::max<int64_t>(1, grain_size / std::max<int64_t>(HxW, 1)), [&](int64_t lo, int64_t hi) {
        for (int64_t nc = lo; nc < hi; ++nc)
          norm_detail::channel_sums(gp + nc * HxW, xp + nc * HxW, HxW, &ds[static_cast<std::size_t>(nc)],
                                    &db[static_cast<std::size_t>(nc)]);
      });
      if (dx.defined()) {
        T* dxp = dx.data_ptr<T>();
        const double scale = 1.0 / static_cast<double>(D * HxW);
        parallel_for(0, N * group, 1, [&](int64_t lo, int64_t hi) {
          for (int64_t r = lo; r < hi; ++r) {
            const int64_t n = r / group, c0 = (r % group) * D;
            double ds_g = 0, db_g = 0;
            for (int64_t d = 0; d < D; ++d) {
              const double gamma = wp ? static_cast<double>(wp[c0 + d]) : 1.0;
              ds_g += ds[static_cast<std::size_t>(n * C + c0 + d)] * gamma;
              db_g += db[static_cast<std::size_t>(n * C + c0 + d)] * gamma;
            }
            const double mu = static_cast<double>(mp[r]), rs = static_cast<double>(rp[r]);
            const double c2 = (db_g * mu - ds_g) * rs * rs * rs * scale;
            const double c3 = -c2 * mu - db_g * rs * scale;
            for (int64_t d = 0; d < D; ++d) {
              const double c1 = rs * (wp ? static_cast<double>(wp[c0 + d]) : 1.0);
              const int64_t base = (n * C + c0 + d) * HxW;
              norm_detail::channel_dx(gp + base, xp + base, dxp + base, HxW, c1, c2, c3);
            }
          }
        });
      }
      if (dgamma.defined() || dbeta.defined()) {
        T* dgp = dgamma.defined() ? dgamma.data_ptr<T>() : nullptr;
        T* dbp = dbeta.defined() ? dbeta.data_ptr<T>() : nullptr;
        for (int64_t c = 0; c < C; ++c) {
          double g = 0, b = 0;
          for (int64_t n = 0; n < N; ++n) {
            const int64_t r = n * group + c / D;
            const std::size_t nc = static_cast<std::size_t>(n * C + c);
            g += (ds[nc] - db[nc] * static_cast<double>(mp[r])) * static_cast<double>(rp[r]);
            b += db[nc];
          }
          if (dgp) dgp[c] = static_cast<T>(g);
          if (dbp) dbp[c] = static_cast<T>(b);
        }
      }
    }
  });
  return {dx, dgamma, dbeta};
}

namespace norm_detail {

// native_layer_norm_backward's rows [lo, hi): dx when wanted, and dgamma /
// dbeta's terms added into pg / pb (null when not wanted), by the vectorized
// row kernel (reduce_simd.hpp: sums in T, float for float as ATen's opmath).
template <class T>
struct LayerNormGrad {
  const T *x, *dy, *mean, *rstd, *w;  // rows of N; mean and rstd per row; w null without weight
  T* dx;                              // null when not wanted
  int64_t M, N;
};
template <class T>
void layer_norm_rows(const LayerNormGrad<T>& a, int64_t lo, int64_t hi, T* pg, T* pb) {
  for (int64_t m = lo; m < hi; ++m)
    simd::layer_norm_backward_row(a.x + m * a.N, a.dy + m * a.N, a.w, a.N, a.mean[m], a.rstd[m],
                                  a.dx != nullptr ? a.dx + m * a.N : nullptr, pg, pb);
}

}  // namespace norm_detail

OPD_FUNC std::tuple<Tensor, Tensor, Tensor> native_layer_norm_backward(
    const Tensor& grad_out, const Tensor& input, std::span<const int64_t> normalized_shape, const Tensor& mean,
    const Tensor& rstd, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    std::span<const bool> output_mask) {
  constexpr const char* op = "native_layer_norm_backward";
  reduce_detail::check_input(op, input);
  reduce_detail::check_input(op, grad_out);
  reduce_detail::check_input(op, mean);
  reduce_detail::check_input(op, rstd);
  OPD_CHECK(output_mask.size() == 3, op, ": output_mask must have 3 elements");
  const auto nn = static_cast<int64_t>(normalized_shape.size());
  const IntArrayRef shape(normalized_shape.data(), normalized_shape.size());
  OPD_CHECK(nn >= 1, op, ": Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
            "element, but got normalized_shape = ", norm_detail::shape_string(normalized_shape));
  const bool has_w = weight && weight->defined(), has_b = bias && bias->defined();
  OPD_CHECK(!has_w || weight->sizes() == shape, op, ": Expected weight to be of same shape as normalized_shape, but "
            "got weight of shape ", has_w ? weight->sizes() : IntArrayRef(), " and normalized_shape = ",
            norm_detail::shape_string(normalized_shape));
  OPD_CHECK(!has_b || bias->sizes() == shape, op, ": Expected bias to be of same shape as normalized_shape, but got "
            "bias of shape ", has_b ? bias->sizes() : IntArrayRef(), " and normalized_shape = ",
            norm_detail::shape_string(normalized_shape));
  const int64_t nd = input.dim();
  bool fits = nd >= nn;
  for (int64_t i = 0; fits && i < nn; ++i)
    fits = input.sizes()[static_cast<std::size_t>(nd - nn + i)] == normalized_shape[static_cast<std::size_t>(i)];
  OPD_CHECK(fits, op, ": Given normalized_shape=", norm_detail::shape_string(normalized_shape),
            ", expected input with shape [*, ...], but got input of size", input.sizes());
  OPD_CHECK(grad_out.sizes() == input.sizes(), op, ": Expected grad_out to be of the same shape as input, but got ",
            grad_out.sizes(), " and ", input.sizes());
  int64_t M = 1, N = 1;
  for (int64_t i = 0; i < nd - nn; ++i) M *= input.size(i);
  for (int64_t i = nd - nn; i < nd; ++i) N *= input.size(i);
  OPD_CHECK(mean.numel() == M && rstd.numel() == M, op, ": Expected mean and rstd of ", M, " elements, but got ",
            mean.numel(), " and ", rstd.numel());
  norm_detail::check_group_norm_dtypes("GroupNormBackwardKernelImpl", input,
                                       {&grad_out, &mean, &rstd, weight ? &*weight : nullptr});
  const ScalarType dt = input.dtype();
  const Device device = norm_detail::any_meta({&grad_out, &input, &mean, &rstd, has_w ? &*weight : nullptr,
                                               has_b ? &*bias : nullptr})
                            ? Device::meta()
                            : Device::cpu();
  // ATen: dweight / dbias shaped as the weight / bias (normalized_shape when absent).
  Tensor dx = output_mask[0] ? kernels::empty(input.sizes(), dt, device) : Tensor();
  Tensor dgamma = output_mask[1] ? kernels::zeros(shape, dt, device) : Tensor();
  Tensor dbeta = output_mask[2] ? kernels::zeros(shape, dt, device) : Tensor();
  if (device.is_meta() || M == 0 || N == 0) {
    if (dx.defined() && !device.is_meta() && dx.numel() != 0) kernels::fill_(dx, Scalar(0.0));
    return {dx, dgamma, dbeta};
  }
  dispatch_floating_dtype(dt, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      const Tensor x = reduce_detail::contiguous_rows(input, dt), dy = reduce_detail::contiguous_rows(grad_out, dt);
      const Tensor mu_t = reduce_detail::contiguous_rows(mean, dt), rs_t = reduce_detail::contiguous_rows(rstd, dt);
      const Tensor w = norm_detail::rows_or_none(weight, dt);
      const T* xp = x.data_ptr<T>();
      const T* gp = dy.data_ptr<T>();
      const T* mp = mu_t.data_ptr<T>();
      const T* rp = rs_t.data_ptr<T>();
      const T* wp = w.defined() ? w.data_ptr<T>() : nullptr;
      T* dxp = dx.defined() ? dx.data_ptr<T>() : nullptr;
      T* dgp = dgamma.defined() ? dgamma.data_ptr<T>() : nullptr;
      T* dbp = dbeta.defined() ? dbeta.data_ptr<T>() : nullptr;
      const norm_detail::LayerNormGrad<T> a{xp, gp, mp, rp, wp, dxp, M, N};
      // One pass over the rows: a task per thread (one below two grains),
      // each with its own dgamma / dbeta sums, added in task order after.
      const int64_t tasks = M * N >= 2 * grain_size * grain_scale() ? std::min<int64_t>(get_num_threads(), M) : 1;
      const auto NN = static_cast<std::size_t>(N);
      std::vector<T> pg(dgp != nullptr ? NN * static_cast<std::size_t>(tasks) : 0, T(0));
      std::vector<T> pb(dbp != nullptr ? NN * static_cast<std::size_t>(tasks) : 0, T(0));
      parallel_tasks(tasks, [&](int64_t t) {
        norm_detail::layer_norm_rows(a, M * t / tasks, M * (t + 1) / tasks,
                                     dgp != nullptr ? pg.data() + NN * static_cast<std::size_t>(t) : nullptr,
                                     dbp != nullptr ? pb.data() + NN * static_cast<std::size_t>(t) : nullptr);
      });
      for (int64_t t = 0; t < tasks; ++t)
        for (int64_t j = 0; j < N; ++j) {
          const std::size_t at = NN * static_cast<std::size_t>(t) + static_cast<std::size_t>(j);
          if (dgp != nullptr) dgp[j] = t == 0 ? pg[at] : dgp[j] + pg[at];
          if (dbp != nullptr) dbp[j] = t == 0 ? pb[at] : dbp[j] + pb[at];
        }
    }
  });
  return {dx, dgamma, dbeta};
}

}  // namespace opd::kernels
