#pragma once
// Out-of-line part of grid_sampler.hpp (compiled in src/kernels/grid_sampler.cpp).
// The per-sample arithmetic is ATen 1.13's scalar grid sampler
// (GridSampler.h: unnormalize, clip / reflect, the bilinear and bicubic
// weights), element by element.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <tuple>
#include <type_traits>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/factory.hpp"
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

// ATen's check_grid_sampler_common and check_grid_sampler_2d, and the modes.
inline void check_grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                                  int64_t padding_mode) {
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
}

// The *_set_grad variants of ATen's coordinate functions (GridSampler.h):
// the same coordinate, and in *grad the derivative of it by the input coordinate.
template <class T>
T unnormalize_set_grad(T coord, int64_t size, bool align_corners, T* grad) {
  if (align_corners) {
    *grad = static_cast<T>(size - 1) / 2;
    return ((coord + 1) / 2) * static_cast<T>(size - 1);
  }
  *grad = static_cast<T>(size) / 2;
  return ((coord + 1) * static_cast<T>(size) - 1) / 2;
}
template <class T>
T clip_set_grad(T in, int64_t limit, T* grad) {
  if (in <= static_cast<T>(0)) {
    *grad = 0;
    return 0;
  }
  const T max = static_cast<T>(limit - 1);
  if (in >= max) {
    *grad = 0;
    return max;
  }
  *grad = 1;
  return in;
}
template <class T>
T reflect_set_grad(T in, int64_t twice_low, int64_t twice_high, T* grad) {
  if (twice_low == twice_high) {
    *grad = 0;
    return 0;
  }
  const T min = static_cast<T>(twice_low) / 2;
  const T span = static_cast<T>(twice_high - twice_low) / 2;
  in = in - min;
  T mult = 1;
  if (in < static_cast<T>(0)) {
    mult = -1;
    in = -in;
  }
  const T extra = std::fmod(in, span);
  const bool even_flips = std::fmod(std::floor(in / span), static_cast<T>(2)) == 0;
  *grad = even_flips ? mult : -mult;
  return even_flips ? extra + min : span - extra + min;
}
template <class T>
T source_index_set_grad(T coord, int64_t size, int64_t padding, bool align_corners, T* grad) {
  coord = unnormalize_set_grad(coord, size, align_corners, grad);
  T g_clip = 1, g_refl = 1;
  if (padding == Border) {
    coord = clip_set_grad(coord, size, &g_clip);
    *grad *= g_clip;
  } else if (padding == Reflection) {
    coord = align_corners ? reflect_set_grad(coord, 0, 2 * (size - 1), &g_refl)
                          : reflect_set_grad(coord, -1, 2 * size - 1, &g_refl);
    coord = clip_set_grad(coord, size, &g_clip);
    *grad = *grad * g_refl * g_clip;
  }
  return coord;
}
// d/dt of the four cubic convolution coefficients (ATen's get_cubic_coefficients_grad).
template <class T>
void cubic_coefficients_grad(T (&c)[4], T t) {
  const T A = static_cast<T>(-0.75);
  T x = -1 - t;
  c[0] = (-3 * A * x - 10 * A) * x - 8 * A;
  x = -t;
  c[1] = (-3 * (A + 2) * x - 2 * (A + 3)) * x;
  x = 1 - t;
  c[2] = (3 * (A + 2) * x - 2 * (A + 3)) * x;
  x = 2 - t;
  c[3] = (3 * A * x - 10 * A) * x + 8 * A;
}
template <class T>
void cubic_coefficients(T (&c)[4], T t) {
  const T A = static_cast<T>(-0.75);
  c[0] = cubic2<T>(t + 1, A);
  c[1] = cubic1<T>(t, A);
  c[2] = cubic1<T>(1 - t, A);
  c[3] = cubic2<T>(2 - t, A);
}

}  // namespace grid_sampler_detail

OPD_FUNC Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                                int64_t padding_mode, bool align_corners) {
  using namespace grid_sampler_detail;
  check_grid_sampler_2d(input, grid, interpolation_mode, padding_mode);
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
            // the taps inside the input, in ATen's order (nw, ne, sw, se), found once for
            // every channel (tested per channel, they spilled the loop's registers)
            int64_t at[4];
            T wt[4];
            int taps = 0;
            const auto add_tap = [&](int64_t yy, int64_t xx, T weight) {
              if (!inside(yy, xx, H, W)) return;
              at[taps] = yy * isH + xx * isW;
              wt[taps++] = weight;
            };
            add_tap(y0, x0, nw);
            add_tap(y0, x0 + 1, ne);
            add_tap(y0 + 1, x0, sw);
            add_tap(y0 + 1, x0 + 1, se);
            for (int64_t c = 0; c < C; ++c) {
              const T* plane = inp + c * isC;
              T res = 0;
              for (int k = 0; k < taps; ++k) res += plane[at[k]] * wt[k];
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

// ATen 1.13's grid_sampler_2d_backward (the scalar kernel's arithmetic): the
// input's gradient adds each output gradient into the pixels it was read
// from with the same weights; the grid's is the derivative of the
// interpolation by the sampling position, times the coordinate's derivative
// (unnormalize, clip, reflect). One task per sample n (the input's gradient
// of a sample gathers from all its output positions), positions in order.
OPD_FUNC std::tuple<Tensor, Tensor> grid_sampler_2d_backward(const Tensor& grad_output, const Tensor& input,
                                                             const Tensor& grid, int64_t interpolation_mode,
                                                             int64_t padding_mode, bool align_corners,
                                                             std::span<const bool> output_mask) {
  using namespace grid_sampler_detail;
  OPD_CHECK(grad_output.defined(), "grid_sampler_2d_backward: argument 'grad_output' is an undefined tensor");
  check_grid_sampler_2d(input, grid, interpolation_mode, padding_mode);
  OPD_CHECK(output_mask.size() == 2, "grid_sampler_2d_backward: output_mask must have 2 elements, got ",
            output_mask.size());
  const int64_t N = input.size(0), C = input.size(1), H = input.size(2), W = input.size(3);
  const int64_t Ho = grid.size(1), Wo = grid.size(2);
  // ATen 1.13 reads grad_output unchecked: here it must be the output's shape
  OPD_CHECK(grad_output.dim() == 4 && grad_output.size(0) == N && grad_output.size(1) == C &&
                grad_output.size(2) == Ho && grad_output.size(3) == Wo,
            "grid_sampler_2d_backward: expected grad_output of sizes [", N, ", ", C, ", ", Ho, ", ", Wo, "], but got ",
            grad_output.sizes());
  OPD_CHECK(grad_output.device() == input.device(), "grid_sampler_2d_backward: expected grad_output on ",
            input.device(), ", but got ", grad_output.device());
  const ScalarType dt = input.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double) {
    throw NotImplementedError(opd::detail::str_cat("grid_sampler_2d_backward_cpu not implemented for ", dt));
  }
  OPD_CHECK(grad_output.dtype() == dt, "expected scalar type ", dt, " but found ", grad_output.dtype());
  const bool want_input = output_mask[0];
  Tensor grad_input;
  if (want_input) grad_input = kernels::zeros(input.sizes(), dt, input.device());
  Tensor grad_grid = opd::empty(grid.sizes(), dt, grid.device());
  if (grad_grid.is_meta() || N == 0) return {grad_input, grad_grid};
  const int64_t isN = input.stride(0), isC = input.stride(1), isH = input.stride(2), isW = input.stride(3);
  const int64_t gsN = grid.stride(0), gsH = grid.stride(1), gsW = grid.stride(2), gsC = grid.stride(3);
  const int64_t osN = grad_output.stride(0), osC = grad_output.stride(1), osH = grad_output.stride(2),
                osW = grad_output.stride(3);
  const auto run = [&](const auto* in, const auto* g, const auto* go) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(in)>>;
    T* gin_all = want_input ? grad_input.data_ptr<T>() : nullptr;
    T* ggrid = grad_grid.data_ptr<T>();  // contiguous (N, Ho, Wo, 2)
    parallel_for(0, N, std::max<int64_t>(1, grain_size / std::max<int64_t>(1, Ho * Wo * C * 8)), [&](int64_t b, int64_t e) {
      for (int64_t n = b; n < e; ++n) {
        const T* inp = in + n * isN;
        T* gin = want_input ? gin_all + n * C * H * W : nullptr;  // contiguous
        const auto add = [&](int64_t c, int64_t yy, int64_t xx, T v) {
          if (gin != nullptr && inside(yy, xx, H, W)) gin[(c * H + yy) * W + xx] += v;
        };
        for (int64_t h = 0; h < Ho; ++h) {
          for (int64_t w = 0; w < Wo; ++w) {
            const T* gp = g + n * gsN + h * gsH + w * gsW;
            const T x = gp[0], y = gp[gsC];
            const T* gop = go + n * osN + h * osH + w * osW;  // channel c at gop[c * osC]
            T* gg = ggrid + ((n * Ho + h) * Wo + w) * 2;
            T gix = 0, giy = 0, gx_mult = 0, gy_mult = 0;
            if (interpolation_mode == 0) {
              const T ix = source_index_set_grad(x, W, padding_mode, align_corners, &gx_mult);
              const T iy = source_index_set_grad(y, H, padding_mode, align_corners, &gy_mult);
              const T fx = std::floor(ix), fy = std::floor(iy);
              const int64_t x0 = to_index(fx), y0 = to_index(fy);
              const T nw = (fx + 1 - ix) * (fy + 1 - iy), ne = (ix - fx) * (fy + 1 - iy);
              const T sw = (fx + 1 - ix) * (iy - fy), se = (ix - fx) * (iy - fy);
              for (int64_t c = 0; c < C; ++c) {
                const T gout = gop[c * osC];
                add(c, y0, x0, nw * gout);
                add(c, y0, x0 + 1, ne * gout);
                add(c, y0 + 1, x0, sw * gout);
                add(c, y0 + 1, x0 + 1, se * gout);
                const T* plane = inp + c * isC;
                if (inside(y0, x0, H, W)) {
                  const T v = plane[y0 * isH + x0 * isW];
                  gix -= v * (fy + 1 - iy) * gout;
                  giy -= v * (fx + 1 - ix) * gout;
                }
                if (inside(y0, x0 + 1, H, W)) {
                  const T v = plane[y0 * isH + (x0 + 1) * isW];
                  gix += v * (fy + 1 - iy) * gout;
                  giy -= v * (ix - fx) * gout;
                }
                if (inside(y0 + 1, x0, H, W)) {
                  const T v = plane[(y0 + 1) * isH + x0 * isW];
                  gix -= v * (iy - fy) * gout;
                  giy += v * (fx + 1 - ix) * gout;
                }
                if (inside(y0 + 1, x0 + 1, H, W)) {
                  const T v = plane[(y0 + 1) * isH + (x0 + 1) * isW];
                  gix += v * (iy - fy) * gout;
                  giy += v * (ix - fx) * gout;
                }
              }
            } else if (interpolation_mode == 1) {
              // the nearest pixel: the grid gets no gradient (a step function)
              const T ix = apply_padding(unnormalize(x, W, align_corners), W, padding_mode, align_corners);
              const T iy = apply_padding(unnormalize(y, H, align_corners), H, padding_mode, align_corners);
              const int64_t xn = to_index(std::nearbyint(ix)), yn = to_index(std::nearbyint(iy));
              for (int64_t c = 0; c < C; ++c) add(c, yn, xn, gop[c * osC]);
            } else {
              const T ix = unnormalize_set_grad(x, W, align_corners, &gx_mult);
              const T iy = unnormalize_set_grad(y, H, align_corners, &gy_mult);
              const T fx = std::floor(ix), fy = std::floor(iy);
              T cx[4], cy[4], dcx[4], dcy[4];
              cubic_coefficients(cx, ix - fx);
              cubic_coefficients(cy, iy - fy);
              cubic_coefficients_grad(dcx, ix - fx);
              cubic_coefficients_grad(dcy, iy - fy);
              // each tap's pixel through the padding mode (the taps' positions do not move with the grid)
              int64_t tx[4], ty[4];
              for (int i = 0; i < 4; ++i) {
                tx[i] = to_index(apply_padding(fx - 1 + static_cast<T>(i), W, padding_mode, align_corners));
                ty[i] = to_index(apply_padding(fy - 1 + static_cast<T>(i), H, padding_mode, align_corners));
              }
              for (int64_t c = 0; c < C; ++c) {
                const T gout = gop[c * osC];
                const T* plane = inp + c * isC;
                for (int i = 0; i < 4; ++i) {
                  for (int j = 0; j < 4; ++j) {
                    add(c, ty[j], tx[i], gout * cx[i] * cy[j]);
                    const T v = inside(ty[j], tx[i], H, W) ? plane[ty[j] * isH + tx[i] * isW] : T(0);
                    gix -= v * dcx[i] * cy[j] * gout;
                    giy -= v * dcy[j] * cx[i] * gout;
                  }
                }
              }
            }
            gg[0] = gx_mult * gix;
            gg[1] = gy_mult * giy;
          }
        }
      }
    });
  };
  if (dt == ScalarType::Float) run(input.data_ptr<float>(), grid.data_ptr<float>(), grad_output.data_ptr<float>());
  else run(input.data_ptr<double>(), grid.data_ptr<double>(), grad_output.data_ptr<double>());
  return {grad_input, grad_grid};
}

}  // namespace opd::kernels
