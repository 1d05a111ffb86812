#pragma once
// Out-of-line part of grid_sampler.hpp (compiled in src/kernels/grid_sampler.cpp).
// The per-sample arithmetic is ATen 1.13's scalar grid sampler
// (GridSampler.h: unnormalize, clip / reflect, the bilinear and bicubic
// weights), element by element.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/grid_sampler.hpp"
#include "kernels/cpu/parallel.hpp"

namespace opd::kernels {

namespace grid_sampler_detail {

enum Padding : int64_t { Zeros = 0, Border = 1, Reflection = 2 };

template <class T>
T unnormalize(T coord, int64_t size, bool align_corners) {
  if (align_corners) return ((coord + 1) / 2) * static_cast<T>(size - 1);
  return ((coord + 1) * static_cast<T>(size) - 1) / 2;
}

template <class T>
T clip(T in, int64_t limit) {
  return std::min(static_cast<T>(limit - 1), std::max(in, static_cast<T>(0)));
}

template <class T>
T reflect(T in, int64_t twice_low, int64_t twice_high) {
  if (twice_low == twice_high) return static_cast<T>(0);
  const T min = static_cast<T>(twice_low) / 2;
  const T span = static_cast<T>(twice_high - twice_low) / 2;
  in = std::fabs(in - min);
  const T extra = std::fmod(in, span);
  // the parity of floor(in / span) (ATen converts it to int first, which a
  // coordinate far outside would overflow)
  const bool even_flips = std::fmod(std::floor(in / span), static_cast<T>(2)) == 0;
  return even_flips ? extra + min : span - extra + min;
}

// ATen's compute_coordinates: the padding mode applied to a pixel coordinate.
template <class T>
T apply_padding(T coord, int64_t size, int64_t padding, bool align_corners) {
  if (padding == Border) return clip(coord, size);
  if (padding == Reflection) {
    coord = align_corners ? reflect(coord, 0, 2 * (size - 1)) : reflect(coord, -1, 2 * size - 1);
    return clip(coord, size);
  }
  return coord;
}

inline bool inside(int64_t h, int64_t w, int64_t H, int64_t W) { return h >= 0 && h < H && w >= 0 && w < W; }

// static_cast<int64_t>(v) (truncation), as ATen converts coordinates, where
// it is defined; NaN and coordinates beyond 2^62 become -2, outside every
// image with its +1 neighbours too (x86 gives ATen INT64_MIN: outside as well).
template <class T>
int64_t to_index(T v) {
  constexpr T limit = static_cast<T>(4611686018427387904.0);  // 2^62
  return v > -limit && v < limit ? static_cast<int64_t>(v) : int64_t{-2};
}

template <class T>
T cubic1(T x, T a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
template <class T>
T cubic2(T x, T a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }
template <class T>
T cubic_interp(T x0, T x1, T x2, T x3, T t) {
  const T a = static_cast<T>(-0.75);
  return x0 * cubic2<T>(t + 1, a) + x1 * cubic1<T>(t, a) + x2 * cubic1<T>(1 - t, a) + x3 * cubic2<T>(2 - t, a);
}

}  // namespace grid_sampler_detail

OPD_FUNC Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                                int64_t padding_mode, bool align_corners) {
  using namespace grid_sampler_detail;
  OPD_CHECK(input.defined(), "grid_sampler(): expected input to not be undefined");
  OPD_CHECK(grid.defined(), "grid_sampler(): expected grid to not be undefined");
  OPD_CHECK(input.device() == grid.device(), "grid_sampler(): expected input and grid to be on same device, but input is on ",
            input.device(), " and grid is on ", grid.device());
  OPD_CHECK(input.device().is_cpu() || input.device().is_meta(), "grid_sampler_2d: the CPU kernel got input on device ",
            input.device());
  OPD_CHECK(input.dtype() == grid.dtype(), "grid_sampler(): expected input and grid to have same dtype, but input has ",
            input.dtype(), " and grid has ", grid.dtype());
  OPD_CHECK(input.dim() == 4 && grid.dim() == 4, "grid_sampler(): expected 4D input and grid with same number of "
            "dimensions, but got input with sizes ", input.sizes(), " and grid with sizes ", grid.sizes());
  OPD_CHECK(input.size(0) == grid.size(0), "grid_sampler(): expected grid and input to have same batch size, but got "
            "input with sizes ", input.sizes(), " and grid with sizes ", grid.sizes());
  OPD_CHECK(grid.size(3) == 2, "grid_sampler(): expected grid to have size 2 in last dimension, but got grid with sizes ",
            grid.sizes());
  for (int64_t i = 2; i < 4; ++i) {
    OPD_CHECK(input.size(i) > 0, "grid_sampler(): expected input to have non-empty spatial dimensions, but input has "
              "sizes ", input.sizes(), " with dimension ", i, " being empty");
  }
  OPD_CHECK(interpolation_mode >= 0 && interpolation_mode <= 2,
            "grid_sampler_2d: interpolation_mode must be 0 (bilinear), 1 (nearest) or 2 (bicubic), got ",
            interpolation_mode);
  OPD_CHECK(padding_mode >= 0 && padding_mode <= 2,
            "grid_sampler_2d: padding_mode must be 0 (zeros), 1 (border) or 2 (reflection), got ", padding_mode);
  const ScalarType dt = input.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for("grid_sampler_2d_cpu", dt);
  const int64_t N = input.size(0), C = input.size(1), H = input.size(2), W = input.size(3);
  const int64_t Ho = grid.size(1), Wo = grid.size(2);
  Tensor out = opd::empty(std::vector<int64_t>{N, C, Ho, Wo}, dt, input.device());
  if (out.is_meta() || out.numel() == 0) return out;
  const int64_t isN = input.stride(0), isC = input.stride(1), isH = input.stride(2), isW = input.stride(3);
  const int64_t gsN = grid.stride(0), gsH = grid.stride(1), gsW = grid.stride(2), gsC = grid.stride(3);
  const auto run = [&](auto* o, const auto* in, const auto* g) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(in)>>;
    // one task per (n, output row)
    parallel_for(0, N * Ho, std::max<int64_t>(1, grain_size / std::max<int64_t>(1, Wo * C * 4)), [&](int64_t b, int64_t e) {
      for (int64_t task = b; task < e; ++task) {
        const int64_t n = task / Ho, h = task % Ho;
        const T* inp = in + n * isN;
        for (int64_t w = 0; w < Wo; ++w) {
          const T* gp = g + n * gsN + h * gsH + w * gsW;
          const T x = gp[0], y = gp[gsC];
          T* dst = o + ((n * C) * Ho + h) * Wo + w;  // channel c at dst[c * Ho * Wo]
          const int64_t oc = Ho * Wo;
          if (interpolation_mode == 0) {
            const T ix = apply_padding(unnormalize(x, W, align_corners), W, padding_mode, align_corners);
            const T iy = apply_padding(unnormalize(y, H, align_corners), H, padding_mode, align_corners);
            const T fx = std::floor(ix), fy = std::floor(iy);
            const int64_t x0 = to_index(fx), y0 = to_index(fy);
            const T nw = (fx + 1 - ix) * (fy + 1 - iy), ne = (ix - fx) * (fy + 1 - iy);
            const T sw = (fx + 1 - ix) * (iy - fy), se = (ix - fx) * (iy - fy);
            for (int64_t c = 0; c < C; ++c) {
              const T* plane = inp + c * isC;
              T res = 0;
              if (inside(y0, x0, H, W)) res += plane[y0 * isH + x0 * isW] * nw;
              if (inside(y0, x0 + 1, H, W)) res += plane[y0 * isH + (x0 + 1) * isW] * ne;
              if (inside(y0 + 1, x0, H, W)) res += plane[(y0 + 1) * isH + x0 * isW] * sw;
              if (inside(y0 + 1, x0 + 1, H, W)) res += plane[(y0 + 1) * isH + (x0 + 1) * isW] * se;
              dst[c * oc] = res;
            }
          } else if (interpolation_mode == 1) {
            const T ix = apply_padding(unnormalize(x, W, align_corners), W, padding_mode, align_corners);
            const T iy = apply_padding(unnormalize(y, H, align_corners), H, padding_mode, align_corners);
            const int64_t xn = to_index(std::nearbyint(ix)), yn = to_index(std::nearbyint(iy));
            const bool in_bounds = inside(yn, xn, H, W);
            for (int64_t c = 0; c < C; ++c) dst[c * oc] = in_bounds ? inp[c * isC + yn * isH + xn * isW] : T(0);
          } else {
            const T ix = unnormalize(x, W, align_corners), iy = unnormalize(y, H, align_corners);
            const T fx = std::floor(ix), fy = std::floor(iy);
            const T tx = ix - fx, ty = iy - fy;
            // each tap's coordinate through the padding mode, then read if inside
            const auto tap = [&](const T* plane, T px, T py) -> T {
              const int64_t cx = to_index(apply_padding(px, W, padding_mode, align_corners));
              const int64_t cy = to_index(apply_padding(py, H, padding_mode, align_corners));
              return inside(cy, cx, H, W) ? plane[cy * isH + cx * isW] : T(0);
            };
            for (int64_t c = 0; c < C; ++c) {
              const T* plane = inp + c * isC;
              T rows[4];
              for (int i = 0; i < 4; ++i) {
                const T py = fy - 1 + static_cast<T>(i);
                rows[i] = cubic_interp<T>(tap(plane, fx - 1, py), tap(plane, fx, py), tap(plane, fx + 1, py),
                                          tap(plane, fx + 2, py), tx);
              }
              dst[c * oc] = cubic_interp<T>(rows[0], rows[1], rows[2], rows[3], ty);
            }
          }
        }
      }
    });
  };
  if (dt == ScalarType::Float) run(out.data_ptr<float>(), input.data_ptr<float>(), grid.data_ptr<float>());
  else run(out.data_ptr<double>(), input.data_ptr<double>(), grid.data_ptr<double>());
  return out;
}

}  // namespace opd::kernels
