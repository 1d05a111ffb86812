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
// The tiles go through in blocks of whole tile rows (about 128 tiles): a
// block's V and M stay in the core's L2 cache between the transforms and the
// GEMMs, and its products (64 x 64 x ~128 on a ResNet layer) are under
// OpenBLAS's small-matrix size, which it runs on the calling thread, so
// blocks run in parallel on OpenMP's threads without OpenBLAS's own threads
// competing for the cores.
//
// Rounding: the transforms only add, subtract and halve (exact factors), but
// the sums differ from a direct convolution's: measured in float at 1.7x the
// shifted-GEMM path's error and 1.2x ATen's (rms; docs/benchmarks.md,
// "Matrix products and conv2d").
#include <algorithm>
#include <cblas.h>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/blas_threads.hpp"
#include "kernels/cpu/sgemm.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/scratch-inl.hpp"

namespace opd::kernels::detail {

// Winograd pays its transforms back only with enough channels on both sides
// (each transformed input is reused by og products, each transformed output
// sums cg) and enough tiles (the weight transform is paid once per call).
// Measured against the shifted-GEMM path on one thread (2026-11-24; the
// table is in the history of docs/benchmarks.md, `git log -p`): faster from
// 8 channels at 56x56 and at 28x28, slower at 16 or 256 channels on 14x14
// and at 7x7.
inline constexpr int64_t winograd_min_channels = 8;
inline constexpr int64_t winograd_min_outputs = 512;  // batch * oh * ow
// Tiles in a block (a multiple of 16 columns suits OpenBLAS's kernels; 64 x
// 64 channels x 128 tiles is under OpenBLAS's "small matrix" size, which it
// runs on the calling thread).
inline constexpr int64_t winograd_block_tiles = 128;

inline bool winograd_applies(int64_t kh, int64_t kw, int64_t sh, int64_t sw, int64_t dh, int64_t dw, int64_t cg,
                             int64_t og, int64_t outputs) {
  return kh == 3 && kw == 3 && sh == 1 && sw == 1 && dh == 1 && dw == 1 && cg >= winograd_min_channels &&
         og >= winograd_min_channels && outputs >= winograd_min_outputs;
}

template <class T>
void winograd_gemm(int m, int n, int k, const T* a, int lda, const T* b, int ldb, T* c, int ldc) {
  if constexpr (std::is_same_v<T, float>) {
    sgemm(false, false, m, n, k, 1.f, a, lda, b, ldb, 0.f, c, ldc);
  } else {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
  }
}

// The distance between two of the 16 (or 9) matrices of cout x cg: a 4 KB
// multiple (64 x 64 floats) would put the 16 streams of a loop into one L1
// cache set (measured: the weight transform 5x slower), so it is padded.
inline int64_t winograd_u_stride(int64_t cout, int64_t cg) { return cout * cg + 16; }

// U_xi[o][c] (u: 16 matrices of cout x cg, xi-major, winograd_u_stride apart) = (G g G^T)[xi] for
// the 3x3 kernels g = w[o][c] with o * cg + c in [begin, end), G = [[1,0,0],[1/2,1/2,1/2],[1/2,-1/2,1/2],[0,0,1]].
// w9 (9 x cout*cg) is scratch: the kernels' 9 taps apart, so that every
// loop below runs contiguously over (o, c).
template <class T>
void winograd_weights(const T* __restrict w, int64_t cout, int64_t cg, int64_t begin, int64_t end,
                      T* __restrict w9, T* __restrict u) {
  const int64_t us = winograd_u_stride(cout, cg);
  for (int64_t oc = begin; oc < end; ++oc)
    for (int64_t j = 0; j < 9; ++j) w9[j * us + oc] = w[oc * 9 + j];
  for (int64_t oc = begin; oc < end; ++oc) {
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
// d: the tile row's 4 input rows, zero padded, 2 (n + 1) long, ds apart;
// t: 8 (n + 1) scratch. Writes v[xi*vs + k] for the n tiles k.
template <class T>
void winograd_input_row(const T* __restrict d, int64_t ds, int64_t n, T* __restrict t, T* __restrict v,
                        int64_t vs) {
  // B^T d, the even and odd columns apart (t[(2r + parity)*rs + k]), so that
  // the column pass below reads contiguously over the tiles.
  const int64_t rs = n + 1;
  for (int p = 0; p < 2; ++p) {
    const T* d0 = d + p;
    const T* d1 = d + ds + p;
    const T* d2 = d + 2 * ds + p;
    const T* d3 = d + 3 * ds + p;
    T* t0 = t + p * rs;
    T* t1 = t + (2 + p) * rs;
    T* t2 = t + (4 + p) * rs;
    T* t3 = t + (6 + p) * rs;
    for (int64_t k = 0; k < rs; ++k) {
      t0[k] = d0[2 * k] - d2[2 * k];
      t1[k] = d1[2 * k] + d2[2 * k];
      t2[k] = d2[2 * k] - d1[2 * k];
      t3[k] = d1[2 * k] - d3[2 * k];
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

// The first half of the output transform for n tiles of one output channel:
// s = A^T M, A^T = [[1,1,1,0],[0,1,-1,-1]], from m[xi*ms + k]; s[(a*4 + j)*n + k].
template <class T>
void winograd_output_rows(const T* __restrict m, int64_t ms, int64_t n, T* __restrict s) {
  for (int j = 0; j < 4; ++j) {
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
}

// The second half for one output row: y[x] = (s A)[x] + bias for the
// 2 * tiles columns x < w (w odd: the last tile's right column dropped);
// s: 4 rows (columns j = 0..3 of A^T M), sn apart, from the tile row's start.
template <class T>
void winograd_output_cols(const T* __restrict s, int64_t sn, int64_t w, T bias, T* __restrict y) {
  const T* s0 = s;
  const T* s1 = s + sn;
  const T* s2 = s + 2 * sn;
  const T* s3 = s + 3 * sn;
  for (int64_t k = 0; k < w / 2; ++k) {
    y[2 * k] = s0[k] + s1[k] + s2[k] + bias;
    y[2 * k + 1] = s1[k] - s2[k] - s3[k] + bias;
  }
  if (w % 2) {
    const int64_t k = w / 2;
    y[w - 1] = s0[k] + s1[k] + s2[k] + bias;
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
  // Blocks of whole tile rows (of any images), about winograd_block_tiles
  // tiles each, as many blocks per thread on every thread: block b has tile
  // rows [b * all_rows / blocks, (b + 1) * all_rows / blocks).
  const int64_t all_rows = batch * th, threads = get_num_threads();
  int64_t blocks = std::max<int64_t>(1, all_rows * tw / winograd_block_tiles);
  if (threads > 1) blocks = (blocks + threads - 1) / threads * threads;
  blocks = std::min(blocks, all_rows);
  const int64_t nb = (all_rows + blocks - 1) / blocks * tw;  // the most tiles in a block
  const int64_t tasks = std::min(blocks, threads);
  // Scratch: U (16 x cout x cg) and the weights by tap (9 x cout x cg), then
  // per task: V (16 x cg x nb), M (16 x og x nb), 4 padded input rows
  // (4 x 2 rs), B^T d (8 rs), A^T M (8 nb).
  const int64_t rs = tw + 1;
  const auto rounded = [](int64_t n) { return (n * static_cast<int64_t>(sizeof(T)) + 63) / 64 * 64; };
  const int64_t us = winograd_u_stride(cout, cg), u_bytes = rounded(16 * us) + rounded(9 * us);
  // V's and M's 16 matrices are padded apart too (see winograd_u_stride).
  const int64_t vs = cg * nb + 16, ms = og * nb + 16, v_n = 16 * vs, m_n = 16 * ms;
  const int64_t task_bytes = rounded(v_n) + rounded(m_n) + rounded(16 * rs) + rounded(8 * nb);
  const Scratch scratch(static_cast<std::size_t>(u_bytes + tasks * task_bytes));
  char* base = static_cast<char*>(scratch.data());
  T* u = reinterpret_cast<T*>(base);
  // The weight transform across threads (no BLAS call between this OpenMP
  // region and the next, so no OpenBLAS thread waits for these cores).
  parallel_for(0, cout * cg, 1024, [&](int64_t b, int64_t e) {
    winograd_weights<T>(w.data_ptr<T>(), cout, cg, b, e, reinterpret_cast<T*>(base + rounded(16 * us)), u);
  });
  const T* px = x.data_ptr<T>();
  T* py = out.data_ptr<T>();
  const T* pb = bias ? bias->data_ptr<T>() : nullptr;
  const int64_t b_stride = bias ? bias->stride(0) : 0;

  const auto run_block = [&](int64_t block, char* mem) {
    T* v = reinterpret_cast<T*>(mem);
    T* m = reinterpret_cast<T*>(mem + rounded(v_n));
    T* d = reinterpret_cast<T*>(mem + rounded(v_n) + rounded(m_n));  // 4 rows of 2 rs
    T* tmp = d + 8 * rs;
    T* s = reinterpret_cast<T*>(mem + rounded(v_n) + rounded(m_n) + rounded(16 * rs));
    const int64_t r0 = block * all_rows / blocks, r1 = (block + 1) * all_rows / blocks, n_tiles = (r1 - r0) * tw;
    // Padded column j holds input column j - pw; the columns outside the
    // image stay zero (only [pw, pw + iw) is ever written).
    std::fill(d, d + 8 * rs, T(0));
    for (int64_t g = 0; g < groups; ++g) {
      // V for this block's tiles and the group's channels.
      for (int64_t c = 0; c < cg; ++c) {
        for (int64_t r = r0; r < r1; ++r) {
          const int64_t n = r / th, ty = r % th;
          const T* plane = px + (n * cin + g * cg + c) * ih * iw;
          for (int64_t i = 0; i < 4; ++i) {
            const int64_t iy = 2 * ty - ph + i;
            T* row = d + i * 2 * rs + pw;
            if (iy < 0 || iy >= ih) {
              std::fill(row, row + iw, T(0));
            } else {
              std::copy(plane + iy * iw, plane + (iy + 1) * iw, row);
            }
          }
          winograd_input_row<T>(d, 2 * rs, tw, tmp, v + c * nb + (r - r0) * tw, vs);
        }
      }
      for (int64_t xi = 0; xi < 16; ++xi) {
        winograd_gemm<T>(static_cast<int>(og), static_cast<int>(n_tiles), static_cast<int>(cg),
                         u + xi * us + g * og * cg, static_cast<int>(cg), v + xi * vs, static_cast<int>(nb),
                         m + xi * ms, static_cast<int>(nb));
      }
      // Y = (A^T M) A + bias into out, clipped at the bottom and right edges.
      for (int64_t oc = 0; oc < og; ++oc) {
        const T b = pb ? pb[(g * og + oc) * b_stride] : T(0);
        winograd_output_rows<T>(m + oc * nb, ms, n_tiles, s);
        for (int64_t r = r0; r < r1; ++r) {
          const int64_t n = r / th, ty = r % th, k0 = (r - r0) * tw;
          T* dst = py + ((n * cout + g * og + oc) * oh + 2 * ty) * ow;
          winograd_output_cols<T>(s + k0, n_tiles, ow, b, dst);
          if (2 * ty + 1 < oh) winograd_output_cols<T>(s + 4 * n_tiles + k0, n_tiles, ow, b, dst + ow);
        }
      }
    }
  };
  // One task per thread, each with its own part of the scratch block; the
  // blocks are dealt out round-robin. Each task's GEMMs run on its own thread
  // (OpenBLAS's pool serves concurrent callers one at a time: resnet18 at
  // batch 8, 2 threads, its convolutions took 172 ms against 155 on one).
  blas_on_calling_thread();
  parallel_tasks(tasks, [&](int64_t t) {
    char* mem = base + u_bytes + t * task_bytes;
    for (int64_t block = t; block < blocks; block += tasks) run_block(block, mem);
  });
}

}  // namespace opd::kernels::detail
