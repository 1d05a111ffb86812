#pragma once
// Convolutions as matrix products (conv-inl.hpp's generic paths, and the
// weight gradient of ops_conv_backward-inl.hpp): every convolution as 3-D
// (a 1-D or 2-D one has unit leading spatial sizes), the columns of one
// image (im2col3), their transpose added back (col2im3_add), and a
// contiguous matrix view for linalg.hpp's batched_gemm.
#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/parallel.hpp"

namespace opd::kernels::conv_detail {

// A convolution as 3-D: spatial sizes and parameters padded in front with
// unit sizes, unit strides and dilations, zero padding.
struct Geometry3 {
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1}, k{1, 1, 1}, s{1, 1, 1}, p{0, 0, 0}, d{1, 1, 1};
  int64_t in_size() const { return in[0] * in[1] * in[2]; }
  int64_t out_size() const { return out[0] * out[1] * out[2]; }
  int64_t k_size() const { return k[0] * k[1] * k[2]; }
};

// Rows (c, kd, kh, kw) of col, each S_out long, from one image's planes
// (contiguous, `channels` of them): the input value under kernel offset
// (kd, kh, kw) of each output position, or 0 in the padding.
template <class T>
void im2col3(const T* x, int64_t channels, const Geometry3& g, T* col) {
  const int64_t kvol = g.k_size(), ivol = g.in_size(), ovol = g.out_size();
  parallel_for(0, channels * kvol, std::max<int64_t>(1, grain_size / std::max<int64_t>(ovol, 1)), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t c = r / kvol, kk = r % kvol;
      const int64_t kd = kk / (g.k[1] * g.k[2]), kh = (kk / g.k[2]) % g.k[1], kw = kk % g.k[2];
      const T* plane = x + c * ivol;
      T* dst = col + r * ovol;
      for (int64_t od = 0; od < g.out[0]; ++od) {
        const int64_t id = od * g.s[0] - g.p[0] + kd * g.d[0];
        for (int64_t oh = 0; oh < g.out[1]; ++oh) {
          const int64_t ih = oh * g.s[1] - g.p[1] + kh * g.d[1];
          T* row = dst + (od * g.out[1] + oh) * g.out[2];
          if (id < 0 || id >= g.in[0] || ih < 0 || ih >= g.in[1]) {
            std::fill(row, row + g.out[2], T(0));
            continue;
          }
          const T* src = plane + (id * g.in[1] + ih) * g.in[2];
          for (int64_t ow = 0; ow < g.out[2]; ++ow) {
            const int64_t iw = ow * g.s[2] - g.p[2] + kw * g.d[2];
            row[ow] = iw >= 0 && iw < g.in[2] ? src[iw] : T(0);
          }
        }
      }
    }
  });
}

// The transpose of im2col3 with accumulation: each column value of row
// (c, kd, kh, kw) at input position i is added to the output at
// i * s - p + k * d when that is inside. One thread per channel: the rows of
// a channel write the same plane.
template <class T>
void col2im3_add(const T* col, int64_t channels, const Geometry3& g, T* out) {
  const int64_t kvol = g.k_size(), ivol = g.in_size(), ovol = g.out_size();
  parallel_for(0, channels, std::max<int64_t>(1, grain_size / std::max<int64_t>(ivol * kvol, 1)), [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      T* plane = out + c * ovol;
      for (int64_t kk = 0; kk < kvol; ++kk) {
        const int64_t kd = kk / (g.k[1] * g.k[2]), kh = (kk / g.k[2]) % g.k[1], kw = kk % g.k[2];
        const T* src = col + (c * kvol + kk) * ivol;
        for (int64_t id = 0; id < g.in[0]; ++id) {
          const int64_t od = id * g.s[0] - g.p[0] + kd * g.d[0];
          if (od < 0 || od >= g.out[0]) continue;
          for (int64_t ih = 0; ih < g.in[1]; ++ih) {
            const int64_t oh = ih * g.s[1] - g.p[1] + kh * g.d[1];
            if (oh < 0 || oh >= g.out[1]) continue;
            const T* row = src + (id * g.in[1] + ih) * g.in[2];
            T* dst = plane + (od * g.out[1] + oh) * g.out[2];
            for (int64_t iw = 0; iw < g.in[2]; ++iw) {
              const int64_t ow = iw * g.s[2] - g.p[2] + kw * g.d[2];
              if (ow < 0 || ow >= g.out[2]) continue;
              if constexpr (std::is_integral_v<T>)  // wraps as ATen's int64 (no UB)
                dst[ow] = static_cast<T>(static_cast<uint64_t>(dst[ow]) + static_cast<uint64_t>(row[iw]));
              else
                dst[ow] += row[iw];
            }
          }
        }
      }
    }
  });
}

// A contiguous matrix (rows, cols) at element `offset` of t, as the
// (1, rows, cols) operand batched_gemm takes; `transposed` reads a stored
// (cols, rows) matrix as its transpose.
inline Tensor matrix(const Tensor& t, int64_t offset, int64_t rows, int64_t cols, bool transposed = false) {
  const int64_t sizes[] = {1, rows, cols};
  const int64_t strides[] = {0, transposed ? 1 : cols, transposed ? rows : 1};
  return t.as_strided(sizes, strides, t.storage_offset() + offset);
}

}  // namespace opd::kernels::conv_detail
