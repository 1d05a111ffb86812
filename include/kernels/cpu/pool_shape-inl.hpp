#pragma once
// Shapes and checks shared by the pooling kernels (nn-inl.hpp: max_pool2d,
// avg_pool2d, adaptive_avg_pool2d and their backward; pooling-inl.hpp: max_pool2d_with_indices):
// ATen's pooling_output_shape and pool2d_shape_check, the output of a pool,
// the loop over (batch, plane) pairs and the max-pool window walk. Inline only: included by the
// translation units that compile those kernels.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/reduce_simd.hpp"

namespace opd::kernels::detail {

// The kernels are also the Meta kernels: every check runs on Meta
// tensors too, and a Meta input gets its Meta output right after the output's
// sizes are known, before anything is read (so both devices raise the same
// errors, and Meta computes nothing).
inline void nn_check_cpu(const char* op, const Tensor& t, const char* arg) {
  OPD_CHECK(t.defined(), op, ": argument '", arg, "' is an undefined tensor");
  OPD_CHECK(t.device().is_cpu() || t.device().is_meta(), op, ": the CPU kernel got argument '", arg, "' on device ",
            t.device());
}

// ATen's pooling_output_shape (pad on both sides, floor or ceil mode).
inline int64_t pooling_output_size(int64_t input, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation,
                                   bool ceil_mode) {
  OPD_CHECK(stride != 0, "stride should not be zero");
  OPD_CHECK(pad >= 0, "pad must be non-negative, but got pad: ", pad);
  OPD_CHECK(pad <= kernel / 2, "pad should be at most half of kernel size, but got pad=", pad,
            " and kernel_size=", kernel);
  const int64_t num = input + 2 * pad - dilation * (kernel - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = (num >= 0 ? num / stride : -((-num + stride - 1) / stride)) + 1;  // floor division
  if (ceil_mode && (out - 1) * stride >= input + pad) --out;
  return out;
}

struct Pool2dShape {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  int64_t batch, planes, ih, iw, oh, ow;
};

inline int64_t pick(std::span<const int64_t> v, std::size_t i) { return v.size() == 1 ? v[0] : v[i]; }

// ATen's pool2d_shape_check after the output sizes are known.
inline void pool2d_shape_check(const Tensor& input, const Pool2dShape& s) {
  OPD_CHECK(s.kw > 0 && s.kh > 0, "kernel size should be greater than zero, but got kH: ", s.kh, " kW: ", s.kw);
  OPD_CHECK(s.sw > 0 && s.sh > 0, "stride should be greater than zero, but got dH: ", s.sh, " dW: ", s.sw);
  OPD_CHECK(s.dh > 0 && s.dw > 0, "dilation should be greater than zero, but got dilationH: ", s.dh,
            " dilationW: ", s.dw);
  const int64_t nd = input.dim();
  const bool valid_dims = input.size(1) != 0 && input.size(2) != 0;
  OPD_CHECK((nd == 3 && input.size(0) != 0 && valid_dims) || (nd == 4 && valid_dims && input.size(3) != 0),
            "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:", input.sizes());
  OPD_CHECK(s.kw / 2 >= s.pw && s.kh / 2 >= s.ph,
            "pad should be smaller than or equal to half of kernel size, but got padW = ", s.pw, ", padH = ", s.ph,
            ", kW = ", s.kw, ", kH = ", s.kh);
  OPD_CHECK(s.ow >= 1 && s.oh >= 1, "Given input size: (", s.planes, "x", s.ih, "x", s.iw, "). ",
            "Calculated output size: (", s.planes, "x", s.oh, "x", s.ow, "). ", "Output size is too small");
}

// The output of a pool over (batch, planes, ih, iw), shaped like the input (3-D or 4-D).
inline Tensor pool_output(const Tensor& input, const Pool2dShape& s) {
  if (input.dim() == 3) return opd::empty(std::vector<int64_t>{s.planes, s.oh, s.ow}, input.dtype(), input.device());
  return opd::empty(std::vector<int64_t>{s.batch, s.planes, s.oh, s.ow}, input.dtype(), input.device());
}

// Runs f(plane_index) for every (batch, plane) pair, split across threads by work.
template <class F>
void for_each_plane(const Pool2dShape& s, int64_t work_per_plane, const F& f) {
  const int64_t planes = s.batch * s.planes;
  const int64_t grain = std::max<int64_t>(1, grain_size / std::max<int64_t>(work_per_plane, 1));
  parallel_for(0, planes, grain, [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) f(p);
  });
}

// A max pool's backward: every index in [0, size) before anything is written
// (ATen writes past the plane). One vectorized max over the indices read as
// unsigned (a negative one reads as a huge one); the message names the first
// bad one. `what`: "plane" or "volume".
inline void check_pool_indices(const char* op, const int64_t* idx, int64_t n, int64_t size, const char* what) {
  if (simd::max_row(reinterpret_cast<const uint64_t*>(idx), n) < static_cast<uint64_t>(size)) return;
  for (int64_t k = 0; k < n; ++k)
    OPD_CHECK(idx[k] >= 0 && idx[k] < size, op, ": index ", idx[k], " out of range for a ", what, " of ", size,
              " elements");
}

// The output columns [x_lo, x_hi) of one row, whose windows lie inside the
// input row, for float and double (SW: the column stride when it is a
// constant, else 0), in passes across the columns that the compiler
// vectorizes: the maxima tap by tap, then the index of each window's first
// maximum (the taps in reverse, a select per tap), then, if a window's
// maximum is NaN, its last NaN. The scalar loop with its data-dependent
// branch took 20 ns per 3x3 window (resnet18's pool: 4.5 ms at batch 1).
template <class T, int64_t SW>
void max_pool_row_interior(const Pool2dShape& s, const T* plane, int64_t h0, int64_t h1, int64_t x_lo, int64_t x_hi,
                           T* __restrict dst, int64_t* __restrict dst_index) {
  const int64_t sw = SW != 0 ? SW : s.sw, n = x_hi - x_lo;
  T* __restrict d = dst + x_lo;
  for (int64_t i = 0; i < n; ++i) d[i] = -std::numeric_limits<T>::infinity();
  const auto tap_offset = [&](int64_t h, int64_t j) { return h * s.iw - s.pw + j * s.dw + x_lo * sw; };
  for (int64_t h = h0; h < h1; h += s.dh) {
    for (int64_t j = 0; j < s.kw; ++j) {
      const T* __restrict src = plane + tap_offset(h, j);
      for (int64_t i = 0; i < n; ++i) {
        const T v = src[i * sw];
        d[i] = ((v > d[i]) | (v != v)) ? v : d[i];
      }
    }
  }
  if (dst_index == nullptr) return;
  int64_t* __restrict ix = dst_index + x_lo;
  const int64_t last_h = h0 >= h1 ? h0 : h0 + (h1 - 1 - h0) / s.dh * s.dh;
  for (int64_t i = 0; i < n; ++i) ix[i] = tap_offset(h0, 0) + i * sw;  // an all -inf window: its first tap
  bool any_nan = false;
  for (int64_t i = 0; i < n; ++i) any_nan |= d[i] != d[i];
  for (int64_t h = last_h; h >= h0 && h0 < h1; h -= s.dh) {
    for (int64_t j = s.kw - 1; j >= 0; --j) {
      const int64_t off = tap_offset(h, j);
      const T* __restrict src = plane + off;
      for (int64_t i = 0; i < n; ++i) ix[i] = src[i * sw] == d[i] ? off + i * sw : ix[i];
    }
  }
  if (!any_nan) return;
  for (int64_t h = h0; h < h1; h += s.dh) {
    for (int64_t j = 0; j < s.kw; ++j) {
      const int64_t off = tap_offset(h, j);
      const T* __restrict src = plane + off;
      for (int64_t i = 0; i < n; ++i) ix[i] = ((src[i * sw] != src[i * sw]) & (d[i] != d[i])) ? off + i * sw : ix[i];
    }
  }
}

// The max over each window of every plane of `in` (contiguous planes of
// ih x iw) into `out`, and, when `indices` is not null, the flat index in its
// plane of each maximum: max_pool2d and max_pool2d_with_indices share it. A
// NaN wins its window (the last one in scan order), as in ATen; an all -inf
// window gives the index of its first element (ATen's cpu_max_pool).
// BFloat16 is compared as float (exact).
template <class T>
void max_pool_planes(const Pool2dShape& s, const T* in, T* out, int64_t* indices) {
  using M = std::conditional_t<std::is_floating_point_v<T>, T, float>;
  // Output columns whose windows need no clipping: xo * sw - pw >= 0 and
  // xo * sw - pw + (kw - 1) * dw < iw.
  const int64_t x_lo = std::min(s.ow, (s.pw + s.sw - 1) / s.sw);
  const int64_t last = s.iw - 1 + s.pw - (s.kw - 1) * s.dw;
  const int64_t x_hi = std::max(x_lo, std::min(s.ow, last < 0 ? int64_t{0} : last / s.sw + 1));
  for_each_plane(s, s.oh * s.ow * s.kh * s.kw, [&](int64_t p) {
    const T* plane = in + p * s.ih * s.iw;
    T* dst = out + p * s.oh * s.ow;
    int64_t* dst_index = indices == nullptr ? nullptr : indices + p * s.oh * s.ow;
    for (int64_t y = 0; y < s.oh; ++y) {
      int64_t h0 = y * s.sh - s.ph;
      const int64_t h1 = std::min(h0 + (s.kh - 1) * s.dh + 1, s.ih);
      while (h0 < 0) h0 += s.dh;
      const auto scalar_columns = [&](int64_t x_begin, int64_t x_end) {
        for (int64_t xo = x_begin; xo < x_end; ++xo) {
          int64_t w0 = xo * s.sw - s.pw;
          const int64_t w1 = std::min(w0 + (s.kw - 1) * s.dw + 1, s.iw);
          while (w0 < 0) w0 += s.dw;
          int64_t best_index = h0 * s.iw + w0;
          M best = -std::numeric_limits<M>::infinity();
          for (int64_t h = h0; h < h1; h += s.dh) {
            for (int64_t w = w0; w < w1; w += s.dw) {
              const M v = static_cast<M>(plane[h * s.iw + w]);
              if (v > best || std::isnan(v)) {
                best = v;
                best_index = h * s.iw + w;
              }
            }
          }
          dst[y * s.ow + xo] = static_cast<T>(best);
          if (dst_index != nullptr) dst_index[y * s.ow + xo] = best_index;
        }
      };
      if constexpr (std::is_floating_point_v<T>) {
        T* row = dst + y * s.ow;
        int64_t* row_index = dst_index == nullptr ? nullptr : dst_index + y * s.ow;
        scalar_columns(0, x_lo);
        if (s.sw == 1) max_pool_row_interior<T, 1>(s, plane, h0, h1, x_lo, x_hi, row, row_index);
        else if (s.sw == 2) max_pool_row_interior<T, 2>(s, plane, h0, h1, x_lo, x_hi, row, row_index);
        else max_pool_row_interior<T, 0>(s, plane, h0, h1, x_lo, x_hi, row, row_index);
        scalar_columns(x_hi, s.ow);
      } else {
        scalar_columns(0, s.ow);
      }
    }
  });
}

// max_pool2d's arguments read as ATen's max_pool2d_with_indices reads them,
// with its checks, and the output sizes.
inline Pool2dShape max_pool2d_shape(const char* name, const Tensor& self, std::span<const int64_t> kernel_size,
                                    std::span<const int64_t> stride, std::span<const int64_t> padding,
                                    std::span<const int64_t> dilation, bool ceil_mode) {
  nn_check_cpu(name, self, "self");
  OPD_CHECK(kernel_size.size() == 1 || kernel_size.size() == 2,
            "max_pool2d: kernel_size must either be a single int, or a tuple of two ints");
  OPD_CHECK(stride.empty() || stride.size() == 1 || stride.size() == 2,
            "max_pool2d: stride must either be omitted, a single int, or a tuple of two ints");
  OPD_CHECK(padding.size() == 1 || padding.size() == 2,
            "max_pool2d: padding must be either be a single int, or a tuple of two ints");
  OPD_CHECK(dilation.size() == 1 || dilation.size() == 2,
            "max_pool2d: dilation must be either a single int, or a tuple of two ints");
  Pool2dShape s{};
  s.kh = kernel_size[0];
  s.kw = pick(kernel_size, 1);
  s.sh = stride.empty() ? s.kh : stride[0];
  s.sw = stride.empty() ? s.kw : pick(stride, 1);
  s.ph = padding[0];
  s.pw = pick(padding, 1);
  s.dh = dilation[0];
  s.dw = pick(dilation, 1);
  OPD_CHECK(self.dim() == 3 || self.dim() == 4, "non-empty 3D or 4D (batch mode) tensor expected for input");
  s.batch = self.dim() == 4 ? self.size(0) : 1;
  s.planes = self.size(self.dim() - 3);
  s.ih = self.size(self.dim() - 2);
  s.iw = self.size(self.dim() - 1);
  s.oh = pooling_output_size(s.ih, s.kh, s.ph, s.sh, s.dh, ceil_mode);
  s.ow = pooling_output_size(s.iw, s.kw, s.pw, s.sw, s.dw, ceil_mode);
  pool2d_shape_check(self, s);
  return s;
}

// avg_pool2d's arguments read as ATen's avg_pool2d reads them, with its
// checks, and the output sizes (dilation 1).
inline Pool2dShape avg_pool2d_shape(const char* name, const Tensor& self, std::span<const int64_t> kernel_size,
                                    std::span<const int64_t> stride, std::span<const int64_t> padding,
                                    bool ceil_mode, std::optional<int64_t> divisor_override) {
  nn_check_cpu(name, self, "self");
  OPD_CHECK(kernel_size.size() == 1 || kernel_size.size() == 2,
            "avg_pool2d: kernel_size must either be a single int, or a tuple of two ints");
  OPD_CHECK(stride.empty() || stride.size() == 1 || stride.size() == 2,
            "avg_pool2d: stride must either be omitted, a single int, or a tuple of two ints");
  OPD_CHECK(padding.size() == 1 || padding.size() == 2,
            "avg_pool2d: padding must either be a single int, or a tuple of two ints");
  OPD_CHECK(!divisor_override || *divisor_override != 0, "divisor must be not zero");
  const int64_t nd = self.dim();
  if (nd < 3) {
    const int64_t lo = nd == 0 ? -1 : -nd, hi = nd == 0 ? 0 : nd - 1;
    throw IndexError(opd::detail::str_cat("Dimension out of range (expected to be in range of [", lo, ", ", hi,
                                          "], but got -3)"));
  }
  Pool2dShape s{};
  s.kh = kernel_size[0];
  s.kw = pick(kernel_size, 1);
  s.sh = stride.empty() ? s.kh : stride[0];
  s.sw = stride.empty() ? s.kw : pick(stride, 1);
  s.ph = padding[0];
  s.pw = pick(padding, 1);
  s.dh = s.dw = 1;
  s.batch = nd == 4 ? self.size(0) : 1;
  s.planes = self.size(nd - 3);
  s.ih = self.size(nd - 2);
  s.iw = self.size(nd - 1);
  s.oh = pooling_output_size(s.ih, s.kh, s.ph, s.sh, 1, ceil_mode);
  s.ow = pooling_output_size(s.iw, s.kw, s.pw, s.sw, 1, ceil_mode);
  OPD_CHECK(nd == 3 || nd == 4, "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:",
            self.sizes());
  pool2d_shape_check(self, s);
  return s;
}

// One output element's window of avg_pool2d (its forward and backward):
// rows [h0, h1), columns [w0, w1) clipped to the input, and the divisor.
struct AvgWindow {
  int64_t h0, h1, w0, w1, divide;
  bool empty() const { return h0 >= h1 || w0 >= w1; }
};
inline AvgWindow avg_window(const Pool2dShape& s, int64_t y, int64_t x, bool count_include_pad,
                            std::optional<int64_t> divisor_override) {
  int64_t h0 = y * s.sh - s.ph, w0 = x * s.sw - s.pw;
  int64_t h1 = std::min(h0 + s.kh, s.ih + s.ph), w1 = std::min(w0 + s.kw, s.iw + s.pw);
  const int64_t pool_size = (h1 - h0) * (w1 - w0);
  h0 = std::max<int64_t>(h0, 0);
  w0 = std::max<int64_t>(w0, 0);
  h1 = std::min(h1, s.ih);
  w1 = std::min(w1, s.iw);
  const int64_t divide = divisor_override ? *divisor_override : count_include_pad ? pool_size : (h1 - h0) * (w1 - w0);
  return {h0, h1, w0, w1, divide};
}

// grad_output's checks against the forward's output (ATen's
// avg_pool2d_backward_shape_check / max_pool2d_backward_shape_check).
inline void check_pool_grad_output(const char* name, const Tensor& grad_output, const Tensor& self,
                                   const Pool2dShape& s) {
  const int64_t nd = self.dim();
  OPD_CHECK(grad_output.dim() == nd, name, ": expected grad_output of ", nd, " dimensions, got ", grad_output.sizes());
  const bool ok = grad_output.size(nd - 3) == s.planes && grad_output.size(nd - 2) == s.oh &&
                  grad_output.size(nd - 1) == s.ow && (nd == 3 || grad_output.size(0) == s.batch);
  OPD_CHECK(ok, name, ": grad_output ", grad_output.sizes(), " is not the forward's output size (", s.planes, "x",
            s.oh, "x", s.ow, ")");
  OPD_CHECK(grad_output.dtype() == self.dtype(), "expected dtype ", self.dtype(), " for `grad_output` but got dtype ",
            grad_output.dtype());
}

// adaptive_avg_pool2d's window of output index a of b over an input of c:
// ATen's start_index / end_index (computed in float, as ATen does).
inline int64_t adaptive_start(int64_t a, int64_t b, int64_t c) {
  return static_cast<int64_t>(std::floor(static_cast<float>(a * c) / static_cast<float>(b)));
}
inline int64_t adaptive_end(int64_t a, int64_t b, int64_t c) {
  return static_cast<int64_t>(std::ceil(static_cast<float>((a + 1) * c) / static_cast<float>(b)));
}

// Every output's adaptive window [lo(o), hi(o)) along one dimension of `out`
// outputs over `in` inputs, computed once per call: the float division and
// floor / ceil per output cost as much as a small window's sum
// (adaptive_avg_pool1d of [1, 64, 512] to 16).
class AdaptiveWindows {
 public:
  AdaptiveWindows(int64_t out, int64_t in) : bounds_(static_cast<std::size_t>(2 * out)) {
    for (int64_t o = 0; o < out; ++o) {
      bounds_[static_cast<std::size_t>(2 * o)] = adaptive_start(o, out, in);
      bounds_[static_cast<std::size_t>(2 * o + 1)] = adaptive_end(o, out, in);
    }
  }
  int64_t lo(int64_t o) const { return bounds_[static_cast<std::size_t>(2 * o)]; }
  int64_t hi(int64_t o) const { return bounds_[static_cast<std::size_t>(2 * o + 1)]; }

 private:
  std::vector<int64_t> bounds_;
};

}  // namespace opd::kernels::detail
