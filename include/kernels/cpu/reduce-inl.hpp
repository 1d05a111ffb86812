#pragma once
// Out-of-line part of reduce.hpp (compiled in src/kernels/reduce.cpp): the
// ops on the engine of reduce_engine-inl.hpp.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/count_true.hpp"
#include "kernels/cpu/reduce.hpp"
#include "kernels/cpu/reduce_engine-inl.hpp"
#include "kernels/cpu/unary_simd.hpp"

namespace opd::kernels {

namespace reduce_detail {

// The accumulation dtype of sum/prod for an output dtype.
inline ScalarType sum_acc_dtype(ScalarType out) {
  if (out == ScalarType::Double || is_complex_kernel_dtype(out)) return out;
  if (is_floating_type(out)) return ScalarType::Float;
  return ScalarType::Long;
}

// ATen's get_dtype_from_self(self, dtype, promote_integers=true).
inline ScalarType sum_out_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return is_integral_type(self.dtype(), /*include_bool=*/true) ? ScalarType::Long : self.dtype();
}

// A result computed in `acc` as a contiguous tensor of the output's shape,
// converted to `out_dtype`.
inline Tensor finish(Tensor acc_result, ScalarType out_dtype) {
  if (acc_result.dtype() == out_dtype) return acc_result;
  Tensor out = kernels::empty(acc_result.sizes(), out_dtype);
  kernels::copy_(out, acc_result);
  return out;
}

// Every reduction below is also its Meta kernel: the checks and the plan
// (the output's sizes) run on Meta tensors as on CPU ones, and a Meta input
// returns its Meta output there, before a value is read.
inline Tensor meta_result(IntArrayRef sizes, ScalarType dtype) {
  return opd::empty(sizes, dtype, Device::meta());
}

enum class SumKind { Sum, Prod };

inline Tensor sum_like(const char* op, SumKind kind, const Tensor& self, DimList dims, bool keepdim,
                       std::optional<ScalarType> dtype) {
  check_input(op, self, /*complex_ok=*/true);
  const ScalarType out_dtype = sum_out_dtype(self, dtype);
  if (!is_kernel_dtype(out_dtype) && !is_complex_kernel_dtype(out_dtype)) throw_not_implemented_for(op, out_dtype);
  // (a complex input with a real dtype=: the real parts, cast first as ATen does)
  // ATen 1.13's prod_cpu has no Half or BFloat16 loop.
  // (An empty input never reaches the loop: the identity is filled in.)
  if (kind == SumKind::Prod && self.numel() != 0 && (out_dtype == ScalarType::Half || out_dtype == ScalarType::BFloat16))
    throw_not_implemented_for("prod_cpu", out_dtype);
  Plan p = make_plan(op, self, dims, keepdim, /*memory_order=*/true);
  if (self.is_meta()) return meta_result(p.out_sizes, out_dtype);
  const ScalarType acc = sum_acc_dtype(out_dtype);
  // Cast to the output dtype first (ATen's iterator does), then accumulate.
  Tensor rows = p.rows;
  if (out_dtype != acc && out_dtype != self.dtype()) rows = contiguous_rows(rows, out_dtype);
  rows = contiguous_rows(rows, acc);
  Tensor res = kernels::empty(p.out_sizes, acc);
  auto run = [&](auto tag) {
    using A = typename decltype(tag)::type;
    const A* x = static_cast<const A*>(rows.data_ptr());
    A* r = static_cast<A*>(res.data_ptr());
    if (kind == SumKind::Sum) {
      reduce_rows(x, p.outer, p.inner, r, [](const A* row, int64_t n) { return sum_row(row, n); },
                  [](A a, A b) { return static_cast<A>(static_cast<std::conditional_t<std::is_integral_v<A>, uint64_t, A>>(a) + b); });
    } else {
      if constexpr (std::is_floating_point_v<A>) {
        if (p.outer > 1 && p.inner >= 128) {  // prod_row's vector rows, two at a time (the same bits)
          const int64_t grain = std::max<int64_t>(2, grain_size / p.inner);
          parallel_for(0, p.outer, grain,
                       [&](int64_t b, int64_t e) { simd::prod_rows(x + b * p.inner, p.inner, e - b, r + b); });
          return;
        }
      }
      reduce_rows(x, p.outer, p.inner, r, [](const A* row, int64_t n) { return prod_row(row, n); },
                  [](A a, A b) { return static_cast<A>(static_cast<std::conditional_t<std::is_integral_v<A>, uint64_t, A>>(a) * b); });
    }
  };
  if (acc == ScalarType::Float) run(type_tag<float>{});
  else if (acc == ScalarType::Double) run(type_tag<double>{});
  else if (acc == ScalarType::ComplexFloat) run(type_tag<std::complex<float>>{});
  else if (acc == ScalarType::ComplexDouble) run(type_tag<std::complex<double>>{});
  else run(type_tag<int64_t>{});
  return finish(std::move(res), out_dtype);
}

// --------------------------------------------------------- max, min, arg* ---

template <class T>
inline bool is_nan_value(T v) {
  if constexpr (is_float_like_v<T>) return std::isnan(static_cast<opmath_t<T>>(v));
  else return false;
}

// a "beats" b for a max (kMax) or a min: NaN beats everything.
template <bool kMax, class T>
inline bool beats(T a, T b) {
  using C = std::conditional_t<std::is_same_v<T, bool>, int, opmath_t<T>>;
  const C x = static_cast<C>(a), y = static_cast<C>(b);
  if (is_nan_value(a)) return !is_nan_value(b);
  return kMax ? x > y : x < y;
}

template <bool kMax, class T>
T extreme_row(const T* x, int64_t n) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return kMax ? simd::max_row(x, n) : simd::min_row(x, n);
  } else {
    T best = x[0];
    for (int64_t i = 1; i < n; ++i)
      if (beats<kMax>(x[i], best)) best = x[i];
    return best;
  }
}

template <bool kMax, class T>
int64_t arg_extreme_row(const T* x, int64_t n) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    // Two passes without a branch per element in the first: the extreme
    // (SIMD, NaN when there is one), then the first element equal to it (or
    // the first NaN). Equal elements (0.0 and -0.0 too) never beat each
    // other, so the first equal one is the one the scalar loop keeps.
    const T best = extreme_row<kMax>(x, n);
    if (is_nan_value(best)) {
      for (int64_t i = 0; i < n; ++i)
        if (is_nan_value(x[i])) return i;
    }
    for (int64_t i = 0; i < n; ++i)
      if (x[i] == best) return i;
    return 0;
  }
  // The best value kept in a register (not reloaded through its index), and
  // once it is NaN nothing beats it: stop there.
  int64_t best = 0;
  T best_v = x[0];
  if (is_nan_value(best_v)) return 0;
  for (int64_t i = 1; i < n; ++i) {
    if (beats<kMax>(x[i], best_v)) {
      best_v = x[i];
      best = i;
      if (is_nan_value(best_v)) return best;
    }
  }
  return best;
}

template <bool kMax>
Tensor amax_like(const char* op, const Tensor& self, DimList dims, bool keepdim) {
  check_input(op, self);
  check_nonempty(op, self, dims);
  Plan p = make_plan(op, self, dims, keepdim);
  if (self.is_meta()) return meta_result(p.out_sizes, self.dtype());
  const Tensor rows = contiguous_rows(p.rows, self.dtype());
  Tensor res = kernels::empty(p.out_sizes, self.dtype());
  dispatch_dtype(self.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    reduce_rows(static_cast<const T*>(rows.data_ptr()), p.outer, p.inner, static_cast<T*>(res.data_ptr()),
                [](const T* row, int64_t n) { return extreme_row<kMax>(row, n); },
                [](T a, T b) { return beats<kMax>(b, a) ? b : a; });
  });
  return res;
}

// values and indices over one dim (dim = nullopt: the flattened input).
template <bool kMax>
std::tuple<Tensor, Tensor> max_dim_like(const char* op, const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                                        bool want_values) {
  check_input(op, self);
  // ATen 1.13's argmax_cpu / argmin_cpu have no Bool loop (max.dim has).
  if (!want_values && self.dtype() == ScalarType::Bool && self.numel() != 0)
    throw_not_implemented_for(kMax ? "argmax_cpu" : "argmin_cpu", self.dtype());
  const int64_t d = dim.value_or(0);
  const std::span<const int64_t> dims = dim ? std::span<const int64_t>(&d, 1) : std::span<const int64_t>();
  check_nonempty(op, self, dims);
  Plan p = make_plan(op, self, dims, dim ? keepdim : false);
  if (self.is_meta())
    return {want_values ? meta_result(p.out_sizes, self.dtype()) : Tensor(), meta_result(p.out_sizes, ScalarType::Long)};
  const Tensor rows = contiguous_rows(p.rows, self.dtype());
  Tensor values = want_values ? kernels::empty(p.out_sizes, self.dtype()) : Tensor();
  Tensor indices = kernels::empty(p.out_sizes, ScalarType::Long);
  dispatch_dtype(self.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* x = static_cast<const T*>(rows.data_ptr());
    int64_t* idx = static_cast<int64_t*>(indices.data_ptr());
    T* val = want_values ? static_cast<T*>(values.data_ptr()) : nullptr;
    for_each_row(x, p.outer, p.inner, idx, [](const T* row, int64_t n) { return arg_extreme_row<kMax>(row, n); });
    if (val)
      for (int64_t o = 0; o < p.outer; ++o) val[o] = x[o * p.inner + idx[o]];
  });
  return {values, indices};
}

// --------------------------------------------------------------- moments ---

inline Tensor var_like(const char* op, const Tensor& self, OptDimList dim, std::optional<int64_t> correction,
                       bool keepdim, bool take_sqrt);

// Complex: as ATen's std_var_out, the variances of the real and of the
// imaginary parts, each rounded to the real dtype, added there (the mean of
// |x - mean|^2), then the root for std.
inline Tensor complex_var_like(const char* op, const Tensor& self, OptDimList dim, std::optional<int64_t> correction,
                               bool keepdim, bool take_sqrt) {
  const ScalarType rt = real_part_dtype(self.dtype());
  if (self.is_meta()) return meta_result(make_plan(op, self, dim.value_or(DimList()), keepdim).out_sizes, rt);
  const Tensor z = contiguous_rows(self, self.dtype());
  Tensor re = kernels::empty(self.sizes(), rt), im = kernels::empty(self.sizes(), rt);
  dispatch_complex_dtype(self.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = typename T::value_type;
    const T* x = static_cast<const T*>(z.data_ptr());
    R* r = static_cast<R*>(re.data_ptr());
    R* i = static_cast<R*>(im.data_ptr());
    for (int64_t k = 0; k < self.numel(); ++k) {
      r[k] = x[k].real();
      i[k] = x[k].imag();
    }
  });
  Tensor v = var_like(op, re, dim, correction, keepdim, false);
  const Tensor vi = var_like(op, im, dim, correction, keepdim, false);
  dispatch_floating_dtype(rt, op, [&](auto tag) {
    using R = typename decltype(tag)::type;
    R* a = static_cast<R*>(v.data_ptr());
    const R* b = static_cast<const R*>(vi.data_ptr());
    for (int64_t k = 0; k < v.numel(); ++k) a[k] = take_sqrt ? std::sqrt(a[k] + b[k]) : a[k] + b[k];
  });
  return v;
}

inline Tensor var_like(const char* op, const Tensor& self, OptDimList dim, std::optional<int64_t> correction,
                       bool keepdim, bool take_sqrt) {
  check_input(op, self, /*complex_ok=*/true);
  if (is_complex_kernel_dtype(self.dtype())) return complex_var_like(op, self, dim, correction, keepdim, take_sqrt);
  OPD_CHECK_TYPE(is_floating_type(self.dtype()), op,
                 ": std and var only support floating point and complex dtypes, got ", self.dtype());
  Plan p = make_plan(op, self, dim.value_or(DimList()), keepdim, /*memory_order=*/true);
  if (self.is_meta()) return meta_result(p.out_sizes, self.dtype());
  const double c = static_cast<double>(correction.value_or(1));
  const auto finish_row = [c, take_sqrt](double m2, int64_t n) {
    const double v = m2 / std::max(0.0, static_cast<double>(n) - c);
    return take_sqrt ? std::sqrt(v) : v;
  };
  Tensor res = kernels::empty(p.out_sizes, ScalarType::Double);
  if (p.outer == 1 && self.dtype() == ScalarType::Float) {
    // One float row: both passes read the floats and widen them on the fly
    // (in double, as ATen's std_var_all_cpu), instead of a double copy.
    const Tensor row = contiguous_rows(p.rows, ScalarType::Float);
    const float* x = static_cast<const float*>(row.data_ptr());
    const int64_t n = p.inner;
    const double mean =
        n == 0 ? 0.0 : pairwise_sum<double>(0, n, [x](int64_t i) { return static_cast<double>(x[i]); }) / static_cast<double>(n);
    const double m2 = pairwise_sum<double>(0, n, [x, mean](int64_t i) {
      const double d = static_cast<double>(x[i]) - mean;
      return d * d;
    });
    *static_cast<double*>(res.data_ptr()) = finish_row(m2, n);
    return finish(std::move(res), self.dtype());
  }
  const Tensor rows = contiguous_rows(p.rows, ScalarType::Double);
  // As ATen's CPU kernels: one output (a full reduction) in two passes,
  // several outputs with Welford's update, both in double.
  const bool two_pass = p.outer == 1;
  for_each_row(static_cast<const double*>(rows.data_ptr()), p.outer, p.inner, static_cast<double*>(res.data_ptr()),
               [&finish_row, two_pass](const double* x, int64_t n) {
                 double m2 = 0;
                 if (two_pass) {
                   const double mean = n == 0 ? 0.0 : sum_row(x, n) / static_cast<double>(n);
                   m2 = pairwise_sum<double>(0, n, [&](int64_t i) {
                     const double d = x[i] - mean;
                     return d * d;
                   });
                 } else {
                   double mean = 0;
                   for (int64_t i = 0; i < n; ++i) {
                     const double delta = x[i] - mean;
                     mean += delta / static_cast<double>(i + 1);
                     m2 += delta * (x[i] - mean);
                   }
                 }
                 return finish_row(m2, n);
               });
  return finish(std::move(res), self.dtype());
}

// ------------------------------------------------------------------ norm ---

template <class A>
A norm_row(const A* x, int64_t n, double p) {
  using std::abs;
  if (p == 2) return std::sqrt(pairwise_sum<A>(0, n, [&](int64_t i) { return x[i] * x[i]; }));
  if (p == 1) return pairwise_sum<A>(0, n, [&](int64_t i) { return abs(x[i]); });
  if (p == 0) return pairwise_sum<A>(0, n, [&](int64_t i) { return x[i] != 0 ? A(1) : A(0); });
  if (std::isinf(p)) {
    A best = abs(x[0]);
    for (int64_t i = 1; i < n; ++i) {
      const A a = abs(x[i]);
      if (std::isnan(a) || (!std::isnan(best) && (p > 0 ? a > best : a < best))) best = a;
    }
    return best;
  }
  const A pp = static_cast<A>(p);
  return std::pow(pairwise_sum<A>(0, n, [&](int64_t i) { return std::pow(abs(x[i]), pp); }), A(1) / pp);
}

// ------------------------------------------------------------ scans ---

// ATen's CPU acc_type: double for float/double, complex<double> for both
// complex dtypes, float for the reduced ones, int64 for integers.
inline ScalarType scan_acc_dtype(ScalarType out) {
  if (out == ScalarType::Float || out == ScalarType::Double) return ScalarType::Double;
  if (is_complex_kernel_dtype(out)) return ScalarType::ComplexDouble;
  if (is_floating_type(out)) return ScalarType::Float;
  return ScalarType::Long;
}

inline Tensor scan(const char* op, bool is_prod, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  check_input(op, self, /*complex_ok=*/true);
  const ScalarType out_dtype = sum_out_dtype(self, dtype);
  if (!is_kernel_dtype(out_dtype) && !is_complex_kernel_dtype(out_dtype)) throw_not_implemented_for(op, out_dtype);
  // ATen 1.13's cumsum_out_cpu / cumprod_out_cpu have no Half loop.
  // (An empty or 0-dim input never reaches the loop: it is copied.)
  if (out_dtype == ScalarType::Half && self.dim() > 0 && self.numel() != 0)
    throw_not_implemented_for(is_prod ? "cumprod_out_cpu" : "cumsum_out_cpu", out_dtype);
  const int64_t d = views::wrap_dim(op, dim, self.dim());
  Tensor out = kernels::empty(self.sizes(), out_dtype, self.device());
  if (self.numel() == 0 || out.is_meta()) return out;
  // Contiguous float / double rows along the last dimension, no cast: the
  // scan reads self and writes out directly (no staging buffer, no copies),
  // accumulating in double and rounding each stored value, as below.
  if (self.dim() > 0 && d == self.dim() - 1 && self.is_contiguous() && out_dtype == self.dtype() &&
      (out_dtype == ScalarType::Float || out_dtype == ScalarType::Double)) {
    const int64_t inner = self.size(d);
    const int64_t outer = self.numel() / inner;
    auto direct = [&](auto tag) {
      using A = typename decltype(tag)::type;
      const A* x = static_cast<const A*>(self.data_ptr());
      A* y = static_cast<A*>(out.data_ptr());
      parallel_for(0, outer, std::max<int64_t>(1, grain_size / inner), [&](int64_t b, int64_t e) {
        for (int64_t o = b; o < e; ++o) {
          const A* xr = x + o * inner;
          A* yr = y + o * inner;
          double acc_v = is_prod ? 1.0 : 0.0;
          if (is_prod) {
            for (int64_t i = 0; i < inner; ++i) yr[i] = static_cast<A>(acc_v *= static_cast<double>(xr[i]));
          } else {
            for (int64_t i = 0; i < inner; ++i) yr[i] = static_cast<A>(acc_v += static_cast<double>(xr[i]));
          }
        }
      });
    };
    if (out_dtype == ScalarType::Float) direct(type_tag<float>{});
    else direct(type_tag<double>{});
    return out;
  }
  const int64_t dims[1] = {d};
  Plan p = make_plan(op, self, self.dim() == 0 ? DimList() : DimList(dims), true);
  Tensor rows = p.rows;
  if (out_dtype != self.dtype()) rows = contiguous_rows(rows, out_dtype);  // ATen casts first
  const ScalarType acc = scan_acc_dtype(out_dtype);
  Tensor buf = kernels::empty(rows.sizes(), acc);
  kernels::copy_(buf, rows);  // a fresh block: scanned in place
  auto run = [&](auto tag) {
    using A = typename decltype(tag)::type;
    using W = std::conditional_t<std::is_integral_v<A>, uint64_t, A>;  // integers wrap
    A* x = static_cast<A*>(buf.data_ptr());
    const int64_t inner = p.inner;
    parallel_for(0, p.outer, std::max<int64_t>(1, grain_size / inner), [&](int64_t b, int64_t e) {
      for (int64_t o = b; o < e; ++o) {
        A* row = x + o * inner;
        W acc_v = is_prod ? W(1) : W(0);
        for (int64_t i = 0; i < inner; ++i) {
          acc_v = is_prod ? static_cast<W>(acc_v * static_cast<W>(row[i])) : static_cast<W>(acc_v + static_cast<W>(row[i]));
          row[i] = static_cast<A>(acc_v);
        }
      }
    });
  };
  if (acc == ScalarType::Float) run(type_tag<float>{});
  else if (acc == ScalarType::Double) run(type_tag<double>{});
  else if (acc == ScalarType::ComplexDouble) run(type_tag<std::complex<double>>{});
  else run(type_tag<int64_t>{});
  // Write back through out's view in the rows' order (same permutation).
  const Plan q = make_plan(op, out, self.dim() == 0 ? DimList() : DimList(dims), true);
  Tensor target = q.rows;
  kernels::copy_(target, buf);
  return out;
}

// ------------------------------------------------------------ all / any ---

// (complex: the real part's truth, as 1.13's any/all cast to Bool)
inline Tensor all_any(const char* op, bool is_all, const Tensor& self, DimList dims, bool keepdim) {
  check_input(op, self, /*complex_ok=*/true);
  Plan p = make_plan(op, self, dims, keepdim);
  if (self.is_meta()) return meta_result(p.out_sizes, self.dtype() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool);
  const Tensor rows = contiguous_rows(p.rows, ScalarType::Bool);
  Tensor res = kernels::empty(p.out_sizes, ScalarType::Bool);
  reduce_rows(static_cast<const bool*>(rows.data_ptr()), p.outer, p.inner, static_cast<bool*>(res.data_ptr()),
              [is_all](const bool* x, int64_t n) {
                for (int64_t i = 0; i < n; ++i)
                  if (x[i] != is_all) return !is_all;
                return is_all;
              },
              [is_all](bool a, bool b) { return is_all ? (a && b) : (a || b); });
  return finish(std::move(res), self.dtype() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool);
}

}  // namespace reduce_detail

// ------------------------------------------------------------------ sums ---

OPD_FUNC Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) {
  return reduce_detail::sum_like("sum", reduce_detail::SumKind::Sum, self, {}, false, dtype);
}
OPD_FUNC Tensor sum_dim(const Tensor& self, OptDimList dim, bool keepdim, std::optional<ScalarType> dtype) {
  return reduce_detail::sum_like("sum", reduce_detail::SumKind::Sum, self, dim.value_or(DimList()), keepdim, dtype);
}
OPD_FUNC Tensor prod(const Tensor& self, std::optional<ScalarType> dtype) {
  return reduce_detail::sum_like("prod", reduce_detail::SumKind::Prod, self, {}, false, dtype);
}
OPD_FUNC Tensor prod_dim(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  const int64_t dims[1] = {dim};
  if (self.defined() && self.dim() == 0) {  // a 0-dim input: dim is checked, nothing is reduced
    views::wrap_dim("prod", dim, 0);
    return reduce_detail::sum_like("prod", reduce_detail::SumKind::Prod, self, {}, keepdim, dtype);
  }
  return reduce_detail::sum_like("prod", reduce_detail::SumKind::Prod, self, dims, keepdim, dtype);
}

OPD_FUNC Tensor mean_dim(const Tensor& self, OptDimList dim, bool keepdim, std::optional<ScalarType> dtype) {
  reduce_detail::check_input("mean", self, /*complex_ok=*/true);
  const ScalarType t = dtype.value_or(self.dtype());
  OPD_CHECK_TYPE(is_floating_type(t) || is_complex_kernel_dtype(t), "mean(): could not infer output dtype. ",
                 dtype ? "Optional dtype" : "Input dtype", " must be either a floating point or complex dtype. Got: ", t);
  const DimList dims = dim.value_or(DimList());
  Tensor out = reduce_detail::sum_like("mean", reduce_detail::SumKind::Sum, self, dims, keepdim, t);
  if (out.is_meta()) return out;
  int64_t count = 1;
  if (dims.empty() || self.dim() == 0) {
    count = self.numel();
  } else {
    for (const int64_t d : dims) count *= self.sizes()[static_cast<std::size_t>(views::wrap_dim("mean", d, self.dim()))];
  }
  // out /= count, in out's dtype (half rounds once, from float math);
  // complex: ATen's complex division by count + 0j, (x * count) / count^2.
  if (is_complex_kernel_dtype(t)) {
    dispatch_complex_dtype(t, "mean", [&](auto tag) {
      using T = typename decltype(tag)::type;
      using R = typename T::value_type;
      T* o = static_cast<T*>(out.data_ptr());
      const auto c = static_cast<R>(count);
      for (int64_t i = 0; i < out.numel(); ++i) o[i] = T(o[i].real() * c / (c * c), o[i].imag() * c / (c * c));
    });
    return out;
  }
  dispatch_floating_dtype(t, "mean", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = static_cast<T*>(out.data_ptr());
    const auto c = static_cast<opmath_t<T>>(count);
    for (int64_t i = 0; i < out.numel(); ++i) o[i] = static_cast<T>(static_cast<opmath_t<T>>(o[i]) / c);
  });
  return out;
}
OPD_FUNC Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) { return mean_dim(self, std::nullopt, false, dtype); }

// ------------------------------------------------------------- extremes ---

OPD_FUNC Tensor amax(const Tensor& self, DimList dim, bool keepdim) {
  return reduce_detail::amax_like<true>("amax", self, dim, keepdim);
}
OPD_FUNC Tensor amin(const Tensor& self, DimList dim, bool keepdim) {
  return reduce_detail::amax_like<false>("amin", self, dim, keepdim);
}
OPD_FUNC Tensor max(const Tensor& self) { return reduce_detail::amax_like<true>("max", self, {}, false); }
OPD_FUNC Tensor min(const Tensor& self) { return reduce_detail::amax_like<false>("min", self, {}, false); }
OPD_FUNC std::tuple<Tensor, Tensor> max_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return reduce_detail::max_dim_like<true>("max", self, dim, keepdim, true);
}
OPD_FUNC std::tuple<Tensor, Tensor> min_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return reduce_detail::max_dim_like<false>("min", self, dim, keepdim, true);
}
OPD_FUNC Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return std::get<1>(reduce_detail::max_dim_like<true>("argmax", self, dim, keepdim, false));
}
OPD_FUNC Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return std::get<1>(reduce_detail::max_dim_like<false>("argmin", self, dim, keepdim, false));
}

// -------------------------------------------------------------- moments ---

OPD_FUNC Tensor var(const Tensor& self, OptDimList dim, std::optional<int64_t> correction, bool keepdim) {
  return reduce_detail::var_like("var", self, dim, correction, keepdim, false);
}
OPD_FUNC Tensor std_dev(const Tensor& self, OptDimList dim, std::optional<int64_t> correction, bool keepdim) {
  return reduce_detail::var_like("std", self, dim, correction, keepdim, true);
}

OPD_FUNC Tensor norm(const Tensor& self, const std::optional<Scalar>& p, DimList dim, bool keepdim,
                     std::optional<ScalarType> dtype) {
  reduce_detail::check_input("norm", self, /*complex_ok=*/true);
  // The input is cast to dtype= first (complex -> real keeps the real part);
  // a complex one is reduced through |z| (std::abs, as ATen's norm ops) into
  // the real dtype, which is also the result's unless dtype= says complex.
  const ScalarType in_t = dtype.value_or(self.dtype());
  const ScalarType t = dtype.value_or(real_part_dtype(self.dtype()));
  const auto floating_or_complex = [](ScalarType d) { return is_floating_type(d) || is_complex_kernel_dtype(d); };
  OPD_CHECK_TYPE(dtype || floating_or_complex(self.dtype()),
                 "norm(): input dtype should be either floating point or complex. Got ", self.dtype(), " instead.");
  OPD_CHECK_TYPE(floating_or_complex(t),
                 "norm(): the desired output dtype should be either floating point or complex. Got ", t, " instead.");
  const double pv = p ? p->to_double() : 2.0;
  reduce_detail::Plan plan = reduce_detail::make_plan("norm", self, dim, keepdim, /*memory_order=*/true);
  // Like max, a negative or infinite order has no identity on an empty row.
  OPD_CHECK(!((pv < 0 || std::isinf(pv)) && plan.inner == 0), "linalg.vector_norm cannot compute the ", pv,
            " norm on an empty tensor because the operation does not have an identity");
  if (self.is_meta()) return reduce_detail::meta_result(plan.out_sizes, t);
  Tensor rows = plan.rows;
  if (in_t != self.dtype()) rows = reduce_detail::contiguous_rows(rows, in_t);  // cast to dtype first
  const ScalarType acc = real_part_dtype(in_t) == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  if (is_complex_kernel_dtype(in_t)) {
    const Tensor z = reduce_detail::contiguous_rows(rows, in_t);
    rows = kernels::empty(z.sizes(), acc);  // acc is in_t's real dtype
    dispatch_complex_dtype(in_t, "norm", [&](auto tag) {
      using T = typename decltype(tag)::type;
      using R = typename T::value_type;
      const T* x = static_cast<const T*>(z.data_ptr());
      R* a = static_cast<R*>(rows.data_ptr());
      for (int64_t i = 0; i < z.numel(); ++i) a[i] = std::abs(x[i]);
    });
  }
  rows = reduce_detail::contiguous_rows(rows, acc);
  Tensor res = kernels::empty(plan.out_sizes, acc);
  auto run = [&](auto tag) {
    using A = typename decltype(tag)::type;
    reduce_detail::for_each_row(static_cast<const A*>(rows.data_ptr()), plan.outer, plan.inner,
                                static_cast<A*>(res.data_ptr()), [pv](const A* x, int64_t n) {
                                  return n == 0 ? A(0) : reduce_detail::norm_row(x, n, pv);
                                });
  };
  if (acc == ScalarType::Float) run(type_tag<float>{});
  else run(type_tag<double>{});
  return reduce_detail::finish(std::move(res), t);
}

OPD_FUNC Tensor logsumexp(const Tensor& self, DimList dim, bool keepdim) {
  reduce_detail::check_input("logsumexp", self);
  const ScalarType t = is_integral_type(self.dtype(), true) ? default_dtype() : self.dtype();
  return reduce_detail::logsumexp_as(self, dim, keepdim, t);
}

namespace reduce_detail {
// logsumexp rounded once to `t` (the out= variant passes out's dtype).
OPD_FUNC Tensor logsumexp_as(const Tensor& self, DimList dim, bool keepdim, ScalarType t) {
  reduce_detail::check_input("logsumexp", self);
  // ATen 1.13 computes exp through exp_vml_cpu, which has no Half loop.
  if (self.dtype() == ScalarType::Half) throw_not_implemented_for("exp_vml_cpu", self.dtype());
  reduce_detail::Plan p = reduce_detail::make_plan("logsumexp", self, dim, keepdim, /*memory_order=*/true);
  const ScalarType acc = t == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  const bool reduced = self.dtype() == ScalarType::BFloat16;  // (Half is refused above)
  if (self.is_meta()) return reduce_detail::meta_result(p.out_sizes, t);
  const Tensor rows = reduce_detail::contiguous_rows(p.rows, acc);
  Tensor res = kernels::empty(p.out_sizes, acc);
  auto run = [&](auto tag) {
    using A = typename decltype(tag)::type;
    reduce_detail::for_each_row(static_cast<const A*>(rows.data_ptr()), p.outer, p.inner,
                                static_cast<A*>(res.data_ptr()), [reduced](const A* x, int64_t n) {
                                  if (n == 0) return -std::numeric_limits<A>::infinity();
                                  A m = simd::max_row(x, n);
                                  if (std::isinf(m)) m = 0;  // ATen: infinite maxima shift by 0
                                  if (!reduced) {
                                    // exp(x - max) through the vector row (Sleef, as ATen's exp),
                                    // into this thread's buffer, then summed: a scalar exp per
                                    // element made logsumexp 4.6x ATen at 10^6.
                                    thread_local std::vector<A> shifted;
                                    shifted.resize(static_cast<std::size_t>(n));
                                    for (int64_t i = 0; i < n; ++i) shifted[static_cast<std::size_t>(i)] = x[i] - m;
                                    A* e = shifted.data();
                                    if (!simd::unary_row(UnaryOp::Exp, e, e, n))
                                      for (int64_t i = 0; i < n; ++i) e[i] = std::exp(e[i]);
                                    return std::log(reduce_detail::pairwise_sum<A>(0, n, [e](int64_t i) { return e[i]; })) + m;
                                  }
                                  // ATen computes x - max and exp() as BFloat16 tensors: round each.
                                  const A s = reduce_detail::pairwise_sum<A>(0, n, [&](int64_t i) {
                                    const A shifted = static_cast<A>(static_cast<BFloat16>(x[i] - m));
                                    return static_cast<A>(static_cast<BFloat16>(std::exp(shifted)));
                                  });
                                  return std::log(s) + m;
                                });
  };
  if (acc == ScalarType::Float) run(type_tag<float>{});
  else run(type_tag<double>{});
  return reduce_detail::finish(std::move(res), t);
}
}  // namespace reduce_detail

// ------------------------------------------------------------- logical ---

OPD_FUNC Tensor all(const Tensor& self) { return reduce_detail::all_any("all", true, self, {}, false); }
OPD_FUNC Tensor any(const Tensor& self) { return reduce_detail::all_any("any", false, self, {}, false); }
OPD_FUNC Tensor all_dim(const Tensor& self, int64_t dim, bool keepdim) {
  const int64_t dims[1] = {dim};
  if (self.defined() && self.dim() == 0) views::wrap_dim("all", dim, 0);
  return reduce_detail::all_any("all", true, self, self.defined() && self.dim() == 0 ? DimList() : DimList(dims), keepdim);
}
OPD_FUNC Tensor any_dim(const Tensor& self, int64_t dim, bool keepdim) {
  const int64_t dims[1] = {dim};
  if (self.defined() && self.dim() == 0) views::wrap_dim("any", dim, 0);
  return reduce_detail::all_any("any", false, self, self.defined() && self.dim() == 0 ? DimList() : DimList(dims), keepdim);
}

OPD_FUNC Tensor count_nonzero(const Tensor& self, DimList dim) {
  reduce_detail::check_input("count_nonzero", self, /*complex_ok=*/true);
  reduce_detail::Plan p = reduce_detail::make_plan("count_nonzero", self, dim, false);
  if (self.is_meta()) return reduce_detail::meta_result(p.out_sizes, ScalarType::Long);
  Tensor res = kernels::empty(p.out_sizes, ScalarType::Long);
  int64_t* counts = static_cast<int64_t*>(res.data_ptr());
  const auto count_rows = [&](auto tag, const Tensor& rows) {
    using T = typename decltype(tag)::type;
    // one long row (count_nonzero of everything) in chunks across threads
    reduce_detail::reduce_rows(
        static_cast<const T*>(rows.data_ptr()), p.outer, p.inner, counts,
        [](const T* x, int64_t n) { return detail::count_true(x, n); }, [](int64_t a, int64_t b) { return a + b; });
  };
  // Rows already dense are counted in their own dtype: no Bool copy of the input.
  if (is_kernel_dtype(self.dtype()) && p.rows.is_contiguous()) {
    dispatch_dtype(self.dtype(), "count_nonzero", [&](auto tag) { count_rows(tag, p.rows); });
  } else if (is_complex_kernel_dtype(self.dtype())) {  // z != 0, not the real part's truth that a cast to Bool gives
    dispatch_complex_dtype(self.dtype(), "count_nonzero", [&](auto tag) {
      count_rows(tag, reduce_detail::contiguous_rows(p.rows, scalar_type_of_v<typename decltype(tag)::type>));
    });
  } else {
    count_rows(type_tag<bool>{}, reduce_detail::contiguous_rows(p.rows, ScalarType::Bool));
  }
  return res;
}

// --------------------------------------------------------------- scans ---

OPD_FUNC Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return reduce_detail::scan("cumsum", false, self, dim, dtype);
}
OPD_FUNC Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return reduce_detail::scan("cumprod", true, self, dim, dtype);
}

}  // namespace opd::kernels
