#pragma once
// Out-of-line part of fft.hpp (compiled in src/kernels/fft.cpp).
//
// Every transform works on a contiguous complex buffer of the output's (or,
// for c2r, the half spectrum's) shape: for each transformed dim in turn, each
// row along it is transformed by KISS FFT from the buffer (read with the
// dim's stride) into a scratch row, then written back; long rows through
// Bailey's four-step split (four_step_transform). r2c transforms the last dim
// first, straight from the real input into the output's rows (an even length
// as a complex transform of half the points, an odd one as complex),
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
#include <mutex>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fft.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/scratch-inl.hpp"

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

// Bailey's four-step split of a long transform, n = n1 * n2: n2 transforms of
// n1 points (the columns x[j1 * n2 + j2]), a twiddle w^(j2 * k1) on each value
// (w = e^(-+2 pi i / n)), then n1 transforms of n2 points (the rows) give
// X[k1 + n1 * k2]. kissfft's own recursion over a long signal gathers its
// leaves across the whole buffer (on 10^6 points, 40% of its time in cache
// misses); here every sub-transform works on a few KB in L1, the passes over
// the buffer read and write whole cache lines, and the sub-transforms can run
// on several threads. n1 is the divisor of n nearest below sqrt(n); 0 (no
// split) for short signals and for lengths with no divisor >= 32 there.
inline constexpr int64_t kFourStepMin = 1 << 14;

inline int64_t four_step_split(int64_t n) {
  if (n < kFourStepMin) return 0;
  auto d = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
  while (d * d > n) --d;
  for (; d >= 32; --d)
    if (n % d == 0) return d;
  return 0;
}

// The four-step twiddles, at [j2 * n1 + k1]: computed in double once per
// (n, n1, direction) and shared by the threads (read only), the last few kept.
template <class T>
std::shared_ptr<const std::vector<std::complex<T>>> four_step_twiddles(int64_t n, int64_t n1, bool inverse) {
  struct Entry {
    int64_t n, n1;
    bool inverse;
    std::shared_ptr<const std::vector<std::complex<T>>> table;
  };
  constexpr std::size_t kTables = 4;
  static std::mutex mutex;
  static std::vector<Entry> cache;  // most recent first
  {
    std::lock_guard<std::mutex> lock(mutex);
    for (std::size_t i = 0; i < cache.size(); ++i) {
      if (cache[i].n == n && cache[i].n1 == n1 && cache[i].inverse == inverse) {
        std::rotate(cache.begin(), cache.begin() + static_cast<std::ptrdiff_t>(i),
                    cache.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        return cache.front().table;
      }
    }
  }
  const int64_t n2 = n / n1;
  auto table = std::make_shared<std::vector<std::complex<T>>>(static_cast<std::size_t>(n));
  const double step = (inverse ? 2.0 : -2.0) * 3.14159265358979323846 / static_cast<double>(n);
  parallel_for(0, n2, std::max<int64_t>(1, grain_size / n1), [&](int64_t begin, int64_t end) {
    for (int64_t j2 = begin; j2 < end; ++j2)
      for (int64_t k1 = 0; k1 < n1; ++k1) {
        const double a = step * static_cast<double>((j2 * k1) % n);
        (*table)[static_cast<std::size_t>(j2 * n1 + k1)] =
            std::complex<T>(static_cast<T>(std::cos(a)), static_cast<T>(std::sin(a)));
      }
  });
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() == kTables) cache.pop_back();
  cache.insert(cache.begin(), Entry{n, n1, inverse, std::move(table)});
  return cache.front().table;
}

// out[k] = sum_j in[j * in_stride] w^(j k), k in [0, n), w = e^(-2 pi i / n)
// (e^(+2 pi i / n) for the inverse, unnormalized), through the four-step
// split n = n1 * four_step_split(n)'s n2. out may be `in` itself (stride 1):
// the columns read all of in before the rows write out.
template <class T>
void four_step_transform(const std::complex<T>* in, int64_t in_stride, std::complex<T>* out, int64_t n, int64_t n1,
                         bool inverse) {
  using C = std::complex<T>;
  const int64_t n2 = n / n1;
  const auto twiddles = four_step_twiddles<T>(n, n1, inverse);
  const C* tw = twiddles->data();
  detail::Scratch mid_block(static_cast<std::size_t>(n) * sizeof(C));
  C* mid = static_cast<C*>(mid_block.data());  // mid[j2 * n1 + k1]: column j2's transform, twiddled
  // A block of 16 columns (rows) at a time: 16 complex64 values are two
  // whole 64-byte cache lines of the strided side.
  constexpr int64_t kBlock = 16;
  parallel_for(0, (n2 + kBlock - 1) / kBlock, 1, [&](int64_t begin, int64_t end) {
    const kissfft<T>& plan = plan_for<T>(n1, inverse);
    std::vector<C> cols(static_cast<std::size_t>(kBlock * n1));
    for (int64_t b = begin; b < end; ++b) {
      const int64_t c0 = b * kBlock, cn = std::min(kBlock, n2 - c0);
      for (int64_t j1 = 0; j1 < n1; ++j1) {
        const C* src = in + (j1 * n2 + c0) * in_stride;
        for (int64_t c = 0; c < cn; ++c) cols[static_cast<std::size_t>(c * n1 + j1)] = src[c * in_stride];
      }
      for (int64_t c = 0; c < cn; ++c) {
        C* dst = mid + (c0 + c) * n1;
        plan.transform(cols.data() + c * n1, dst);
        const C* w = tw + (c0 + c) * n1;
        for (int64_t k1 = 0; k1 < n1; ++k1) {  // written out: no C99 Annex G inf/NaN recovery, as pocketfft
          const C a = dst[k1], t = w[k1];
          dst[k1] = C(a.real() * t.real() - a.imag() * t.imag(), a.real() * t.imag() + a.imag() * t.real());
        }
      }
    }
  });
  parallel_for(0, (n1 + kBlock - 1) / kBlock, 1, [&](int64_t begin, int64_t end) {
    const kissfft<T>& plan = plan_for<T>(n2, inverse);
    std::vector<C> rows(static_cast<std::size_t>(kBlock * n2)), res(static_cast<std::size_t>(kBlock * n2));
    for (int64_t b = begin; b < end; ++b) {
      const int64_t r0 = b * kBlock, rn = std::min(kBlock, n1 - r0);
      for (int64_t j2 = 0; j2 < n2; ++j2) {
        const C* src = mid + j2 * n1 + r0;
        for (int64_t c = 0; c < rn; ++c) rows[static_cast<std::size_t>(c * n2 + j2)] = src[c];
      }
      for (int64_t c = 0; c < rn; ++c) plan.transform(rows.data() + c * n2, res.data() + c * n2);
      for (int64_t k2 = 0; k2 < n2; ++k2) {
        C* dst = out + r0 + n1 * k2;
        for (int64_t c = 0; c < rn; ++c) dst[c] = res[static_cast<std::size_t>(c * n2 + k2)];
      }
    }
  });
}

// out[0, n) = the DFT of in[k * in_stride] (the unnormalized inverse when
// `inverse`): kissfft, or the four-step split for long signals. out must not
// overlap in.
template <class T>
void transform_row(const std::complex<T>* in, int64_t in_stride, std::complex<T>* out, int64_t n, bool inverse) {
  if (const int64_t n1 = four_step_split(n)) return four_step_transform(in, in_stride, out, n, n1, inverse);
  plan_for<T>(n, inverse).transform(in, out, 0, 1, static_cast<std::size_t>(in_stride));
}

// 1-D transforms of every row along dim d of the contiguous buffer `src` of
// shape `sizes`, into `dst` of the same shape (which may be src itself).
template <class T>
void transform_dim(const std::complex<T>* src, std::complex<T>* dst, const Sizes& sizes, int64_t d, bool inverse) {
  const auto ud = static_cast<std::size_t>(d);
  const int64_t n = sizes[ud];
  int64_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < ud; ++i) outer *= sizes[i];
  for (std::size_t i = ud + 1; i < sizes.size(); ++i) inner *= sizes[i];
  if (n <= 1) {  // a length-1 DFT is the identity
    if (src != dst) std::copy(src, src + outer * inner, dst);
    return;
  }
  const int64_t n1 = four_step_split(n);
  const bool four_step_in_place = inner == 1 && n1 != 0;  // the split may write its input
  parallel_for(0, outer * inner, std::max<int64_t>(1, grain_size / (8 * n)), [&](int64_t begin, int64_t end) {
    std::vector<std::complex<T>> row(static_cast<std::size_t>(four_step_in_place ? 0 : n));
    for (int64_t r = begin; r < end; ++r) {
      const std::ptrdiff_t at = (r / inner) * n * inner + r % inner;
      if (four_step_in_place) {
        four_step_transform(src + at, 1, dst + at, n, n1, inverse);
        continue;
      }
      transform_row(src + at, inner, row.data(), n, inverse);
      for (int64_t k = 0; k < n; ++k) dst[at + k * inner] = row[static_cast<std::size_t>(k)];
    }
  });
}

template <class T>
void transform_dim(std::complex<T>* data, const Sizes& sizes, int64_t d, bool inverse) {
  transform_dim(data, data, sizes, d, inverse);
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
    const int64_t n = n_last, out_m = out_sizes[static_cast<std::size_t>(last)], half = n / 2 + 1;
    int64_t inner = 1;
    for (std::size_t i = static_cast<std::size_t>(last) + 1; i < in_sizes.size(); ++i) inner *= in_sizes[i];
    // The last dim first, row by row. An even length n goes through one
    // complex transform of m = n / 2 points over the pairs z[j] = x[2j] +
    // i x[2j + 1]: with Z its spectrum and E, O the spectra of the even and
    // odd samples, E[k] = (Z[k] + conj(Z[m - k])) / 2, O[k] = (Z[k] -
    // conj(Z[m - k])) / 2i, X[k] = E[k] + e^(-2 pi i k / n) O[k] (fft_c2r
    // inverts this packing).
    // A dense row is transformed straight into its output row.
    const bool packed = n % 2 == 0, direct = packed && inner == 1;
    parallel_for(0, real.numel() / n, std::max<int64_t>(1, grain_size / (8 * n)), [&](int64_t begin, int64_t end) {
      const int64_t m = n / 2;
      const std::vector<C>* tw = packed ? &half_twiddles_for<T>(n) : nullptr;  // e^(+2 pi i k / n)
      std::vector<T> row(static_cast<std::size_t>(packed && inner != 1 ? n : 0));
      std::vector<C> in(static_cast<std::size_t>(packed ? 0 : n)), res_buffer(static_cast<std::size_t>(direct ? 0 : n));
      for (int64_t r = begin; r < end; ++r) {
        const T* srow = src + (r / inner) * n * inner + r % inner;
        C* orow = o + (r / inner) * out_m * inner + r % inner;
        C* res = direct ? orow : res_buffer.data();
        if (packed) {
          if (inner != 1) {
            for (int64_t k = 0; k < n; ++k) row[static_cast<std::size_t>(k)] = srow[k * inner];
            srow = row.data();
          }
          transform_row(reinterpret_cast<const C*>(srow), 1, res, m, false);
          const C z0 = res[0];
          const auto spectrum_at = [&](int64_t k, C a, C b) {  // X[k] from Z[k] = a, conj(Z[m - k]) = b
            const C e = (a + b) * T(0.5), d = (a - b) * T(0.5);
            const C od(d.imag(), -d.real());                      // d / i
            return e + std::conj((*tw)[static_cast<std::size_t>(k)]) * od;
          };
          for (int64_t k = 1; 2 * k <= m; ++k) {  // k and m - k together: in place
            const C zk = res[k], zmk = res[m - k];
            res[k] = spectrum_at(k, zk, std::conj(zmk));
            if (m - k != k) res[m - k] = spectrum_at(m - k, zmk, std::conj(zk));
          }
          res[0] = C(z0.real() + z0.imag(), T(0));
          res[m] = C(z0.real() - z0.imag(), T(0));
        } else {
          for (int64_t k = 0; k < n; ++k) in[static_cast<std::size_t>(k)] = C(srow[k * inner], T(0));
          transform_row(in.data(), 1, res, n, false);
        }
        if (!direct)
          for (int64_t k = 0; k < half; ++k) orow[k * inner] = res[k];
        for (int64_t k = half; k < out_m; ++k) orow[k * inner] = std::conj(res[n - k]);  // X[n-k] = conj(X[k])
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
  // The half spectrum, dense: self itself when it is (one transformed dim: it
  // is only read), else a copy (whose other dims are transformed in place).
  const Tensor spectrum = dim.size() == 1 && self.size(last) == half && self.is_contiguous()
                              ? self
                              : contiguous_clone(narrowed(self, last, half));
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
    // An even length: the inverse of fft_r2c's packing of the pairs, a
    // complex inverse transform of m = n / 2 points whose value j holds
    // samples 2j (real part) and 2j + 1 (imaginary part): Z[k] = E[k] + i O[k],
    // E and O the spectra of the even and odd samples,
    //   E[k] = (X[k] + conj(X[m - k])) / 2, O[k] = (X[k] - conj(X[m - k])) / 2 e^(2 pi i k / n);
    // the imaginary parts of X[0] and X[m] are ignored (as pocketfft's c2r).
    const bool packed = n % 2 == 0;
    parallel_for(0, rows, std::max<int64_t>(1, grain_size / (8 * n)), [&](int64_t begin, int64_t end) {
      if (packed) {
        const int64_t m = n / 2;
        const std::vector<C>& tw = half_twiddles_for<T>(n);
        // A dense row builds z in its output row (n reals: m complex values)
        // and transforms it there (the four-step split works in place).
        const bool direct = inner == 1, in_place = direct && four_step_split(m) != 0;
        std::vector<C> z_buffer(static_cast<std::size_t>(direct ? 0 : m)),
            res_buffer(static_cast<std::size_t>(in_place ? 0 : m));
        // E and O hold halves: 0.5 * 2, and fct normalizes as for n points.
        const auto z_at = [&](int64_t k, C a, C b) {  // from X[k] = a, conj(X[m - k]) = b
          const C e = (a + b) * fct, od = (a - b) * fct * tw[static_cast<std::size_t>(k)];
          return C(e.real() - od.imag(), e.imag() + od.real());  // e + i od
        };
        for (int64_t r = begin; r < end; ++r) {
          const int64_t outer_i = r / inner, inner_i = r % inner;
          const C* hrow = h + outer_i * half * inner + inner_i;
          T* orow = o + outer_i * n * inner + inner_i;
          C* z = direct ? reinterpret_cast<C*>(orow) : z_buffer.data();
          z[0] = z_at(0, C(hrow[0].real(), T(0)), C(hrow[m * inner].real(), T(0)));
          for (int64_t k = 1; k < m; ++k) z[k] = z_at(k, hrow[k * inner], std::conj(hrow[(m - k) * inner]));
          if (in_place) {
            four_step_transform(z, 1, z, m, four_step_split(m), true);
            continue;
          }
          transform_row(z, 1, res_buffer.data(), m, true);
          if (direct) {
            std::copy(res_buffer.begin(), res_buffer.end(), z);
            continue;
          }
          for (int64_t j = 0; j < m; ++j) {
            orow[2 * j * inner] = res_buffer[static_cast<std::size_t>(j)].real();
            orow[(2 * j + 1) * inner] = res_buffer[static_cast<std::size_t>(j)].imag();
          }
        }
        return;
      }
      std::vector<C> full(static_cast<std::size_t>(n)), res(static_cast<std::size_t>(n));
      for (int64_t r = begin; r < end; ++r) {
        const int64_t outer_i = r / inner, inner_i = r % inner;
        const C* hrow = h + outer_i * half * inner + inner_i;
        T* orow = o + outer_i * n * inner + inner_i;
        // the Hermitian row: X[n - k] = conj(X[k])
        for (int64_t k = 0; k < half; ++k) full[static_cast<std::size_t>(k)] = hrow[k * inner];
        for (int64_t k = half; k < n; ++k) full[static_cast<std::size_t>(k)] = std::conj(hrow[(n - k) * inner]);
        transform_row(full.data(), 1, res.data(), n, true);
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
  // The first dim reads self (when dense) and writes out; the others transform out in place.
  const Tensor src = self.is_contiguous() ? self : contiguous_clone(self);
  Tensor out = opd::empty(sizes, dt, Device::cpu());
  const auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::complex<T>* o = out.data_ptr<std::complex<T>>();
    transform_dim(src.data_ptr<std::complex<T>>(), o, sizes, dim[0], !forward);
    for (std::size_t i = 1; i < dim.size(); ++i) transform_dim(o, sizes, dim[i], !forward);
    scale(o, out.numel(), norm_factor<T>(normalization, sizes, dim));
  };
  if (dt == ScalarType::ComplexFloat) run(type_tag<float>{});
  else run(type_tag<double>{});
  return out;
}

}  // namespace opd::kernels
