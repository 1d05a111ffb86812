#pragma once
// Out-of-line part of pooling3d.hpp (compiled in src/kernels/pooling3d.cpp).
// The 3-D pools share pool_shape-inl.hpp with the 2-D ones: ATen's
// pooling_output_shape, the (batch, plane) loop across threads, the adaptive
// windows; the depth is one more dimension of the same walk.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <tuple>
#include <type_traits>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/pool_shape-inl.hpp"
#include "kernels/cpu/pooling3d.hpp"
#include "kernels/cpu/scratch-inl.hpp"
#include "structured/out_semantics.hpp"

namespace opd::kernels {

namespace pool3d_detail {

using ints = std::span<const int64_t>;

// A 3-D pool's geometry: the (height, width) part as the 2-D pools have it
// (batch and planes included, for detail::for_each_plane), and the depth.
struct Pool3dShape {
  detail::Pool2dShape hw;
  int64_t kt, st, pt, dt, it, ot;
  int64_t in_volume() const { return it * hw.ih * hw.iw; }
  int64_t out_volume() const { return ot * hw.oh * hw.ow; }
};

inline Tensor contiguous_of(const Tensor& t) { return t.is_contiguous() ? t : contiguous_clone(t); }

// ATen's avg_pool3d windows, axis by axis. Output o's window along one axis
// starts at o * stride - pad, is clipped to the padded input (which sets the
// pool size) and then to the input; a 3-D window is the product of its three
// ranges and its divisor the product of the three counts (with or without the
// padding) or divisor_override. Computed once per call: the per-output clip
// and product cost as much as a 2x2x2 window's sum.
struct AvgAxis {
  std::vector<int64_t> lo, hi, count;  // count: what the divisor counts along this axis
  int64_t inner_lo = 0, inner_hi = 0;  // the outputs whose window is k whole elements at o * stride - pad
  AvgAxis(int64_t out, int64_t in, int64_t k, int64_t stride, int64_t pad, bool count_include_pad)
      : lo(static_cast<std::size_t>(out)), hi(lo.size()), count(lo.size()) {
    for (std::size_t o = 0; o < lo.size(); ++o) {
      const int64_t start = static_cast<int64_t>(o) * stride - pad;
      const int64_t end = std::min(start + k, in + pad);
      lo[o] = std::max<int64_t>(start, 0);
      hi[o] = std::min(end, in);
      count[o] = count_include_pad ? end - start : hi[o] - lo[o];
    }
    inner_lo = std::min(out, (pad + stride - 1) / stride);
    const int64_t last = in - k + pad;  // the last whole window's start, plus pad
    inner_hi = std::max(inner_lo, std::min(out, last < 0 ? int64_t{0} : last / stride + 1));
  }
  bool empty(int64_t o) const { return lo[static_cast<std::size_t>(o)] >= hi[static_cast<std::size_t>(o)]; }
};

struct AvgWindows3d {
  AvgAxis t, h, w;
  std::optional<int64_t> divisor_override;
  AvgWindows3d(const Pool3dShape& s, bool count_include_pad, std::optional<int64_t> divisor)
      : t(s.ot, s.it, s.kt, s.st, s.pt, count_include_pad),
        h(s.hw.oh, s.hw.ih, s.hw.kh, s.hw.sh, s.hw.ph, count_include_pad),
        w(s.hw.ow, s.hw.iw, s.hw.kw, s.hw.sw, s.hw.pw, count_include_pad),
        divisor_override(divisor) {}
  // The divisor of window (z, y, x), whose ranges are not empty.
  int64_t divide(int64_t z, int64_t y, int64_t x) const {
    if (divisor_override) return *divisor_override;
    const auto at = [](const AvgAxis& a, int64_t o) { return a.count[static_cast<std::size_t>(o)]; };
    return at(t, z) * at(h, y) * at(w, x);
  }
};

// The plane loop both avg_pool3d directions share: every (plane, z, y) output
// row across threads (the planes split by work, each plane's rows in order),
// with the input rows of that output row's windows: row(p, z, y, each_row)
// where each_row(g) calls g(t, h) for the window's rows, t outer, in ATen's
// order. The columns are the caller's (sum_window_columns, spread_window_columns).
template <class Row>
void for_each_avg_row3d(const Pool3dShape& s, const AvgWindows3d& a, const Row& row) {
  detail::for_each_plane(s.hw, s.out_volume() * s.kt * s.hw.kh * s.hw.kw, [&](int64_t p) {
    for (int64_t z = 0; z < s.ot; ++z) {
      const int64_t t0 = a.t.lo[static_cast<std::size_t>(z)], t1 = a.t.hi[static_cast<std::size_t>(z)];
      for (int64_t y = 0; y < s.hw.oh; ++y) {
        const int64_t h0 = a.h.lo[static_cast<std::size_t>(y)], h1 = a.h.hi[static_cast<std::size_t>(y)];
        row(p, z, y, [&](const auto& g) {
          for (int64_t t = t0; t < t1; ++t)
            for (int64_t hh = h0; hh < h1; ++hh) g(t, hh);
        });
      }
    }
  });
}

// d[x] += the sum of input row `in` over window x's columns, for every output
// column x, each d[x] adding its elements in ATen's order. The whole windows
// in loops the compiler vectorizes: those that tile the row (k == stride)
// with a constant trip count, others tap by tap across the columns; the
// clipped ones element by element. SW: the column stride when it is a
// constant, else 0.
template <int64_t SW, class T>
void sum_window_columns(const AvgAxis& a, int64_t k, int64_t stride, int64_t pad, const T* in, T* __restrict d) {
  const int64_t sw = SW != 0 ? SW : stride;
  const auto clipped = [&](int64_t x0, int64_t x1) {
    for (int64_t x = x0; x < x1; ++x)
      for (int64_t c = a.lo[static_cast<std::size_t>(x)]; c < a.hi[static_cast<std::size_t>(x)]; ++c) d[x] += in[c];
  };
  clipped(0, a.inner_lo);
  if (SW != 0 && k == SW) {  // windows that tile the row: a constant trip count
    const T* __restrict src = in - pad;
    for (int64_t x = a.inner_lo; x < a.inner_hi; ++x)
      for (int64_t j = 0; j < SW; ++j) d[x] += src[x * SW + j];
  } else {
    for (int64_t j = 0; j < k; ++j) {
      const T* __restrict src = in + j - pad;
      for (int64_t x = a.inner_lo; x < a.inner_hi; ++x) d[x] += src[x * sw];
    }
  }
  clipped(a.inner_hi, static_cast<int64_t>(a.lo.size()));
}

// out[c] += share[x] over window x's columns c, for every output column x
// in order (where windows overlap, each element's shares add in ATen's
// order). Column by column: tap by tap across the columns, the strided
// stores of one tap stalled the next tap's loads of the same row. Windows
// that tile the row (k == stride, SW its constant) take a loop of constant
// trip count the compiler vectorizes. SW: as for sum_window_columns.
template <int64_t SW, class T>
void spread_window_columns(const AvgAxis& a, int64_t k, int64_t pad, const T* __restrict share, T* out) {
  const auto clipped = [&](int64_t x0, int64_t x1) {
    for (int64_t x = x0; x < x1; ++x)
      for (int64_t c = a.lo[static_cast<std::size_t>(x)]; c < a.hi[static_cast<std::size_t>(x)]; ++c)
        out[c] += share[x];
  };
  if constexpr (SW != 0) {
    if (k == SW) {
      clipped(0, a.inner_lo);
      T* __restrict dst = out - pad;
      for (int64_t x = a.inner_lo; x < a.inner_hi; ++x)
        for (int64_t j = 0; j < SW; ++j) dst[x * SW + j] += share[x];
      return clipped(a.inner_hi, static_cast<int64_t>(a.lo.size()));
    }
  }
  clipped(0, static_cast<int64_t>(a.lo.size()));
}

// Calls f(std::integral_constant<int64_t, SW>) with the column stride as a
// constant for the common stride 2, else 0 (read at run time): each constant
// is one more copy of both loops (stride 1 as well cost 0.45 s of the
// translation unit's 6.6 s).
template <class F>
void with_column_stride(int64_t stride, const F& f) {
  if (stride == 2) f(std::integral_constant<int64_t, 2>{});
  else f(std::integral_constant<int64_t, 0>{});
}

inline std::vector<int64_t> out_sizes(const Tensor& self, const Pool3dShape& s) {
  if (self.dim() == 4) return {s.hw.planes, s.ot, s.hw.oh, s.hw.ow};
  return {s.hw.batch, s.hw.planes, s.ot, s.hw.oh, s.hw.ow};
}

// kernel_size / stride / padding / dilation (one value or three) read as ATen's
// 3-D pools read them, the output sizes, and ATen's pool3d_shape_check.
inline Pool3dShape pool3d_shape(const char* fn, const Tensor& self, ints kernel_size, ints stride, ints padding,
                                ints dilation, bool ceil_mode, bool check_input_size) {
  using detail::pick;
  Pool3dShape s{};
  s.kt = kernel_size[0];
  s.hw.kh = pick(kernel_size, 1);
  s.hw.kw = pick(kernel_size, 2);
  s.st = stride.empty() ? s.kt : stride[0];
  s.hw.sh = stride.empty() ? s.hw.kh : pick(stride, 1);
  s.hw.sw = stride.empty() ? s.hw.kw : pick(stride, 2);
  s.pt = padding[0];
  s.hw.ph = pick(padding, 1);
  s.hw.pw = pick(padding, 2);
  s.dt = dilation[0];
  s.hw.dh = pick(dilation, 1);
  s.hw.dw = pick(dilation, 2);
  const int64_t nd = self.dim();
  s.hw.batch = nd == 5 ? self.size(0) : 1;
  s.hw.planes = self.size(nd - 4);
  s.it = self.size(nd - 3);
  s.hw.ih = self.size(nd - 2);
  s.hw.iw = self.size(nd - 1);
  s.ot = detail::pooling_output_size(s.it, s.kt, s.pt, s.st, s.dt, ceil_mode);
  s.hw.oh = detail::pooling_output_size(s.hw.ih, s.hw.kh, s.hw.ph, s.hw.sh, s.hw.dh, ceil_mode);
  s.hw.ow = detail::pooling_output_size(s.hw.iw, s.hw.kw, s.hw.pw, s.hw.sw, s.hw.dw, ceil_mode);
  const detail::Pool2dShape& q = s.hw;
  OPD_CHECK(s.kt > 0 && q.kw > 0 && q.kh > 0, "kernel size should be greater than zero, but got kT: ", s.kt,
            " kH: ", q.kh, " kW: ", q.kw);
  OPD_CHECK(s.st > 0 && q.sw > 0 && q.sh > 0, "stride should be greater than zero, but got dT: ", s.st, " dH: ", q.sh,
            " dW: ", q.sw);
  OPD_CHECK(s.dt > 0 && q.dw > 0 && q.dh > 0, "dilation should be greater than zero, but got dilationT: ", s.dt,
            " dilationH: ", q.dh, " dilationW: ", q.dw);
  for (int64_t i = nd == 5 ? 1 : 0; i < nd; ++i) {
    OPD_CHECK(self.size(i) > 0, fn, ": Expected input's non-batch dimensions to have positive length, but input has a shape of ",
              self.sizes(), " and non-batch dimension ", self.size(i), " has length zero!");
  }
  if (check_input_size) {
    OPD_CHECK(s.it >= s.kt && q.ih >= q.kh && q.iw >= q.kw, "input image (T: ", s.it, " H: ", q.ih, " W: ", q.iw,
              ") smaller than kernel size (kT: ", s.kt, " kH: ", q.kh, " kW: ", q.kw, ")");
  }
  OPD_CHECK(s.kt / 2 >= s.pt && q.kw / 2 >= q.pw && q.kh / 2 >= q.ph,
            "pad should be smaller than or equal to half of kernel size, but got kT: ", s.kt, " kW: ", q.kw, " kH: ",
            q.kh, " padT: ", s.pt, " padW: ", q.pw, " padH: ", q.ph);
  OPD_CHECK(s.ot >= 1 && q.ow >= 1 && q.oh >= 1, "Given input size: (", q.planes, "x", s.it, "x", q.ih, "x", q.iw,
            "). Calculated output size: (", q.planes, "x", s.ot, "x", q.oh, "x", q.ow, "). Output size is too small");
  return s;
}

inline void check_list(ints v, bool may_be_empty, const char* message) {
  OPD_CHECK(v.size() == 1 || v.size() == 3 || (may_be_empty && v.empty()), message);
}

inline void check_floating(const char* name, ScalarType dt) {
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for(name, dt);
}

// max over each window of every volume (it x ih x iw, contiguous) and the
// index of each maximum in its volume: max_pool_planes with a depth.
template <class T>
void max_pool_volumes(const Pool3dShape& s, const T* in, T* out, int64_t* indices) {
  const detail::Pool2dShape& q = s.hw;
  detail::for_each_plane(q, s.out_volume() * s.kt * q.kh * q.kw, [&](int64_t p) {
    const T* vol = in + p * s.in_volume();
    T* dst = out + p * s.out_volume();
    int64_t* dst_index = indices + p * s.out_volume();
    int64_t o = 0;
    for (int64_t z = 0; z < s.ot; ++z) {
      int64_t t0 = z * s.st - s.pt;
      const int64_t t1 = std::min(t0 + (s.kt - 1) * s.dt + 1, s.it);
      while (t0 < 0) t0 += s.dt;
      for (int64_t y = 0; y < q.oh; ++y) {
        int64_t h0 = y * q.sh - q.ph;
        const int64_t h1 = std::min(h0 + (q.kh - 1) * q.dh + 1, q.ih);
        while (h0 < 0) h0 += q.dh;
        for (int64_t x = 0; x < q.ow; ++x, ++o) {
          int64_t w0 = x * q.sw - q.pw;
          const int64_t w1 = std::min(w0 + (q.kw - 1) * q.dw + 1, q.iw);
          while (w0 < 0) w0 += q.dw;
          int64_t best_index = (t0 * q.ih + h0) * q.iw + w0;
          T best = -std::numeric_limits<T>::infinity();
          for (int64_t t = t0; t < t1; t += s.dt) {
            for (int64_t h = h0; h < h1; h += q.dh) {
              for (int64_t w = w0; w < w1; w += q.dw) {
                const int64_t k = (t * q.ih + h) * q.iw + w;
                const T v = vol[k];
                if (v > best || std::isnan(v)) {
                  best = v;
                  best_index = k;
                }
              }
            }
          }
          dst[o] = best;
          dst_index[o] = best_index;
        }
      }
    }
  });
}

// ATen's check_dim_size on a pool's gradient or indices: t has self's
// dimensions and the pool's output sizes (the batch too, which ATen leaves
// unchecked and then reads past).
inline void check_pool_grad_sizes(const Tensor& t, const std::vector<int64_t>& sizes) {
  const auto nd = static_cast<int64_t>(sizes.size());
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t got = t.dim() == nd ? t.size(i) : -1;
    OPD_CHECK(got == sizes[static_cast<std::size_t>(i)], "Expected a tensor of dimension ", nd, " and tensor.size[", i,
              "] == ", sizes[static_cast<std::size_t>(i)], " but got: dimension ", t.dim(), " and tensor.size[", i,
              "] = ", t.dim() > i ? t.size(i) : 0);
  }
}

// A fresh zero gradient of self's sizes and dtype (CPU, or Meta for a Meta self).
inline Tensor zero_grad_input(const Tensor& self) {
  return kernels::zeros(self.sizes(), self.dtype(), self.is_meta() ? Device::meta() : Device::cpu());
}

}  // namespace pool3d_detail

// ------------------------------------------------------------- avg_pool3d ---

OPD_FUNC Tensor avg_pool3d(const Tensor& self, std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                           std::span<const int64_t> padding, bool ceil_mode, bool count_include_pad,
                           std::optional<int64_t> divisor_override) {
  using namespace pool3d_detail;
  detail::nn_check_cpu("avg_pool3d", self, "self");
  check_list(kernel_size, false, "avg_pool3d: kernel_size must be a single int, or a tuple of three ints");
  check_list(stride, true, "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints");
  check_list(padding, false, "avg_pool3d: padding must be a single int, or a tuple of three ints");
  OPD_CHECK(self.dim() == 4 || self.dim() == 5, "non-empty 4D or 5D (batch mode) tensor expected for input");
  OPD_CHECK(!divisor_override || *divisor_override != 0, "divisor must be not zero");
  const int64_t one = 1;
  const Pool3dShape s = pool3d_shape("avg_pool3d()", self, kernel_size, stride, padding, ints(&one, 1), ceil_mode, true);
  const ScalarType dt = self.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double && dt != ScalarType::Long)
    throw_not_implemented_for("avg_pool3d_out_frame", dt);
  Tensor out = opd::empty(out_sizes(self, s), dt, self.device());
  if (out.is_meta() || out.numel() == 0) return out;
  const Tensor x = contiguous_of(self);
  const detail::Pool2dShape& q = s.hw;
  dispatch_dtype(dt, "avg_pool3d", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int64_t>) {
      const T* in = x.data_ptr<T>();
      T* o = out.data_ptr<T>();
      const AvgWindows3d a(s, count_include_pad, divisor_override);
      with_column_stride(q.sw, [&](auto sw) {
        for_each_avg_row3d(s, a, [&](int64_t p, int64_t z, int64_t y, const auto& each_row) {
          const T* vol = in + p * s.in_volume();
          T* dst = o + p * s.out_volume() + (z * q.oh + y) * q.ow;
          for (int64_t xo = 0; xo < q.ow; ++xo) dst[xo] = T(0);
          each_row([&](int64_t t, int64_t h) {
            sum_window_columns<decltype(sw)::value>(a.w, q.kw, q.sw, q.pw, vol + (t * q.ih + h) * q.iw, dst);
          });
          const bool empty = a.t.empty(z) || a.h.empty(y);
          for (int64_t xo = 0; xo < q.ow; ++xo)
            dst[xo] = empty || a.w.empty(xo) ? T(0) : dst[xo] / static_cast<T>(a.divide(z, y, xo));
        });
      });
    }
  });
  return out;
}

// ATen 1.13's avg_pool3d_backward_out_frame: each output's gradient divided
// as the forward divided its window, added into the window's elements; the
// planes in parallel, each plane's outputs in order (windows overlap when the
// stride is below the kernel: the order fixes the rounding).
OPD_FUNC Tensor avg_pool3d_backward(const Tensor& grad_output, const Tensor& self, std::span<const int64_t> kernel_size,
                                    std::span<const int64_t> stride, std::span<const int64_t> padding, bool ceil_mode,
                                    bool count_include_pad, std::optional<int64_t> divisor_override) {
  using namespace pool3d_detail;
  detail::nn_check_cpu("avg_pool3d_backward", self, "self");
  detail::nn_check_cpu("avg_pool3d_backward", grad_output, "grad_output");
  check_list(kernel_size, false, "avg_pool3d: kernel_size must be a single int, or a tuple of three ints");
  check_list(stride, true, "avg_pool3d: stride must be omitted, a single int, or a tuple of three ints");
  check_list(padding, false, "avg_pool3d: padding must be a single int, or a tuple of three ints");
  OPD_CHECK(self.dim() == 4 || self.dim() == 5, "non-empty 4D or 5D (batch mode) tensor expected for input");
  OPD_CHECK(!divisor_override || *divisor_override != 0, "divisor must be not zero");
  const int64_t one = 1;
  const Pool3dShape s = pool3d_shape("avg_pool3d_backward()", self, kernel_size, stride, padding, ints(&one, 1),
                                     ceil_mode, true);
  check_pool_grad_sizes(grad_output, out_sizes(self, s));
  OPD_CHECK(grad_output.dtype() == self.dtype(), "expected scalar type ", self.dtype(), " but found ", grad_output.dtype());
  const ScalarType dt = self.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double && dt != ScalarType::Long)
    throw_not_implemented_for("avg_pool3d_backward_out_frame", dt);
  Tensor grad_input = zero_grad_input(self);
  if (grad_input.is_meta() || grad_input.numel() == 0) return grad_input;
  const Tensor g = contiguous_of(grad_output);
  const detail::Pool2dShape& q = s.hw;
  dispatch_dtype(dt, "avg_pool3d_backward", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int64_t>) {
      const T* go = g.data_ptr<T>();
      T* gi = grad_input.data_ptr<T>();
      const AvgWindows3d a(s, count_include_pad, divisor_override);
      with_column_stride(q.sw, [&](auto sw) {
        for_each_avg_row3d(s, a, [&](int64_t p, int64_t z, int64_t y, const auto& each_row) {
          const T* src = go + p * s.out_volume() + (z * q.oh + y) * q.ow;
          T* vol = gi + p * s.in_volume();
          detail::Scratch scratch(static_cast<std::size_t>(q.ow) * sizeof(T));
          T* share = scratch.as<T>();
          const bool empty = a.t.empty(z) || a.h.empty(y);
          for (int64_t xo = 0; xo < q.ow; ++xo)  // as ATen: one quotient for all of a window's elements
            share[xo] = empty || a.w.empty(xo) ? T(0) : src[xo] / static_cast<T>(a.divide(z, y, xo));
          each_row([&](int64_t t, int64_t h) {
            spread_window_columns<decltype(sw)::value>(a.w, q.kw, q.pw, share, vol + (t * q.ih + h) * q.iw);
          });
        });
      });
    }
  });
  return grad_input;
}

// ------------------------------------------------- max_pool3d_with_indices ---

OPD_FUNC void max_pool3d_with_indices_out(const Tensor& self, std::span<const int64_t> kernel_size,
                                          std::span<const int64_t> stride, std::span<const int64_t> padding,
                                          std::span<const int64_t> dilation, bool ceil_mode, const Tensor& out,
                                          const Tensor& indices) {
  using namespace pool3d_detail;
  constexpr std::string_view op = "aten::max_pool3d_with_indices";
  detail::nn_check_cpu("max_pool3d_with_indices", self, "self");
  check_list(kernel_size, false, "max_pool3d: kernel_size must either be a single int, or a tuple of three ints");
  check_list(stride, true, "max_pool3d: stride must either be omitted, a single int, or a tuple of three ints");
  check_list(padding, false, "max_pool3d: padding must either be a single int, or a tuple of three ints");
  check_list(dilation, false, "max_pool3d: dilation must be either a single int, or a tuple of three ints");
  OPD_CHECK(self.dim() == 4 || self.dim() == 5, "non-empty 4D or 5D (batch mode) tensor expected for input");
  const Pool3dShape s = pool3d_shape("max_pool3d_with_indices_out_cpu_template()", self, kernel_size, stride, padding,
                                     dilation, ceil_mode, false);
  check_floating("max_pool3d_with_indices_cpu", self.dtype());
  structured_detail::check_out_device(op, self.device(), out);
  structured_detail::check_out_device(op, self.device(), indices);
  OPD_CHECK(out.dtype() == self.dtype(), "max_pool3d_with_indices: expected out to have dtype ", self.dtype(),
            ", but got ", out.dtype());
  OPD_CHECK(indices.dtype() == ScalarType::Long,
            "max_pool3d_with_indices: expected indices to have dtype Long, but got ", indices.dtype());
  const std::vector<int64_t> sizes = out_sizes(self, s);
  structured_detail::resize_out(op, out, sizes, MemoryFormat::Contiguous);
  structured_detail::resize_out(op, indices, sizes, MemoryFormat::Contiguous);
  if (out.is_meta() || out.numel() == 0) return;
  const Tensor x = contiguous_of(self);
  const Tensor o_t = out.is_contiguous() ? out : opd::empty(out.sizes(), out.dtype(), Device::cpu());
  const Tensor i_t = indices.is_contiguous() ? indices : opd::empty(indices.sizes(), ScalarType::Long, Device::cpu());
  int64_t* idx = i_t.data_ptr<int64_t>();
  if (self.dtype() == ScalarType::Float) max_pool_volumes<float>(s, x.data_ptr<float>(), o_t.data_ptr<float>(), idx);
  else max_pool_volumes<double>(s, x.data_ptr<double>(), o_t.data_ptr<double>(), idx);
  if (!o_t.is_same(out)) copy_elements(OperandRef::of(out), OperandRef::of(o_t));
  if (!i_t.is_same(indices)) copy_elements(OperandRef::of(indices), OperandRef::of(i_t));
}

OPD_FUNC std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& self, std::span<const int64_t> kernel_size,
                                                            std::span<const int64_t> stride,
                                                            std::span<const int64_t> padding,
                                                            std::span<const int64_t> dilation, bool ceil_mode) {
  OPD_CHECK(self.defined(), "max_pool3d_with_indices: argument 'self' is an undefined tensor");
  const Device device = self.is_meta() ? Device::meta() : Device::cpu();
  const int64_t zero = 0;
  Tensor out = opd::empty(IntArrayRef(&zero, 1), self.dtype(), device);
  Tensor indices = opd::empty(IntArrayRef(&zero, 1), ScalarType::Long, device);
  max_pool3d_with_indices_out(self, kernel_size, stride, padding, dilation, ceil_mode, out, indices);
  return {out, indices};
}

// ATen 1.13's max_pool3d_with_indices_backward: each output's gradient added
// at its index in the plane (several outputs may name one element), the
// planes in parallel, each plane's outputs in order. Every index is checked
// first (ATen writes past the plane).
OPD_FUNC Tensor max_pool3d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                                 std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                                                 std::span<const int64_t> padding, std::span<const int64_t> dilation,
                                                 bool ceil_mode, const Tensor& indices) {
  using namespace pool3d_detail;
  detail::nn_check_cpu("max_pool3d_with_indices_backward", self, "self");
  detail::nn_check_cpu("max_pool3d_with_indices_backward", grad_output, "grad_output");
  detail::nn_check_cpu("max_pool3d_with_indices_backward", indices, "indices");
  check_list(kernel_size, false, "max_pool3d: kernel_size must either be a single int, or a tuple of three ints");
  check_list(stride, true, "max_pool3d: stride must either be omitted, a single int, or a tuple of three ints");
  check_list(padding, false, "max_pool3d: padding must either be a single int, or a tuple of three ints");
  check_list(dilation, false, "max_pool3d: dilation must be either a single int, or a tuple of three ints");
  OPD_CHECK(self.dim() == 4 || self.dim() == 5, "non-empty 4D or 5D (batch mode) tensor expected for input");
  const Pool3dShape s = pool3d_shape("max_pool3d_with_indices_backward_out_cpu_template()", self, kernel_size, stride,
                                     padding, dilation, ceil_mode, false);
  const std::vector<int64_t> sizes = out_sizes(self, s);
  check_pool_grad_sizes(grad_output, sizes);
  check_pool_grad_sizes(indices, sizes);
  OPD_CHECK(grad_output.dtype() == self.dtype(), "expected scalar type ", self.dtype(), " but found ", grad_output.dtype());
  OPD_CHECK(indices.dtype() == ScalarType::Long, "expected scalar type Long but found ", indices.dtype());
  check_floating("max_pool3d_with_indices_backward", self.dtype());
  Tensor grad_input = zero_grad_input(self);
  if (grad_input.is_meta() || grad_input.numel() == 0) return grad_input;
  const Tensor g = contiguous_of(grad_output), ix = contiguous_of(indices);
  const int64_t* idx = ix.data_ptr<int64_t>();
  const int64_t volume = s.in_volume(), per = s.out_volume();
  detail::check_pool_indices("max_pool3d_with_indices_backward", idx, ix.numel(), volume, "volume");
  const auto run = [&](auto* gi, const auto* go) {
    detail::for_each_plane(s.hw, per, [&](int64_t p) {
      auto* vol = gi + p * volume;
      for (int64_t k = p * per; k < (p + 1) * per; ++k) vol[idx[k]] += go[k];
    });
  };
  if (self.dtype() == ScalarType::Float) run(grad_input.data_ptr<float>(), g.data_ptr<float>());
  else run(grad_input.data_ptr<double>(), g.data_ptr<double>());
  return grad_input;
}

// ---------------------------------------------------- _adaptive_avg_pool3d ---

OPD_FUNC Tensor adaptive_avg_pool3d(const Tensor& self, std::span<const int64_t> output_size) {
  using namespace pool3d_detail;
  detail::nn_check_cpu("adaptive_avg_pool3d", self, "self");
  OPD_CHECK(output_size.size() == 3, "adaptive_avg_pool3d: output_size must be 3");
  const int64_t nd = self.dim();
  for (int64_t i = 1; i < nd; ++i) {
    OPD_CHECK(self.size(i) > 0, "adaptive_avg_pool3d(): Expected input to have non-zero size for non-batch dimensions, "
              "but input has sizes ", self.sizes(), " with dimension ", i, " being empty");
  }
  OPD_CHECK(nd == 4 || nd == 5, "adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got ", self.sizes());
  OPD_CHECK(output_size[0] >= 0 && output_size[1] >= 0 && output_size[2] >= 0,
            "adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but received {",
            output_size[0], ", ", output_size[1], ", ", output_size[2], "}");
  // ATen 1.13: Float, Double and Half (not BFloat16).
  if (self.dtype() != ScalarType::Half) check_floating("adaptive_avg_pool3d_cpu", self.dtype());
  Pool3dShape s{};
  s.hw.batch = nd == 5 ? self.size(0) : 1;
  s.hw.planes = self.size(nd - 4);
  s.it = self.size(nd - 3);
  s.hw.ih = self.size(nd - 2);
  s.hw.iw = self.size(nd - 1);
  s.ot = output_size[0];
  s.hw.oh = output_size[1];
  s.hw.ow = output_size[2];
  Tensor out = opd::empty(out_sizes(self, s), self.dtype(), self.device());
  if (out.is_meta() || out.numel() == 0) return out;
  const Tensor x = contiguous_of(self);
  const detail::Pool2dShape& q = s.hw;
  const auto run = [&](auto* o, const auto* in) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(in)>>;
    using C = opmath_t<T>;  // each step rounded to T, as ATen's scalar_t arithmetic (Half: c10::Half's)
    const auto div = [](T a, int64_t k) { return static_cast<T>(static_cast<C>(a) / static_cast<C>(static_cast<T>(k))); };
    const detail::AdaptiveWindows win_t(s.ot, s.it), win_h(q.oh, q.ih), win_w(q.ow, q.iw);
    detail::for_each_plane(q, s.in_volume(), [&](int64_t p) {
      const T* vol = in + p * s.in_volume();
      T* dst = o + p * s.out_volume();
      for (int64_t z = 0; z < s.ot; ++z) {
        const int64_t t0 = win_t.lo(z), t1 = win_t.hi(z);
        for (int64_t y = 0; y < q.oh; ++y) {
          const int64_t h0 = win_h.lo(y), h1 = win_h.hi(y);
          for (int64_t xo = 0; xo < q.ow; ++xo) {
            const int64_t w0 = win_w.lo(xo), w1 = win_w.hi(xo);
            T sum = static_cast<T>(C(0));
            for (int64_t t = t0; t < t1; ++t)
              for (int64_t h = h0; h < h1; ++h)
                for (int64_t w = w0; w < w1; ++w)
                  sum = static_cast<T>(static_cast<C>(sum) + static_cast<C>(vol[(t * q.ih + h) * q.iw + w]));
            dst[(z * q.oh + y) * q.ow + xo] = div(div(div(sum, t1 - t0), h1 - h0), w1 - w0);
          }
        }
      }
    });
  };
  if (self.dtype() == ScalarType::Float) run(out.data_ptr<float>(), x.data_ptr<float>());
  else if (self.dtype() == ScalarType::Half) run(out.data_ptr<Half>(), x.data_ptr<Half>());
  else run(out.data_ptr<double>(), x.data_ptr<double>());
  return out;
}

// ATen 1.13's adaptive_avg_pool3d_backward_out_frame: each output's gradient
// divided by its window's depth, height and width (each step rounded to T),
// added into the window; the planes in parallel, outputs in order.
OPD_FUNC Tensor adaptive_avg_pool3d_backward(const Tensor& grad_output, const Tensor& self) {
  using namespace pool3d_detail;
  detail::nn_check_cpu("adaptive_avg_pool3d_backward", self, "self");
  detail::nn_check_cpu("adaptive_avg_pool3d_backward", grad_output, "grad_output");
  const int64_t nd = self.dim();
  OPD_CHECK(nd == 4 || nd == 5, "adaptive_avg_pool3d_backward(): Expected 4D or 5D tensor, but got ", self.sizes());
  // ATen 1.13 reads grad_output's leading sizes unchecked: here they are self's
  OPD_CHECK(grad_output.dim() == nd && grad_output.size(0) == self.size(0) && grad_output.size(nd - 4) == self.size(nd - 4),
            "adaptive_avg_pool3d_backward(): Expected grad_output of ", nd, " dimensions with the leading sizes of "
            "self ", self.sizes(), ", but got ", grad_output.sizes());
  OPD_CHECK(grad_output.dtype() == self.dtype(), "expected scalar type ", self.dtype(), " but found ", grad_output.dtype());
  if (self.dtype() != ScalarType::Half) check_floating("adaptive_avg_pool3d_backward_cpu", self.dtype());
  Pool3dShape s{};
  s.hw.batch = nd == 5 ? self.size(0) : 1;
  s.hw.planes = self.size(nd - 4);
  s.it = self.size(nd - 3);
  s.hw.ih = self.size(nd - 2);
  s.hw.iw = self.size(nd - 1);
  s.ot = grad_output.size(nd - 3);
  s.hw.oh = grad_output.size(nd - 2);
  s.hw.ow = grad_output.size(nd - 1);
  Tensor grad_input = zero_grad_input(self);
  if (grad_input.is_meta() || grad_input.numel() == 0 || grad_output.numel() == 0) return grad_input;
  const Tensor g = contiguous_of(grad_output);
  const detail::Pool2dShape& q = s.hw;
  const auto run = [&](auto* gi, const auto* go) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(go)>>;
    using C = opmath_t<T>;
    const auto div = [](T a, int64_t k) { return static_cast<T>(static_cast<C>(a) / static_cast<C>(static_cast<T>(k))); };
    const detail::AdaptiveWindows win_t(s.ot, s.it), win_h(q.oh, q.ih), win_w(q.ow, q.iw);
    detail::for_each_plane(q, s.in_volume(), [&](int64_t p) {
      const T* src = go + p * s.out_volume();
      T* vol = gi + p * s.in_volume();
      for (int64_t z = 0; z < s.ot; ++z) {
        const int64_t t0 = win_t.lo(z), t1 = win_t.hi(z);
        for (int64_t y = 0; y < q.oh; ++y) {
          const int64_t h0 = win_h.lo(y), h1 = win_h.hi(y);
          for (int64_t xo = 0; xo < q.ow; ++xo) {
            const int64_t w0 = win_w.lo(xo), w1 = win_w.hi(xo);
            const T delta = div(div(div(src[(z * q.oh + y) * q.ow + xo], t1 - t0), h1 - h0), w1 - w0);
            for (int64_t t = t0; t < t1; ++t)
              for (int64_t h = h0; h < h1; ++h)
                for (int64_t w = w0; w < w1; ++w) {
                  T& d = vol[(t * q.ih + h) * q.iw + w];
                  d = static_cast<T>(static_cast<C>(d) + static_cast<C>(delta));
                }
          }
        }
      }
    });
  };
  if (self.dtype() == ScalarType::Float) run(grad_input.data_ptr<float>(), g.data_ptr<float>());
  else if (self.dtype() == ScalarType::Half) run(grad_input.data_ptr<Half>(), g.data_ptr<Half>());
  else run(grad_input.data_ptr<double>(), g.data_ptr<double>());
  return grad_input;
}

// ------------------------------------------------------------------ col2im ---

OPD_FUNC Tensor col2im(const Tensor& self, std::span<const int64_t> output_size, std::span<const int64_t> kernel_size,
                       std::span<const int64_t> dilation, std::span<const int64_t> padding,
                       std::span<const int64_t> stride) {
  detail::nn_check_cpu("col2im", self, "self");
  OPD_CHECK(output_size.size() == 2, "It is expected output_size equals to 2, but got size ", output_size.size());
  OPD_CHECK(kernel_size.size() == 2, "It is expected kernel_size equals to 2, but got size ", kernel_size.size());
  OPD_CHECK(dilation.size() == 2, "It is expected dilation equals to 2, but got size ", dilation.size());
  OPD_CHECK(padding.size() == 2, "It is expected padding equals to 2, but got size ", padding.size());
  OPD_CHECK(stride.size() == 2, "It is expected stride equals to 2, but got size ", stride.size());
  const int64_t oh = output_size[0], ow = output_size[1], kh = kernel_size[0], kw = kernel_size[1];
  const int64_t dh = dilation[0], dw = dilation[1], ph = padding[0], pw = padding[1], sh = stride[0], sw = stride[1];
  // ATen's col2im_shape_check, in its order
  OPD_CHECK(kw > 0 && kh > 0, "kernel size should be greater than zero, but got kernel_height: ", kh,
            " kernel_width: ", kw);
  OPD_CHECK(sw > 0 && sh > 0, "stride should be greater than zero, but got stride_height: ", sh, " stride_width: ", sw);
  OPD_CHECK(dw > 0 && dh > 0, "dilation should be greater than zero, but got dilation_height: ", dh,
            " dilation_width: ", dw);
  OPD_CHECK(pw >= 0 && ph >= 0, "padding should be non-negative, but got pad_height: ", ph, " pad_width: ", pw);
  const int64_t nd = self.dim();
  OPD_CHECK((nd == 2 && self.size(0) != 0 && self.size(1) != 0) || (nd == 3 && self.size(1) != 0 && self.size(2) != 0),
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for "
            "input, but got: ", self.sizes());
  const int64_t planes_in = self.size(nd - 2), length = self.size(nd - 1);
  OPD_CHECK(planes_in % (kw * kh) == 0, "Expected size of input's dimension 1 to be divisible by the product of "
            "kernel_size, but got input.size(1)=", planes_in, " and kernel_size=(", kh, ", ", kw, ").");
  const auto div_rtn = [](int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };  // floor
  const int64_t blocks_h = div_rtn(oh + 2 * ph - dh * (kh - 1) - 1, sh) + 1;
  const int64_t blocks_w = div_rtn(ow + 2 * pw - dw * (kw - 1) - 1, sw) + 1;
  OPD_CHECK(length == blocks_h * blocks_w, "Given output_size=(", oh, ", ", ow, "), kernel_size=(", kh, ", ", kw,
            "), dilation=(", dh, ", ", dw, "), padding=(", ph, ", ", pw, "), stride=(", sh, ", ", sw,
            "), expected size of input's dimension 2 to match the calculated number of sliding blocks ", blocks_h,
            " * ", blocks_w, " = ", blocks_h * blocks_w, ", but got input.size(2)=", length, ".");
  OPD_CHECK(blocks_h >= 1 && blocks_w >= 1, "Given output_size=(", oh, ", ", ow, "), kernel_size=(", kh, ", ", kw,
            "), dilation=(", dh, ", ", dw, "), padding=(", ph, ", ", pw, "), stride=(", sh, ", ", sw,
            "), calculated shape of the array of sliding blocks as (", blocks_h, ", ", blocks_w,
            "), but its components must be at least one.");
  const ScalarType dt = self.dtype();
  // (complex: istft calls it, as ATen's kernel takes it)
  if (!is_floating_type(dt) && !is_complex_kernel_dtype(dt)) throw_not_implemented_for("col2im_out_cpu", dt);
  const int64_t batch = nd == 3 ? self.size(0) : 1, planes = planes_in / (kh * kw);
  const std::vector<int64_t> sizes =
      nd == 3 ? std::vector<int64_t>{batch, planes, oh, ow} : std::vector<int64_t>{planes, oh, ow};
  Tensor out = kernels::zeros(sizes, dt, self.device());
  if (out.is_meta() || out.numel() == 0) return out;
  const Tensor x = pool3d_detail::contiguous_of(self);
  const auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const T* col_all = x.data_ptr<T>();
    T* im_all = out.data_ptr<T>();
    detail::Pool2dShape per{};  // one "plane" per image, for the thread split
    per.batch = batch;
    per.planes = 1;
    detail::for_each_plane(per, planes_in * length, [&](int64_t n) {
      const T* col = col_all + n * planes_in * length;
      T* im = im_all + n * planes * oh * ow;
      // ATen's col2im loop: rows of the column matrix in order, each added
      // into the image position its block and kernel offset name
      for (int64_t c_col = 0; c_col < planes_in; ++c_col) {
        const int64_t w_off = c_col % kw, h_off = (c_col / kw) % kh, c_im = c_col / kh / kw;
        for (int64_t h_col = 0; h_col < blocks_h; ++h_col) {
          const int64_t h_im = h_col * sh - ph + h_off * dh;
          for (int64_t w_col = 0; w_col < blocks_w; ++w_col) {
            const int64_t w_im = w_col * sw - pw + w_off * dw;
            if (h_im < 0 || h_im >= oh || w_im < 0 || w_im >= ow) continue;
            T& dst = im[(c_im * oh + h_im) * ow + w_im];
            dst = convert<T>(static_cast<M>(dst) + static_cast<M>(col[(c_col * blocks_h + h_col) * blocks_w + w_col]));
          }
        }
      }
    });
  };
  if (is_complex_kernel_dtype(dt)) dispatch_complex_dtype(dt, "col2im_out_cpu", run);
  else dispatch_floating_dtype(dt, "col2im_out_cpu", run);
  return out;
}

// ------------------------------------------------------------------ im2col ---

// ATen 1.13's im2col: each sliding block's (C * kh * kw) elements as a
// column, zeros where the block lies in the padding; floating and complex
// dtypes (elements copied).
OPD_FUNC Tensor im2col(const Tensor& self, std::span<const int64_t> kernel_size, std::span<const int64_t> dilation,
                       std::span<const int64_t> padding, std::span<const int64_t> stride) {
  detail::nn_check_cpu("im2col", self, "self");
  OPD_CHECK(kernel_size.size() == 2, "It is expected kernel_size equals to 2, but got size ", kernel_size.size());
  OPD_CHECK(dilation.size() == 2, "It is expected dilation equals to 2, but got size ", dilation.size());
  OPD_CHECK(padding.size() == 2, "It is expected padding equals to 2, but got size ", padding.size());
  OPD_CHECK(stride.size() == 2, "It is expected stride equals to 2, but got size ", stride.size());
  const int64_t kh = kernel_size[0], kw = kernel_size[1], dh = dilation[0], dw = dilation[1];
  const int64_t ph = padding[0], pw = padding[1], sh = stride[0], sw = stride[1];
  // ATen's im2col_shape_check, in its order
  OPD_CHECK(kw > 0 && kh > 0, "kernel size should be greater than zero, but got kernel_height: ", kh,
            " kernel_width: ", kw);
  OPD_CHECK(dw > 0 && dh > 0, "dilation should be greater than zero, but got dilation_height: ", dh,
            " dilation_width: ", dw);
  OPD_CHECK(pw >= 0 && ph >= 0, "padding should be non-negative, but got pad_height: ", ph, " pad_width: ", pw);
  OPD_CHECK(sw > 0 && sh > 0, "stride should be greater than zero, but got stride_height: ", sh, " stride_width: ", sw);
  const int64_t nd = self.dim();
  bool dims_ok = nd == 3 || nd == 4;
  for (int64_t d = nd == 4 ? 1 : 0; dims_ok && d < nd; ++d) dims_ok = self.size(d) != 0;
  OPD_CHECK(dims_ok, "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions "
            "for input, but got: ", self.sizes());
  const int64_t ih = self.size(nd - 2), iw = self.size(nd - 1), channels = self.size(nd - 3);
  const int64_t bh = (ih + 2 * ph - (dh * (kh - 1) + 1)) / sh + 1, bw = (iw + 2 * pw - (dw * (kw - 1) + 1)) / sw + 1;
  OPD_CHECK(bh >= 1 && bw >= 1 && ih + 2 * ph >= dh * (kh - 1) + 1 && iw + 2 * pw >= dw * (kw - 1) + 1,
            "Given input with spatial size (", ih, ", ", iw, "), kernel_size=(", kh, ", ", kw, "), dilation=(", dh, ", ",
            dw, "), padding=(", ph, ", ", pw, "), calculated shape of the array of sliding blocks as (",
            ih + 2 * ph >= dh * (kh - 1) + 1 ? bh : 0, ", ", iw + 2 * pw >= dw * (kw - 1) + 1 ? bw : 0,
            "), but its components must be at least one.");
  const ScalarType dt = self.dtype();
  if (!is_floating_type(dt) && !is_complex_kernel_dtype(dt)) throw_not_implemented_for("im2col_out_cpu", dt);
  const int64_t batch = nd == 4 ? self.size(0) : 1, rows = channels * kh * kw, length = bh * bw;
  const std::vector<int64_t> sizes = nd == 4 ? std::vector<int64_t>{batch, rows, length} : std::vector<int64_t>{rows, length};
  Tensor out = kernels::zeros(sizes, dt, self.device());
  if (out.is_meta() || out.numel() == 0) return out;
  const Tensor x = pool3d_detail::contiguous_of(self);
  const auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* im_all = x.data_ptr<T>();
    T* col_all = out.data_ptr<T>();
    detail::Pool2dShape per{};  // one "plane" per image, for the thread split
    per.batch = batch;
    per.planes = 1;
    detail::for_each_plane(per, rows * length, [&](int64_t n) {
      const T* im = im_all + n * channels * ih * iw;
      T* col = col_all + n * rows * length;
      for (int64_t c_col = 0; c_col < rows; ++c_col) {
        const int64_t w_off = c_col % kw, h_off = (c_col / kw) % kh, c_im = c_col / kh / kw;
        for (int64_t h_col = 0; h_col < bh; ++h_col) {
          const int64_t h_im = h_col * sh - ph + h_off * dh;
          for (int64_t w_col = 0; w_col < bw; ++w_col) {
            const int64_t w_im = w_col * sw - pw + w_off * dw;
            if (h_im >= 0 && h_im < ih && w_im >= 0 && w_im < iw)
              col[(c_col * bh + h_col) * bw + w_col] = im[(c_im * ih + h_im) * iw + w_im];
          }
        }
      }
    });
  };
  if (is_complex_kernel_dtype(dt)) dispatch_complex_dtype(dt, "im2col_out_cpu", run);
  else dispatch_floating_dtype(dt, "im2col_out_cpu", run);
  return out;
}

}  // namespace opd::kernels
