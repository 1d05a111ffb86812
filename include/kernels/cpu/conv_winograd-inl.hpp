#pragma once
// conv2d's 3x3 stride-1 path through Winograd's F(2x2, 3x3) (Lavin & Gray,
// "Fast Algorithms for Convolutional Neural Networks", 2015). Included by
// nn-inl.hpp only (compiled in src/kernels/nn.cpp).
//
// Each 2x2 block of outputs (a tile) is computed from the 4x4 input patch
// under it as Y = A^T [ (G g G^T) .* (B^T d B) ] A, so that over all channels
// and tiles the work becomes 16 independent matrix products
//   M_xi (og x tiles) = U_xi (og x cg) @ V_xi (cg x tiles),   xi = 0..15,
// with U = G g G^T (the weights, once per call) and V = B^T d B (the input):
// 16 products of cg multiply-adds per tile instead of 36, 2.25x fewer.
//
// The tiles go through in blocks of whole tile rows (about 64 tiles): a
// block's V and M stay in the core's L2 cache between the transforms and the
// GEMMs, and its products (og x cg x ~64) are small enough that OpenBLAS runs
// them on the calling thread, so blocks run in parallel on OpenMP's threads
// without OpenBLAS's own threads competing for the cores.
//
// Rounding: the transforms only add, subtract and halve (exact factors), but
// the sums differ from a direct convolution's; the error stays within a few
// times the direct one's (docs/benchmarks.md section 22 measures it).
#include <algorithm>
#include <cblas.h>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/scratch-inl.hpp"

namespace opd::kernels::detail {

// Winograd pays its transforms back only with enough channels on both sides
// (each transformed value is reused over cg or og products); below this the
// shifted-GEMM path is faster (measured in docs/benchmarks.md section 22).
inline constexpr int64_t winograd_min_channels = 16;

inline bool winograd_applies(int64_t kh, int64_t kw, int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t cg,
                             int64_t og) {
  return kh == 3 && kw == 3 && sh == 1 && sw == 1 && dh == 1 && dw == 1 && cg >= winograd_min_channels &&
         og >= winograd_min_channels;
}

template <class T>
void winograd_gemm(int m, int n, int k, const T* a, int lda, const T* b, int ldb, T* c, int ldc) {
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.f, a, lda, b, ldb, 0.f, c, ldc);
  } else {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
  }
}

// The distance between two of the 16 (or 9) matrices of cout x cg: a 4 KB
// multiple (64 x 64 floats) would put the 16 streams of a loop into one L1
// cache set (measured: the weight transform 5x slower), so it is padded.
inline int64_t winograd_u_stride(int64_t cout, int64_t cg) { return cout * cg + 16; }

// U_xi[o][c] (u: 16 matrices of cout x cg, xi-major, winograd_u_stride apart) = (G g G^T)[xi] for
// every 3x3 kernel g = w[o][c], with G = [[1,0,0],[1/2,1/2,1/2],[1/2,-1/2,1/2],[0,0,1]].
// w9 (9 x cout*cg) is scratch: the kernels' 9 taps apart, so that every
// loop below runs contiguously over (o, c).
template <class T>
void winograd_weights(const T* __restrict w, int64_t cout, int64_t cg, T* __restrict w9, T* __restrict u) {
  const int64_t n = cout * cg, us = winograd_u_stride(cout, cg);
  for (int64_t oc = 0; oc < n; ++oc)
    for (int64_t j = 0; j < 9; ++j) w9[j * us + oc] = w[oc * 9 + j];
  for (int64_t oc = 0; oc < n; ++oc) {
    T t[4][3];  // G g: 4 rows x 3 columns
    for (int j = 0; j < 3; ++j) {
      const T g0 = w9[j * us + oc], g1 = w9[(3 + j) * us + oc], g2 = w9[(6 + j) * us + oc];
      t[0][j] = g0;
      t[1][j] = T(0.5) * (g0 + g1 + g2);
      t[2][j] = T(0.5) * (g0 - g1 + g2);
      t[3][j] = g2;
    }
    for (int i = 0; i < 4; ++i) {  // (G g) G^T
      u[(i * 4 + 0) * us + oc] = t[i][0];
      u[(i * 4 + 1) * us + oc] = T(0.5) * (t[i][0] + t[i][1] + t[i][2]);
      u[(i * 4 + 2) * us + oc] = T(0.5) * (t[i][0] - t[i][1] + t[i][2]);
      u[(i * 4 + 3) * us + oc] = t[i][2];
    }
  }
}

// One row of tiles of one channel: V = B^T d B, B^T = [[1,0,-1,0],[0,1,1,0],[0,-1,1,0],[0,1,0,-1]].
// eo: the tile row's 4 input rows (zero padded), even and odd columns apart
// (input row i, column 2k at eo[(2i)*rs + k], column 2k+1 at eo[(2i+1)*rs + k]),
// so that every loop below is contiguous over the tiles k; t: 8*rs scratch.
// Writes v[xi*vs + k] for the n tiles (rs = n + 1).
template <class T>
void winograd_input_row(const T* __restrict eo, int64_t rs, int64_t n, T* __restrict t, T* __restrict v,
                        int64_t vs) {
  // B^T d (rows): t[(2r + parity)*rs + k].
  for (int p = 0; p < 2; ++p) {
    const T* d0 = eo + p * rs;
    const T* d1 = eo + (2 + p) * rs;
    const T* d2 = eo + (4 + p) * rs;
    const T* d3 = eo + (6 + p) * rs;
    T* t0 = t + p * rs;
    T* t1 = t + (2 + p) * rs;
    T* t2 = t + (4 + p) * rs;
    T* t3 = t + (6 + p) * rs;
    for (int64_t k = 0; k < rs; ++k) {
      t0[k] = d0[k] - d2[k];
      t1[k] = d1[k] + d2[k];
      t2[k] = d2[k] - d1[k];
      t3[k] = d1[k] - d3[k];
    }
  }
  // (B^T d) B (columns 2k..2k+3: even k, odd k, even k+1, odd k+1).
  for (int r = 0; r < 4; ++r) {
    const T* te = t + 2 * r * rs;
    const T* to = te + rs;
    T* v0 = v + (r * 4 + 0) * vs;
    T* v1 = v + (r * 4 + 1) * vs;
    T* v2 = v + (r * 4 + 2) * vs;
    T* v3 = v + (r * 4 + 3) * vs;
    for (int64_t k = 0; k < n; ++k) {
      v0[k] = te[k] - te[k + 1];
      v1[k] = to[k] + te[k + 1];
      v2[k] = te[k + 1] - to[k];
      v3[k] = to[k] - to[k + 1];
    }
  }
}

// One row of tiles of one output channel: Y = A^T M A + bias,
// A^T = [[1,1,1,0],[0,1,-1,-1]]; m[xi*ms + k] for the n tiles; the 2x2
// results go to y as 4 rows of n: top even, top odd, bottom even, bottom odd
// columns. s: 8*n scratch.
template <class T>
void winograd_output_row(const T* __restrict m, int64_t ms, int64_t n, T bias, T* __restrict s, T* __restrict y) {
  for (int j = 0; j < 4; ++j) {  // A^T M: s[(a*4 + j)*n + k]
    const T* m0 = m + j * ms;
    const T* m1 = m + (4 + j) * ms;
    const T* m2 = m + (8 + j) * ms;
    const T* m3 = m + (12 + j) * ms;
    T* s0 = s + j * n;
    T* s1 = s + (4 + j) * n;
    for (int64_t k = 0; k < n; ++k) {
      s0[k] = m0[k] + m1[k] + m2[k];
      s1[k] = m1[k] - m2[k] - m3[k];
    }
  }
  for (int a = 0; a < 2; ++a) {  // (A^T M) A
    const T* s0 = s + a * 4 * n;
    const T* s1 = s0 + n;
    const T* s2 = s1 + n;
    const T* s3 = s2 + n;
    T* ye = y + 2 * a * n;
    T* yo = ye + n;
    for (int64_t k = 0; k < n; ++k) {
      ye[k] = s0[k] + s1[k] + s2[k] + bias;
      yo[k] = s1[k] - s2[k] - s3[k] + bias;
    }
  }
}

// out (batch, cout, oh, ow) = conv2d(x, w, bias) for a 3x3 kernel, stride 1,
// dilation 1, padding (ph, pw), groups; x, w contiguous; T float or double.
template <class T>
void conv2d_winograd(const Tensor& x, const Tensor& w, const std::optional<Tensor>& bias, const Tensor& out,
                     int64_t groups, int64_t ph, int64_t pw) {
  const int64_t batch = x.size(0), cin = x.size(1), ih = x.size(2), iw = x.size(3);
  const int64_t cout = w.size(0), cg = w.size(1), og = cout / groups;
  const int64_t oh = out.size(2), ow = out.size(3);
  const int64_t th = (oh + 1) / 2, tw = (ow + 1) / 2;  // tiles per column / row
  // A block: `rows` tile rows (of any images) = rows * tw tiles.
  const int64_t rows = std::max<int64_t>(1, 64 / tw), nb = rows * tw, all_rows = batch * th;
  const int64_t blocks = (all_rows + rows - 1) / rows;
  const int64_t tasks = std::min<int64_t>(blocks, get_num_threads());
  // Scratch: U (16 x cout x cg) and the weights by tap (9 x cout x cg), then
  // per task: V (16 x cg x nb), M (16 x og x nb), a padded input row (2 rs),
  // its even/odd columns (8 rs), B^T d (8 rs), A^T M (8 tw), Y (4 tw).
  const int64_t rs = tw + 1;
  const auto rounded = [](int64_t n) { return (n * static_cast<int64_t>(sizeof(T)) + 63) / 64 * 64; };
  const int64_t us = winograd_u_stride(cout, cg), u_bytes = rounded(16 * us) + rounded(9 * us);
  // V's and M's 16 matrices are padded apart too (see winograd_u_stride).
  const int64_t vs = cg * nb + 16, ms = og * nb + 16, v_n = 16 * vs, m_n = 16 * ms;
  const int64_t task_bytes = rounded(v_n) + rounded(m_n) + rounded(18 * rs) + rounded(12 * tw);
  const Scratch scratch(static_cast<std::size_t>(u_bytes + tasks * task_bytes));
  char* base = static_cast<char*>(scratch.data());
  T* u = reinterpret_cast<T*>(base);
  winograd_weights<T>(w.data_ptr<T>(), cout, cg, reinterpret_cast<T*>(base + rounded(16 * us)), u);
  const T* px = x.data_ptr<T>();
  T* py = out.data_ptr<T>();
  const T* pb = bias ? bias->data_ptr<T>() : nullptr;
  const int64_t b_stride = bias ? bias->stride(0) : 0;
  // Input columns [c0, c1) land inside the padded row [0, 2 rs).
  const int64_t c0 = std::min<int64_t>(pw, 2 * rs), c1 = std::min<int64_t>(pw + iw, 2 * rs);

  const auto run_block = [&](int64_t block, char* mem) {
    T* v = reinterpret_cast<T*>(mem);
    T* m = reinterpret_cast<T*>(mem + rounded(v_n));
    T* row = reinterpret_cast<T*>(mem + rounded(v_n) + rounded(m_n));
    T* eo = row + 2 * rs;
    T* tmp = eo + 8 * rs;
    T* s = reinterpret_cast<T*>(mem + rounded(v_n) + rounded(m_n) + rounded(18 * rs));
    T* y = s + 8 * tw;
    const int64_t r0 = block * rows, r1 = std::min(all_rows, r0 + rows), n_tiles = (r1 - r0) * tw;
    // The padding columns of the padded row stay zero.
    std::fill(row, row + c0, T(0));
    std::fill(row + c1, row + 2 * rs, T(0));
    for (int64_t g = 0; g < groups; ++g) {
      // V for this block's tiles and the group's channels.
      for (int64_t c = 0; c < cg; ++c) {
        for (int64_t r = r0; r < r1; ++r) {
          const int64_t n = r / th, ty = r % th;
          const T* plane = px + (n * cin + g * cg + c) * ih * iw;
          for (int64_t i = 0; i < 4; ++i) {
            const int64_t iy = 2 * ty - ph + i;
            T* e = eo + 2 * i * rs;
            T* o = e + rs;
            if (iy < 0 || iy >= ih) {
              std::fill(e, e + 2 * rs, T(0));
              continue;
            }
            std::copy(plane + iy * iw, plane + iy * iw + (c1 - c0), row + c0);
            for (int64_t k = 0; k < rs; ++k) {
              e[k] = row[2 * k];
              o[k] = row[2 * k + 1];
            }
          }
          winograd_input_row<T>(eo, rs, tw, tmp, v + c * nb + (r - r0) * tw, vs);
        }
      }
      for (int64_t xi = 0; xi < 16; ++xi) {
        winograd_gemm<T>(static_cast<int>(og), static_cast<int>(n_tiles), static_cast<int>(cg),
                         u + xi * us + g * og * cg, static_cast<int>(cg), v + xi * vs, static_cast<int>(nb),
                         m + xi * ms, static_cast<int>(nb));
      }
      // Y into out, clipped at the bottom and right edges.
      for (int64_t oc = 0; oc < og; ++oc) {
        const T b = pb ? pb[(g * og + oc) * b_stride] : T(0);
        for (int64_t r = r0; r < r1; ++r) {
          const int64_t n = r / th, ty = r % th;
          winograd_output_row<T>(m + oc * nb + (r - r0) * tw, ms, tw, b, s, y);
          T* dst = py + ((n * cout + g * og + oc) * oh + 2 * ty) * ow;
          for (int64_t a = 0; a < 2 && 2 * ty + a < oh; ++a) {
            const T* ye = y + 2 * a * tw;
            const T* yo = ye + tw;
            T* d = dst + a * ow;
            for (int64_t k = 0; k < ow / 2; ++k) {
              d[2 * k] = ye[k];
              d[2 * k + 1] = yo[k];
            }
            if (ow % 2) d[ow - 1] = ye[tw - 1];
          }
        }
      }
    }
  };
  // One task per thread, each with its own part of the scratch block; the
  // blocks are dealt out round-robin.
  parallel_for(0, tasks, 1, [&](int64_t tb, int64_t te) {
    for (int64_t t = tb; t < te; ++t) {
      char* mem = base + u_bytes + t * task_bytes;
      for (int64_t block = t; block < blocks; block += tasks) run_block(block, mem);
    }
  });
}

}  // namespace opd::kernels::detail
