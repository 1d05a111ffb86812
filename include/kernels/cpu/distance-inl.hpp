#pragma once
// Out-of-line part of distance.hpp (compiled in src/kernels/distance.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/distance.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/parallel.hpp"

namespace opd::kernels {

namespace distance_detail {

inline void check_device(const char* op, const Tensor& t, const char* arg) {
  OPD_CHECK(t.defined(), op, ": argument '", arg, "' is an undefined tensor");
  OPD_CHECK(t.device().is_cpu() || t.device().is_meta(), op, ": the CPU kernel got argument '", arg, "' on device ",
            t.device());
}

// ATen's per-p distances (DistanceOpsKernel.cpp): map each |a - b|, reduce
// with red, finish the aggregate.
enum class Norm { Zero, One, Two, Inf, P };
inline Norm norm_of(double p) {
  if (p == 0) return Norm::Zero;
  if (p == 1) return Norm::One;
  if (p == 2) return Norm::Two;
  if (std::isinf(p)) return Norm::Inf;
  return Norm::P;
}

// The distance of rows a and b of m elements, summed in order in T.
template <class T>
T distance(Norm n, T p, const T* a, const T* b, int64_t m) {
  T agg = 0;
  for (int64_t k = 0; k < m; ++k) {
    const T d = std::abs(a[k] - b[k]);
    switch (n) {
      case Norm::Zero: agg += d == T(0) ? T(0) : T(1); break;  // ATen: min(ceil(d), 1)
      case Norm::One: agg += d; break;
      case Norm::Two: agg += d * d; break;
      case Norm::Inf: agg = std::isnan(d) || d > agg ? d : agg; break;  // ATen's max propagates NaN
      case Norm::P: agg += std::pow(d, p); break;
    }
  }
  if (n == Norm::Two) return std::sqrt(agg);
  if (n == Norm::P) return std::pow(agg, T(1) / p);
  return agg;
}

inline Tensor contiguous_of(const Tensor& t) { return t.is_contiguous() ? t : contiguous_clone(t); }

}  // namespace distance_detail

OPD_FUNC Tensor cdist_forward(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  using namespace distance_detail;
  check_device("_cdist_forward", x1, "x1");
  check_device("_cdist_forward", x2, "x2");
  OPD_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  OPD_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  const int64_t c1 = x1.size(-1), c2 = x2.size(-1);
  OPD_CHECK(c1 == c2, "X1 and X2 must have the same number of columns. X1: ", c1, " X2: ", c2);
  OPD_CHECK(is_floating_type(x1.dtype()), "cdist only supports floating-point dtypes, X1 got: ", x1.dtype());
  OPD_CHECK(is_floating_type(x2.dtype()), "cdist only supports floating-point dtypes, X2 got: ", x2.dtype());
  OPD_CHECK(p >= 0, "cdist only supports non-negative p values");
  OPD_CHECK(x1.device() == x2.device(), "X1 and X2 must have the same device type. X1: ", x1.device(), " X2: ",
            x2.device());
  const int64_t mode = compute_mode.value_or(0);
  OPD_CHECK(mode >= 0 && mode <= 2, "possible modes: 0, 1, 2, but was: ", mode);
  OPD_CHECK(x1.dtype() == x2.dtype(), "cdist: X1 and X2 must have the same dtype. X1: ", x1.dtype(), " X2: ",
            x2.dtype());
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2);
  const std::vector<int64_t> batch = kernels::infer_size(IntArrayRef(x1.sizes().data(), static_cast<std::size_t>(x1.dim() - 2)),
                                                         IntArrayRef(x2.sizes().data(), static_cast<std::size_t>(x2.dim() - 2)));
  int64_t batches = 1;
  for (int64_t b : batch) batches *= b;
  std::vector<int64_t> out_sizes = batch;
  out_sizes.push_back(r1);
  out_sizes.push_back(r2);
  const ScalarType dt = x1.dtype();
  if (x1.is_meta() || x2.is_meta()) return opd::empty(out_sizes, dt, Device::meta());
  if (r1 == 0 || r2 == 0 || batches == 0) return opd::empty(out_sizes, dt, Device::cpu());
  if (c1 == 0) return kernels::zeros(out_sizes, dt, Device::cpu());
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for("cdist", dt);
  // both sides expanded to the batch, contiguous (B, R, M)
  const auto expanded = [&](const Tensor& x, int64_t r) {
    std::vector<int64_t> sizes = batch, strides(batch.size(), 0);
    const int64_t lead = static_cast<int64_t>(batch.size()) - (x.dim() - 2);
    for (int64_t d = 0; d < x.dim() - 2; ++d) {
      const auto o = static_cast<std::size_t>(lead + d);
      strides[o] = x.size(d) == 1 ? 0 : x.stride(d);
    }
    sizes.push_back(r);
    sizes.push_back(c1);
    strides.push_back(x.stride(-2));
    strides.push_back(x.stride(-1));
    return contiguous_clone(x.as_strided(sizes, strides, x.storage_offset()));
  };
  const Tensor a = expanded(x1, r1), b = expanded(x2, r2);
  Tensor out = opd::empty(out_sizes, dt, Device::cpu());
  const bool euclid_mm = p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)));
  const Norm n = norm_of(p);
  const int64_t m = c1, per_batch = r1 * r2;
  const auto run = [&](auto* o, const auto* pa, const auto* pb) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(pa)>>;
    const T pt = static_cast<T>(p);
    std::vector<T> norm1, norm2;
    if (euclid_mm) {  // |x|^2 of every row, as ATen's x.pow(2).sum(-1)
      norm1.resize(static_cast<std::size_t>(batches * r1));
      norm2.resize(static_cast<std::size_t>(batches * r2));
      const auto fill = [m](std::vector<T>& dst, const T* rows) {
        for (std::size_t i = 0; i < dst.size(); ++i) {
          T s = 0;
          for (int64_t k = 0; k < m; ++k) s += rows[static_cast<int64_t>(i) * m + k] * rows[static_cast<int64_t>(i) * m + k];
          dst[i] = s;
        }
      };
      fill(norm1, pa);
      fill(norm2, pb);
    }
    parallel_for(0, batches * per_batch, std::max<int64_t>(1, grain_size / (16 * m)), [&](int64_t begin, int64_t end) {
      for (int64_t e = begin; e < end; ++e) {
        const int64_t l = e / per_batch, i = (e % per_batch) / r2, j = e % r2;
        const T* row1 = pa + (l * r1 + i) * m;
        const T* row2 = pb + (l * r2 + j) * m;
        if (!euclid_mm) {
          o[e] = distance<T>(n, pt, row1, row2, m);
          continue;
        }
        // ATen's _euclidean_dist: [-2 x1, |x1|^2, 1] . [x2, 1, |x2|^2], clamped at 0, sqrt
        T dot = 0;
        for (int64_t k = 0; k < m; ++k) dot += (T(-2) * row1[k]) * row2[k];
        const T sq = dot + norm1[static_cast<std::size_t>(l * r1 + i)] + norm2[static_cast<std::size_t>(l * r2 + j)];
        o[e] = std::sqrt(std::isnan(sq) ? sq : std::max(sq, T(0)));
      }
    });
  };
  if (dt == ScalarType::Float) run(out.data_ptr<float>(), a.data_ptr<float>(), b.data_ptr<float>());
  else run(out.data_ptr<double>(), a.data_ptr<double>(), b.data_ptr<double>());
  return out;
}

OPD_FUNC Tensor pdist_forward(const Tensor& self, double p) {
  using namespace distance_detail;
  check_device("_pdist_forward", self, "self");
  OPD_CHECK(self.is_contiguous(), "_pdist_forward requires contiguous input");
  OPD_CHECK(self.dim() == 2, "_pdist_forward: expected a 2-D input (N, M), got ", self.sizes());
  const int64_t rows = self.size(0), m = self.size(1);
  const int64_t count = rows <= 1 ? 0 : rows * (rows - 1) / 2;
  const ScalarType dt = self.dtype();
  const int64_t sizes[1] = {count};
  if (self.is_meta()) return opd::empty(IntArrayRef(sizes, 1), dt, Device::meta());
  if (count == 0) return opd::empty(IntArrayRef(sizes, 1), dt, Device::cpu());
  if (m == 0) return kernels::zeros(IntArrayRef(sizes, 1), dt, Device::cpu());
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for("pdist", dt);
  Tensor out = opd::empty(IntArrayRef(sizes, 1), dt, Device::cpu());
  const Norm n = norm_of(p);
  const auto run = [&](auto* o, const auto* x) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(x)>>;
    const T pt = static_cast<T>(p);
    parallel_for(0, rows, std::max<int64_t>(1, grain_size / (16 * m * rows)), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        // pairs (i, j > i) start at i * rows - i * (i + 1) / 2
        T* dst = o + i * rows - i * (i + 1) / 2;
        for (int64_t j = i + 1; j < rows; ++j) *dst++ = distance<T>(n, pt, x + i * m, x + j * m, m);
      }
    });
  };
  if (dt == ScalarType::Float) run(out.data_ptr<float>(), self.data_ptr<float>());
  else run(out.data_ptr<double>(), self.data_ptr<double>());
  return out;
}

}  // namespace opd::kernels
