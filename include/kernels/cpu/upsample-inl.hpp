#pragma once
// Out-of-line part of upsample.hpp (compiled in src/kernels/upsample.cpp).
#include <algorithm>
#include <cmath>
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

}  // namespace opd::kernels
