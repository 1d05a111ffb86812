// Vectorized row kernels of the reductions, softmax and normalization
// (contiguous rows of float or double): sums in pairwise (cascade) order, max
// / min that propagate NaN, softmax / log_softmax of a row, and the rows of
// layer and group norm. Highway picks the widest instruction set the CPU has
// at run time (SSE4, AVX2 or AVX-512; reduce_simd-inl.hpp); the reductions of
// reduce.hpp call these on rows they made contiguous.
#pragma once

#include <cstdint>

#include "dispatch/config.hpp"

namespace opd::kernels::simd {

// Sum of x[0..n) in pairwise order (blocks summed across vector lanes,
// blocks combined as a binary tree): error O(log n) ulps, as ATen's cascade_sum.
OPD_API float sum_row(const float* x, int64_t n);
OPD_API double sum_row(const double* x, int64_t n);

// Largest / smallest of x[0..n), NaN if any element is NaN; n >= 1.
OPD_API float max_row(const float* x, int64_t n);
OPD_API double max_row(const double* x, int64_t n);
OPD_API float min_row(const float* x, int64_t n);
OPD_API double min_row(const double* x, int64_t n);
// Largest of x[0..n), 0 when n is 0. Index checks use it: a signed index
// read as unsigned is below `size` exactly when it is in [0, size).
OPD_API uint64_t max_row(const uint64_t* x, int64_t n);

// Product of x[0..n) in 32 interleaved partial products (element i into
// partial i % 32, the remainder after the last whole 32 left out), the
// partials combined as a tree (p[j] *= p[j + 16], then + 8, + 4, + 2, + 1),
// then the remainder left to right. The same order on every CPU.
OPD_API float prod_row(const float* x, int64_t n);
OPD_API double prod_row(const double* x, int64_t n);
// out[r] = prod_row(x + r * n, n) for r < rows, the same bits; rows taken two
// at a time, so that one row's chain of multiplies runs beside the other's.
OPD_API void prod_rows(const float* x, int64_t n, int64_t rows, float* out);
OPD_API void prod_rows(const double* x, int64_t n, int64_t rows, double* out);

// Sum of (x[i] - mean)^2 over x[0..n), pairwise as sum_row.
OPD_API float sum_sq_dev_row(const float* x, int64_t n, float mean);

// y[i] = (x[i] * scale + shift) * w[i] + b[i] (w, b may be null: 1, 0), the
// layer_norm output of one row.
OPD_API void affine_row(const float* x, float* y, int64_t n, float scale, float shift, const float* w, const float* b);

// One row of native_layer_norm_backward (n >= 1): dgamma[i] += dy (x - mean)
// rstd and dbeta[i] += dy (either null when not wanted); with g = dy w (dy
// without weight), dx = rstd g + b x + c where b and c come from sum g x and
// sum g over the row (dx null: no dx). Sums in T, as ATen's float opmath.
OPD_API void layer_norm_backward_row(const float* x, const float* dy, const float* w, int64_t n, float mean,
                                     float rstd, float* dx, float* dgamma, float* dbeta);
OPD_API void layer_norm_backward_row(const double* x, const double* dy, const double* w, int64_t n, double mean,
                                     double rstd, double* dx, double* dgamma, double* dbeta);

// *gx = sum g[i] x[i] and *gs = sum g[i] over [0, n), accumulated in double
// (group norm's backward per channel).
OPD_API void dot_sum_row(const float* g, const float* x, int64_t n, double* gx, double* gs);
OPD_API void dot_sum_row(const double* g, const double* x, int64_t n, double* gx, double* gs);

// y[i] = a g[i] + b x[i] + c over [0, n), in double, rounded once.
OPD_API void axpbyc_row(const float* g, const float* x, float* y, int64_t n, double a, double b, double c);
OPD_API void axpbyc_row(const double* g, const double* x, double* y, int64_t n, double a, double b, double c);

// out[j] = sqrt(sum over k < m of (a[k] - b[j m + k])^2) for j < count: the
// Euclidean distances from row a to `count` consecutive rows of m (pdist's
// p = 2).
OPD_API void euclidean_rows(const float* a, const float* b, int64_t count, int64_t m, float* out);
OPD_API void euclidean_rows(const double* a, const double* b, int64_t count, int64_t m, double* out);

// y = softmax(x) (log_softmax when `log`) over x[0..n), n >= 1; y may be x.
OPD_API void softmax_row(const float* x, float* y, int64_t n, bool log);

}  // namespace opd::kernels::simd

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/reduce_simd-inl.hpp"
#endif
