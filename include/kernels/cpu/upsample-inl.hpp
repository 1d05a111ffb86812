#pragma once
// Out-of-line part of upsample.hpp (compiled in src/kernels/upsample.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/spatial_gather-inl.hpp"
#include "kernels/cpu/upsample.hpp"

namespace opd::kernels {

namespace upsample_detail {

// ATen's upsample_2d_common_check: the output's sizes (N, C, oh, ow).
inline std::vector<int64_t> output_sizes(const char* op, const Tensor& self, std::span<const int64_t> output_size) {
  OPD_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  OPD_CHECK(self.device().is_cpu() || self.is_meta(), op, ": the CPU kernel got a tensor on ", self.device());
  OPD_CHECK(output_size.size() == 2, "It is expected output_size equals to 2, but got size ", output_size.size());
  OPD_CHECK(self.dim() == 4, "It is expected input_size equals to 4, but got size ", self.dim());
  const int64_t ih = self.size(2), iw = self.size(3), oh = output_size[0], ow = output_size[1];
  OPD_CHECK(ih > 0 && iw > 0 && oh > 0 && ow > 0, "Input and output sizes should be greater than 0, but got input (H: ",
            ih, ", W: ", iw, ") output (H: ", oh, ", W: ", ow, ")");
  OPD_CHECK(self.numel() != 0 || self.size(1) * ih * iw != 0, "Non-empty 4D data tensor expected but got a tensor with sizes ",
            self.sizes());
  return {self.size(0), self.size(1), oh, ow};
}

// compute_scales_value<float>: 1 / scale when one is given and positive, else in / out.
inline float scale_of(std::optional<double> scale, int64_t in, int64_t out) {
  return scale && *scale > 0 ? static_cast<float>(1.0 / *scale) : static_cast<float>(in) / static_cast<float>(out);
}

// ATen's nearest_idx, each output index's source.
inline std::vector<int64_t> nearest_map(int64_t in, int64_t out, std::optional<double> scale) {
  std::vector<int64_t> idx(static_cast<std::size_t>(out));
  const float s = scale_of(scale, in, out);
  for (int64_t j = 0; j < out; ++j) {
    int64_t i = j;
    if (out == 2 * in) i = j >> 1;
    else if (out != in) i = std::min(static_cast<int64_t>(std::floor(static_cast<float>(j) * s)), in - 1);
    idx[static_cast<std::size_t>(j)] = i;
  }
  return idx;
}

// ATen's compute_indices_weights_linear for one dimension: the two source
// indices and their weights per output index, in T.
template <class T>
struct LinearTaps {
  std::vector<int64_t> i0, i1;
  std::vector<T> w0, w1;
};
template <class T>
LinearTaps<T> linear_taps(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  T s;
  if (align_corners) s = out > 1 ? static_cast<T>(in - 1) / static_cast<T>(out - 1) : T(0);
  else s = scale && *scale > 0 ? static_cast<T>(1.0 / *scale) : static_cast<T>(in) / static_cast<T>(out);
  LinearTaps<T> t;
  for (int64_t j = 0; j < out; ++j) {
    T src = align_corners ? s * static_cast<T>(j) : s * (static_cast<T>(j) + T(0.5)) - T(0.5);
    if (!align_corners && src < T(0)) src = T(0);
    const auto i = static_cast<int64_t>(src);
    const T l1 = src - static_cast<T>(i);
    t.i0.push_back(i);
    t.i1.push_back(i + (i < in - 1 ? 1 : 0));
    t.w0.push_back(T(1) - l1);
    t.w1.push_back(l1);
  }
  return t;
}

// The backward kernels' checks (ATen's upsample_2d_common_check on
// input_size, then grad_output's shape against the output's) and the dtypes
// they take (Float, Double, BFloat16). A fresh grad_input, not zeroed: each
// kernel zeroes a plane on the thread that adds into it.
inline Tensor backward_grad_input(const char* op, const Tensor& grad_output, std::span<const int64_t> output_size,
                                  std::span<const int64_t> input_size) {
  OPD_CHECK(grad_output.defined(), op, ": argument 'grad_output' is an undefined tensor");
  OPD_CHECK(grad_output.device().is_cpu() || grad_output.is_meta(), op, ": the CPU kernel got a tensor on ",
            grad_output.device());
  OPD_CHECK(output_size.size() == 2, "It is expected output_size equals to 2, but got size ", output_size.size());
  OPD_CHECK(input_size.size() == 4, "It is expected input_size equals to 4, but got size ", input_size.size());
  const int64_t ih = input_size[2], iw = input_size[3], oh = output_size[0], ow = output_size[1];
  OPD_CHECK(ih > 0 && iw > 0 && oh > 0 && ow > 0, "Input and output sizes should be greater than 0, but got input (H: ",
            ih, ", W: ", iw, ") output (H: ", oh, ", W: ", ow, ")");
  OPD_CHECK(input_size[0] >= 0 && input_size[1] >= 0, op, ": negative input_size ", IntArrayRef(input_size.data(), 4));
  OPD_CHECK(grad_output.dim() == 4, "Expected grad_output to be a tensor of dimension 4 but got: dimension ",
            grad_output.dim());
  const int64_t full[4] = {input_size[0], input_size[1], oh, ow};
  for (int64_t i = 0; i < 4; ++i) {
    OPD_CHECK(grad_output.size(i) == full[i], "Expected grad_output to have the same shape as output; output.size(", i,
              ") = ", full[i], " but got grad_output.size(", i, ") = ", grad_output.size(i));
  }
  const ScalarType dt = grad_output.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double && dt != ScalarType::BFloat16) throw_not_implemented_for(op, dt);
  return opd::empty(IntArrayRef(input_size.data(), 4), dt, grad_output.device());
}

// The backward's taps, as ATen 1.13's compute_source_index_and_lambda: the
// scale in T (area_pixel_compute_scale<scalar_t>), the source index in T's
// opmath, the weights rounded to T; equal sizes copy (one tap of weight 1).
template <class T>
LinearTaps<T> backward_linear_taps(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  using C = opmath_t<T>;
  C s;
  if (align_corners) {
    s = out > 1 ? static_cast<C>(static_cast<T>(static_cast<C>(static_cast<T>(in - 1)) / static_cast<C>(static_cast<T>(out - 1))))
                : C(0);
  } else {
    s = scale && *scale > 0 ? static_cast<C>(static_cast<T>(1.0 / *scale))
                            : static_cast<C>(static_cast<T>(static_cast<C>(static_cast<T>(in)) / static_cast<C>(static_cast<T>(out))));
  }
  LinearTaps<T> t;
  for (int64_t j = 0; j < out; ++j) {
    if (in == out) {
      t.i0.push_back(j);
      t.i1.push_back(j);
      t.w0.push_back(T(1));
      t.w1.push_back(T(0));
      continue;
    }
    C src = align_corners ? s * static_cast<C>(j) : s * (static_cast<C>(j) + C(0.5)) - C(0.5);
    if (!align_corners && src < C(0)) src = C(0);
    const auto i = static_cast<int64_t>(src);
    const T l1 = static_cast<T>(std::min(std::max(src - static_cast<C>(i), C(0)), C(1)));
    t.i0.push_back(i);
    t.i1.push_back(i + (i < in - 1 ? 1 : 0));
    t.w0.push_back(static_cast<T>(C(1) - static_cast<C>(l1)));
    t.w1.push_back(l1);
  }
  return t;
}

}  // namespace upsample_detail

OPD_FUNC Tensor upsample_nearest2d(const Tensor& self, std::span<const int64_t> output_size,
                                   std::optional<double> scales_h, std::optional<double> scales_w) {
  const std::vector<int64_t> sizes = upsample_detail::output_sizes("upsample_nearest2d", self, output_size);
  // ATen 1.13: Byte and the floating dtypes.
  if (!is_floating_type(self.dtype()) && self.dtype() != ScalarType::Byte)
    throw_not_implemented_for("upsample_nearest2d", self.dtype());
  Tensor out = opd::empty(sizes, self.dtype(), self.device());
  if (self.is_meta() || out.numel() == 0) return out;
  const std::vector<int64_t> src[3] = {{0}, upsample_detail::nearest_map(self.size(2), sizes[2], scales_h),
                                       upsample_detail::nearest_map(self.size(3), sizes[3], scales_w)};
  detail::gather_spatial("upsample_nearest2d", self, out, 2, src);
  return out;
}

OPD_FUNC Tensor upsample_bilinear2d(const Tensor& self, std::span<const int64_t> output_size, bool align_corners,
                                    std::optional<double> scales_h, std::optional<double> scales_w) {
  const std::vector<int64_t> sizes = upsample_detail::output_sizes("upsample_bilinear2d", self, output_size);
  // ATen 1.13: Float, Double and BFloat16 (named after its weights' loop).
  constexpr const char* op = "compute_indices_weights_linear";
  const ScalarType dt = self.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double && dt != ScalarType::BFloat16) throw_not_implemented_for(op, dt);
  Tensor out = opd::empty(sizes, dt, self.device());
  if (self.is_meta() || out.numel() == 0) return out;
  dispatch_floating_dtype(dt, op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, Half>) {
      // BFloat16 interpolates in float and rounds once (ATen 1.13 rounds
      // each product and sum to BFloat16: within its own error of this).
      using C = opmath_t<T>;
      const int64_t ih = self.size(2), iw = self.size(3), oh = sizes[2], ow = sizes[3];
      const auto th = upsample_detail::linear_taps<C>(ih, oh, align_corners, scales_h);
      const auto tw = upsample_detail::linear_taps<C>(iw, ow, align_corners, scales_w);
      const int64_t s0 = self.stride(0), s1 = self.stride(1), sh = self.stride(2), sw = self.stride(3);
      const int64_t channels = self.size(1);
      const T* in = self.data_ptr<T>();
      T* o = out.data_ptr<T>();
      parallel_for(0, sizes[0] * channels, std::max<int64_t>(1, grain_size / std::max<int64_t>(oh * ow, 1)), [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p) {
          const T* plane = in + (p / channels) * s0 + (p % channels) * s1;
          T* dst = o + p * oh * ow;
          for (int64_t y = 0; y < oh; ++y) {
            const auto yu = static_cast<std::size_t>(y);
            const T* r0 = plane + th.i0[yu] * sh;
            const T* r1 = plane + th.i1[yu] * sh;
            for (int64_t x = 0; x < ow; ++x) {
              const auto xu = static_cast<std::size_t>(x);
              const int64_t c0 = tw.i0[xu] * sw, c1 = tw.i1[xu] * sw;
              const C t0 = static_cast<C>(r0[c0]) * tw.w0[xu] + static_cast<C>(r0[c1]) * tw.w1[xu];
              const C t1 = static_cast<C>(r1[c0]) * tw.w0[xu] + static_cast<C>(r1[c1]) * tw.w1[xu];
              dst[y * ow + x] = static_cast<T>(t0 * th.w0[yu] + t1 * th.w1[yu]);
            }
          }
        }
      });
    }
  });
  return out;
}

OPD_FUNC Tensor upsample_nearest2d_backward(const Tensor& grad_output, std::span<const int64_t> output_size,
                                            std::span<const int64_t> input_size, std::optional<double> scales_h,
                                            std::optional<double> scales_w) {
  constexpr const char* op = "upsample_nearest2d_backward";
  Tensor grad_input = upsample_detail::backward_grad_input(op, grad_output, output_size, input_size);
  if (grad_input.is_meta() || grad_input.numel() == 0) return grad_input;
  const std::vector<int64_t> src[3] = {{0}, upsample_detail::nearest_map(input_size[2], output_size[0], scales_h),
                                       upsample_detail::nearest_map(input_size[3], output_size[1], scales_w)};
  dispatch_floating_dtype(grad_output.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, Half>) detail::scatter_add_spatial<T>(grad_output, grad_input, 2, src);
  });
  return grad_input;
}

OPD_FUNC Tensor upsample_bilinear2d_backward(const Tensor& grad_output, std::span<const int64_t> output_size,
                                             std::span<const int64_t> input_size, bool align_corners,
                                             std::optional<double> scales_h, std::optional<double> scales_w) {
  constexpr const char* op = "upsample_bilinear2d_backward";
  Tensor grad_input = upsample_detail::backward_grad_input(op, grad_output, output_size, input_size);
  if (grad_input.is_meta() || grad_input.numel() == 0) return grad_input;
  dispatch_floating_dtype(grad_output.dtype(), op, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, Half>) {
      using C = opmath_t<T>;
      const int64_t ih = input_size[2], iw = input_size[3], oh = output_size[0], ow = output_size[1];
      const auto th = upsample_detail::backward_linear_taps<T>(ih, oh, align_corners, scales_h);
      const auto tw = upsample_detail::backward_linear_taps<T>(iw, ow, align_corners, scales_w);
      const int64_t s0 = grad_output.stride(0), s1 = grad_output.stride(1), sh = grad_output.stride(2),
                    sw = grad_output.stride(3);
      const int64_t channels = input_size[1];
      const T* go = grad_output.data_ptr<T>();
      T* gi = grad_input.data_ptr<T>();
      // d += a * b * g, each product and sum rounded to T (ATen's scalar_t arithmetic)
      const auto add = [](T& d, T a, T b, T g) {
        d = static_cast<T>(static_cast<C>(d) + static_cast<C>(static_cast<T>(static_cast<C>(static_cast<T>(
                                                   static_cast<C>(a) * static_cast<C>(b))) * static_cast<C>(g))));
      };
      // one plane per task, its outputs in row-major order as ATen's loop
      parallel_for(0, input_size[0] * channels, std::max<int64_t>(1, grain_size / std::max<int64_t>(oh * ow, 1)),
                   [&](int64_t b, int64_t e) {
        for (int64_t p = b; p < e; ++p) {
          const T* plane = go + (p / channels) * s0 + (p % channels) * s1;
          T* dst = gi + p * ih * iw;
          std::memset(static_cast<void*>(dst), 0, static_cast<std::size_t>(ih * iw) * sizeof(T));
          for (int64_t y = 0; y < oh; ++y) {
            const auto yu = static_cast<std::size_t>(y);
            T* r0 = dst + th.i0[yu] * iw;
            T* r1 = dst + th.i1[yu] * iw;
            // Taps and weights read into locals before the adds: a store
            // through T* may alias the weight tables, so reading them inside
            // the adds reloaded them after every store (1.08x ATen's time).
            const T a0 = th.w0[yu], a1 = th.w1[yu];
            const T* g_row = plane + y * sh;
            for (int64_t x = 0; x < ow; ++x) {
              const auto xu = static_cast<std::size_t>(x);
              const int64_t c0 = tw.i0[xu], c1 = tw.i1[xu];
              const T b0 = tw.w0[xu], b1 = tw.w1[xu], g = g_row[x * sw];
              add(r0[c0], a0, b0, g);
              add(r0[c1], a0, b1, g);
              add(r1[c0], a1, b0, g);
              add(r1[c1], a1, b1, g);
            }
          }
        }
      });
    }
  });
  return grad_input;
}

}  // namespace opd::kernels
