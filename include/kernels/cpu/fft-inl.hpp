#pragma once
// Out-of-line part of fft.hpp (compiled in src/kernels/fft.cpp).
//
// Every transform works on a contiguous complex buffer of the output's (or,
// for c2r, the half spectrum's) shape: for each transformed dim in turn, each
// row along it is transformed by KISS FFT from the buffer (read with the
// dim's stride) into a scratch row, then written back. r2c transforms the
// last dim first, straight from the real input into the output's rows (an
// even length through kissfft's real transform, an odd one as complex),
// keeping n/2 + 1 entries or completing the rest by symmetry, then the other
// dims (as pocketfft does); c2r transforms the other dims of the half
// spectrum, then builds each Hermitian row of the last dim and keeps the real
// part of its inverse (which ignores the imaginary parts of entries 0 and
// n/2, as pocketfft does).
#include <kissfft/kissfft.hh>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fft.hpp"
#include "kernels/cpu/parallel.hpp"

namespace opd::kernels {

namespace fft_detail {

using Sizes = std::vector<int64_t>;

inline void check_self(const char* op, const Tensor& self) {
  OPD_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  OPD_CHECK(self.device().is_cpu() || self.device().is_meta(), op, ": the CPU kernel got argument 'self' on device ",
            self.device());
}

// The transformed dims: at least one, each in [0, self.dim()) (ATen's
// kernels take the frontends' wrapped dims and reject others as a "bad axis
// number"), unique, each of a nonzero signal length.
inline void check_dims(const char* op, const Tensor& self, IntArrayRef dim) {
  OPD_CHECK(!dim.empty(), op, ": argument 'dim' must name at least one dimension");
  for (std::size_t i = 0; i < dim.size(); ++i) {
    const int64_t d = dim[i];
    OPD_CHECK(d >= 0 && d < self.dim(), op, ": argument 'dim' has ", d, ", a bad axis number for a ", self.dim(),
              "-D input (expected 0 to ", self.dim() - 1, ")");
    for (std::size_t j = 0; j < i; ++j) OPD_CHECK(dim[j] != d, op, ": argument 'dim' names dimension ", d, " twice");
    OPD_CHECK(self.size(d) >= 1, op, ": Invalid number of data points (0) specified: dimension ", d,
              " of 'self' is empty (ATen 1.13 returns uninitialized values)");
  }
}

inline void check_normalization(const char* op, int64_t normalization) {
  OPD_CHECK(normalization >= 0 && normalization <= 2, op, ": Unsupported normalization type ", normalization,
            " (argument 'normalization': 0 none, 1 by 1/sqrt(n), 2 by 1/n)");
}

// ATen's compute_fct, in the transform's precision.
template <class T>
T norm_factor(int64_t normalization, const Sizes& signal, IntArrayRef dim) {
  int64_t n = 1;
  for (int64_t d : dim) n *= signal[static_cast<std::size_t>(d)];
  if (normalization == 1) return T(1) / std::sqrt(static_cast<T>(n));
  if (normalization == 2) return T(1) / static_cast<T>(n);
  return T(1);
}

// A kissfft plan computes its n twiddles with std::exp (40 ms for n = 10^6,
// half of a transform's time) and keeps a mutable scratch buffer: each thread
// keeps its last few plans, as pocketfft keeps an LRU cache of plans.
template <class T>
const kissfft<T>& plan_for(int64_t n, bool inverse) {
  struct Entry {
    int64_t n;
    bool inverse;
    kissfft<T> plan;
  };
  constexpr std::size_t kPlans = 8;
  thread_local std::vector<std::unique_ptr<Entry>> cache;
  for (std::size_t i = 0; i < cache.size(); ++i) {
    if (cache[i]->n == n && cache[i]->inverse == inverse) {
      std::rotate(cache.begin(), cache.begin() + static_cast<std::ptrdiff_t>(i),
                  cache.begin() + static_cast<std::ptrdiff_t>(i) + 1);  // most recent first
      return cache.front()->plan;
    }
  }
  if (cache.size() == kPlans) cache.pop_back();
  cache.insert(cache.begin(), std::make_unique<Entry>(Entry{n, inverse, kissfft<T>(static_cast<std::size_t>(n), inverse)}));
  return cache.front()->plan;
}

// e^(+2 pi i k / n) for k in [0, n / 2): the twiddles that split an inverse
// real transform of even n into a complex one of n / 2 points (fft_c2r),
// computed once per n and thread (in double), as plan_for keeps plans.
template <class T>
const std::vector<std::complex<T>>& half_twiddles_for(int64_t n) {
  constexpr std::size_t kTables = 8;
  thread_local std::vector<std::pair<int64_t, std::vector<std::complex<T>>>> cache;
  for (std::size_t i = 0; i < cache.size(); ++i) {
    if (cache[i].first == n) {
      std::rotate(cache.begin(), cache.begin() + static_cast<std::ptrdiff_t>(i),
                  cache.begin() + static_cast<std::ptrdiff_t>(i) + 1);
      return cache.front().second;
    }
  }
  if (cache.size() == kTables) cache.pop_back();
  std::vector<std::complex<T>> w(static_cast<std::size_t>(n / 2));
  const double pi = 3.14159265358979323846;
  for (int64_t k = 0; k < n / 2; ++k) {
    const double a = 2.0 * pi * static_cast<double>(k) / static_cast<double>(n);
    w[static_cast<std::size_t>(k)] = std::complex<T>(static_cast<T>(std::cos(a)), static_cast<T>(std::sin(a)));
  }
  cache.insert(cache.begin(), {n, std::move(w)});
  return cache.front().second;
}

// 1-D transforms of every row along dim d of the contiguous buffer `data` of
// shape `sizes`, in place.
template <class T>
void transform_dim(std::complex<T>* data, const Sizes& sizes, int64_t d, bool inverse) {
  const auto ud = static_cast<std::size_t>(d);
  const int64_t n = sizes[ud];
  int64_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < ud; ++i) outer *= sizes[i];
  for (std::size_t i = ud + 1; i < sizes.size(); ++i) inner *= sizes[i];
  if (n <= 1) return;  // a length-1 DFT is the identity
  parallel_for(0, outer * inner, std::max<int64_t>(1, grain_size / (8 * n)), [&](int64_t begin, int64_t end) {
    const kissfft<T>& plan = plan_for<T>(n, inverse);
    std::vector<std::complex<T>> row(static_cast<std::size_t>(n));
    for (int64_t r = begin; r < end; ++r) {
      std::complex<T>* base = data + (r / inner) * n * inner + r % inner;
      plan.transform(base, row.data(), 0, 1, static_cast<std::size_t>(inner));
      for (int64_t k = 0; k < n; ++k) base[k * inner] = row[static_cast<std::size_t>(k)];
    }
  });
}

template <class T>
void scale(std::complex<T>* data, int64_t numel, T fct) {
  if (fct == T(1)) return;
  for (int64_t i = 0; i < numel; ++i) data[i] *= fct;
}

// self narrowed to its first `length` entries along d (a view).
inline Tensor narrowed(const Tensor& self, int64_t d, int64_t length) {
  Sizes sizes(self.sizes().begin(), self.sizes().end());
  sizes[static_cast<std::size_t>(d)] = length;
  return self.as_strided(sizes, self.strides(), self.storage_offset());
}

inline Sizes sizes_of(const Tensor& t) { return Sizes(t.sizes().begin(), t.sizes().end()); }

}  // namespace fft_detail

OPD_FUNC Tensor fft_r2c(const Tensor& self, IntArrayRef dim, int64_t normalization, bool onesided) {
  using namespace fft_detail;
  constexpr const char* op = "aten::_fft_r2c";
  check_self(op, self);
  OPD_CHECK(is_floating_type(self.dtype()), op, ": expected a floating-point argument 'self', got ", self.dtype());
  check_dims(op, self, dim);
  check_normalization(op, normalization);
  const Sizes in_sizes = sizes_of(self);
  const int64_t last = dim.back();
  const int64_t n_last = in_sizes[static_cast<std::size_t>(last)];
  Sizes out_sizes = in_sizes;
  if (onesided) out_sizes[static_cast<std::size_t>(last)] = n_last / 2 + 1;
  const ScalarType dt = self.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for("_fft_r2c", dt);
  const ScalarType out_dt = dt == ScalarType::Float ? ScalarType::ComplexFloat : ScalarType::ComplexDouble;
  if (self.is_meta()) return opd::empty(out_sizes, out_dt, Device::meta());
  const Tensor real = self.is_contiguous() ? self : contiguous_clone(self);
  Tensor out = opd::empty(out_sizes, out_dt, Device::cpu());
  const auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = std::complex<T>;
    const T* src = real.data_ptr<T>();
    C* o = out.data_ptr<C>();
    const int64_t n = n_last, m = out_sizes[static_cast<std::size_t>(last)], half = n / 2 + 1;
    int64_t inner = 1;
    for (std::size_t i = static_cast<std::size_t>(last) + 1; i < in_sizes.size(); ++i) inner *= in_sizes[i];
    // The last dim first, row by row. An even length is kissfft's
    // transform_real: a complex FFT of n/2 points over the pairs, which packs
    // the (real) entries 0 and n/2 into its first value.
    const bool packed = n % 2 == 0;
    parallel_for(0, real.numel() / n, std::max<int64_t>(1, grain_size / (8 * n)), [&](int64_t begin, int64_t end) {
      const kissfft<T>& plan = plan_for<T>(packed ? n / 2 : n, false);
      std::vector<T> row(static_cast<std::size_t>(n));
      std::vector<C> in(static_cast<std::size_t>(packed ? 0 : n)), res(static_cast<std::size_t>(n));
      for (int64_t r = begin; r < end; ++r) {
        const T* srow = src + (r / inner) * n * inner + r % inner;
        C* orow = o + (r / inner) * m * inner + r % inner;
        if (packed) {
          for (int64_t k = 0; k < n; ++k) row[static_cast<std::size_t>(k)] = srow[k * inner];
          plan.transform_real(row.data(), res.data());
          res[static_cast<std::size_t>(n / 2)] = C(res[0].imag(), T(0));
          res[0] = C(res[0].real(), T(0));
        } else {
          for (int64_t k = 0; k < n; ++k) in[static_cast<std::size_t>(k)] = C(srow[k * inner], T(0));
          plan.transform(in.data(), res.data());
        }
        for (int64_t k = 0; k < half; ++k) orow[k * inner] = res[static_cast<std::size_t>(k)];
        for (int64_t k = half; k < m; ++k) orow[k * inner] = std::conj(res[static_cast<std::size_t>(n - k)]);  // X[n-k] = conj(X[k])
      }
    });
    for (std::size_t i = 0; i + 1 < dim.size(); ++i) transform_dim(o, out_sizes, dim[i], false);
    scale(o, out.numel(), norm_factor<T>(normalization, in_sizes, dim));
  };
  if (dt == ScalarType::Float) run(type_tag<float>{});
  else run(type_tag<double>{});
  return out;
}

OPD_FUNC Tensor fft_c2r(const Tensor& self, IntArrayRef dim, int64_t normalization, int64_t last_dim_size) {
  using namespace fft_detail;
  constexpr const char* op = "aten::_fft_c2r";
  check_self(op, self);
  OPD_CHECK(is_complex_type(self.dtype()), op, ": expected a complex argument 'self', got ", self.dtype());
  check_dims(op, self, dim);
  check_normalization(op, normalization);
  OPD_CHECK(last_dim_size >= 1, op, ": Invalid number of data points (", last_dim_size,
            ") specified (argument 'last_dim_size')");
  const int64_t last = dim.back();
  const auto ulast = static_cast<std::size_t>(last);
  const int64_t half = last_dim_size / 2 + 1;
  OPD_CHECK(self.size(last) >= half, op, ": argument 'last_dim_size' is ", last_dim_size, ", which reads ", half,
            " entries of dimension ", last, " of 'self', which has ", self.size(last));
  const ScalarType dt = self.dtype();
  if (!is_complex_kernel_dtype(dt)) throw_not_implemented_for("_fft_c2r", dt);
  Sizes out_sizes = sizes_of(self);
  out_sizes[ulast] = last_dim_size;
  const ScalarType out_dt = dt == ScalarType::ComplexFloat ? ScalarType::Float : ScalarType::Double;
  if (self.is_meta()) return opd::empty(out_sizes, out_dt, Device::meta());
  Tensor spectrum = contiguous_clone(narrowed(self, last, half));
  Tensor out = opd::empty(out_sizes, out_dt, Device::cpu());
  const auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = std::complex<T>;
    C* h = spectrum.data_ptr<C>();
    const Sizes h_sizes = sizes_of(spectrum);
    for (std::size_t i = 0; i + 1 < dim.size(); ++i) transform_dim(h, h_sizes, dim[i], true);
    const T fct = norm_factor<T>(normalization, out_sizes, dim);
    const int64_t n = last_dim_size;
    int64_t inner = 1;
    for (std::size_t i = ulast + 1; i < out_sizes.size(); ++i) inner *= out_sizes[i];
    const int64_t rows = out.numel() / n;
    T* o = out.data_ptr<T>();
    // An even length: the inverse of kissfft's transform_real packing, a
    // complex inverse transform of m = n / 2 points whose value j holds
    // samples 2j (real part) and 2j + 1 (imaginary part): Z[k] = E[k] + i O[k],
    // E and O the spectra of the even and odd samples,
    //   E[k] = (X[k] + conj(X[m - k])) / 2, O[k] = (X[k] - conj(X[m - k])) / 2 e^(2 pi i k / n);
    // the imaginary parts of X[0] and X[m] are ignored (as pocketfft's c2r).
    const bool packed = n % 2 == 0;
    parallel_for(0, rows, std::max<int64_t>(1, grain_size / (8 * n)), [&](int64_t begin, int64_t end) {
      if (packed) {
        const int64_t m = n / 2;
        const kissfft<T>& plan = plan_for<T>(m, true);
        const std::vector<C>& tw = half_twiddles_for<T>(n);
        std::vector<C> z(static_cast<std::size_t>(m)), res(static_cast<std::size_t>(m));
        const T twice = T(2) * fct;  // E and O hold halves; fct normalizes as for n points
        for (int64_t r = begin; r < end; ++r) {
          const int64_t outer_i = r / inner, inner_i = r % inner;
          const C* hrow = h + outer_i * half * inner + inner_i;
          T* orow = o + outer_i * n * inner + inner_i;
          for (int64_t k = 0; k < m; ++k) {
            const C a = k == 0 ? C(hrow[0].real(), T(0)) : hrow[k * inner];
            const C b = k == 0 ? C(hrow[m * inner].real(), T(0)) : std::conj(hrow[(m - k) * inner]);
            const C e = (a + b) * T(0.5), od = (a - b) * T(0.5) * tw[static_cast<std::size_t>(k)];
            z[static_cast<std::size_t>(k)] = C(e.real() - od.imag(), e.imag() + od.real());  // e + i od
          }
          plan.transform(z.data(), res.data());
          for (int64_t j = 0; j < m; ++j) {
            orow[2 * j * inner] = res[static_cast<std::size_t>(j)].real() * twice;
            orow[(2 * j + 1) * inner] = res[static_cast<std::size_t>(j)].imag() * twice;
          }
        }
        return;
      }
      const kissfft<T>& plan = plan_for<T>(n, true);
      std::vector<C> full(static_cast<std::size_t>(n)), res(static_cast<std::size_t>(n));
      for (int64_t r = begin; r < end; ++r) {
        const int64_t outer_i = r / inner, inner_i = r % inner;
        const C* hrow = h + outer_i * half * inner + inner_i;
        T* orow = o + outer_i * n * inner + inner_i;
        // the Hermitian row: X[n - k] = conj(X[k])
        for (int64_t k = 0; k < half; ++k) full[static_cast<std::size_t>(k)] = hrow[k * inner];
        for (int64_t k = half; k < n; ++k) full[static_cast<std::size_t>(k)] = std::conj(hrow[(n - k) * inner]);
        plan.transform(full.data(), res.data());
        for (int64_t k = 0; k < n; ++k) orow[k * inner] = res[static_cast<std::size_t>(k)].real() * fct;
      }
    });
  };
  if (dt == ScalarType::ComplexFloat) run(type_tag<float>{});
  else run(type_tag<double>{});
  return out;
}

OPD_FUNC Tensor fft_c2c(const Tensor& self, IntArrayRef dim, int64_t normalization, bool forward) {
  using namespace fft_detail;
  constexpr const char* op = "aten::_fft_c2c";
  check_self(op, self);
  OPD_CHECK(is_complex_type(self.dtype()), op, ": expected a complex argument 'self', got ", self.dtype());
  check_dims(op, self, dim);
  check_normalization(op, normalization);
  const ScalarType dt = self.dtype();
  if (!is_complex_kernel_dtype(dt)) throw_not_implemented_for("_fft_c2c", dt);
  const Sizes sizes = sizes_of(self);
  if (self.is_meta()) return opd::empty(sizes, dt, Device::meta());
  Tensor out = contiguous_clone(self);
  const auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::complex<T>* o = out.data_ptr<std::complex<T>>();
    for (int64_t d : dim) transform_dim(o, sizes, d, !forward);
    scale(o, out.numel(), norm_factor<T>(normalization, sizes, dim));
  };
  if (dt == ScalarType::ComplexFloat) run(type_tag<float>{});
  else run(type_tag<double>{});
  return out;
}

}  // namespace opd::kernels
