#pragma once
// The index walk of gather, scatter (src / value / reduce / add),
// scatter_add and scatter_reduce.two: the index tensor row by row over its
// last dimension (an odometer over the others, no table of offsets), each
// thread's range of indices checked by one vectorized pass before it is used.
//
//   scatter_walk::for_each_position(op, out, dim, idx, src_strides, parallel, f);   // f(out offset, src offset)
//
// The walk is one function that is not a template (for_each_index_row_of);
// only f's loop over a row is compiled per dtype and operation. When the
// walk was a template over f, gather and scatter_add measured 1.20-1.29x
// ATen's time (their own loops then 1.02-1.14x) and core_aten.cpp took
// 11.4 s to compile; as it is, 1.07-1.14x and 4.3 s (6.7 s before
// scatter_reduce.two used it). One thread, [1000, 1000], 2026-11-29.
//
// Rows run in parallel when the caller allows it (gather; the scatters when
// dim is index's last dimension, where each row writes its own elements of
// out). Otherwise they run in order, so that of duplicate indices the last
// write wins, as in ATen's serial loop.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "dispatch/core/error.hpp"
#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/reduce_simd.hpp"

namespace opd::kernels::scatter_walk {

// ATen's ensure_nonempty_*: a 0-dim tensor counts as one dimension of size 1.
inline int64_t dims_of(const Tensor& t) { return t.dim() == 0 ? 1 : t.dim(); }
inline int64_t size_of(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.size(d); }
inline int64_t stride_of(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.stride(d); }

// t's strides (as a 1-d tensor when 0-dim), the one of `dim` zeroed.
inline SizesVector strides_but(const Tensor& t, int64_t dim) {
  SizesVector st;
  for (int64_t d = 0; d < dims_of(t); ++d) st.push_back(d == dim ? 0 : stride_of(t, d));
  return st;
}

// Every index in [0, size): the largest index read as unsigned (a negative
// one reads as more than any size) in one vectorized pass, then the first
// bad one for the message.
[[gnu::noinline]] inline void check_index_range(std::string_view op, const int64_t* iv, int64_t numel, int64_t dim,
                                                int64_t size) {
  if (simd::max_row(reinterpret_cast<const uint64_t*>(iv), numel) < static_cast<uint64_t>(size)) return;
  for (int64_t i = 0; i < numel; ++i) {
    OPD_CHECK(iv[i] >= 0 && iv[i] < size, op, ": index ", iv[i], " is out of bounds for dimension ", dim,
              " with size ", size);
  }
}

// Rows [rb, re) of index (sizes `isizes`): row(r, bases), bases[k] = the sum
// over the row's coordinates d of coord[d] * strides[k][d] (each caller
// zeroes the stride of `dim`, which the index values supply): an odometer
// over the outer dimensions, no table of offsets, no division per element.
template <std::size_t K, class Row>
void for_each_index_row(const SizesVector& isizes, const std::array<SizesVector, K>& strides, int64_t rb, int64_t re,
                        Row&& row) {
  const auto last = static_cast<int64_t>(isizes.size()) - 1;
  SizesVector coord(static_cast<std::size_t>(last), 0);
  std::array<int64_t, K> bases{};
  int64_t rem = rb;
  for (int64_t d = last; d-- > 0;) {
    const auto du = static_cast<std::size_t>(d);
    coord[du] = rem % isizes[du];
    rem /= isizes[du];
    for (std::size_t k = 0; k < K; ++k) bases[k] += coord[du] * strides[k][du];
  }
  for (int64_t r = rb; r < re; ++r) {
    row(r, bases);
    for (int64_t d = last; d-- > 0;) {
      const auto du = static_cast<std::size_t>(d);
      if (++coord[du] < isizes[du]) {
        for (std::size_t k = 0; k < K; ++k) bases[k] += strides[k][du];
        break;
      }
      for (std::size_t k = 0; k < K; ++k) bases[k] -= strides[k][du] * (isizes[du] - 1);
      coord[du] = 0;
    }
  }
}

// One row of the index tensor as the walk hands it over: element j's
// offset in out is out_base + index[j] (dense) or out_base + j * out_step +
// index[j] * out_dim, its offset in src src_base + j (dense) or
// src_base + j * src_step.
struct IndexRow {
  const int64_t* index;
  int64_t n, out_base, src_base, out_step, out_dim, src_step;
  bool dense;  // along a dense last dim: no multiplies
};
using IndexRowFn = void (*)(void* ctx, const IndexRow& row);

// The walk itself, not a template (compiled once, whatever the dtype and
// the operation): rows of `index` (contiguous Long, out's number of dims)
// in row-major order, fn(ctx, row) for each. Each thread's range of indices
// is checked before its rows are handed over (an index out of
// [0, out.size(dim)) throws; other ranges may have been written, so callers
// pass an out of their own, a clone of self). src_strides: empty when there
// is no src (its offsets are then 0).
inline void for_each_index_row_of(std::string_view op, const Tensor& out, int64_t dim, const Tensor& index,
                                  const SizesVector& src_strides, bool parallel, IndexRowFn fn, void* ctx) {
  const int64_t* iv = index.data_ptr<int64_t>();
  const int64_t numel = index.numel();
  if (numel == 0) return;
  const int64_t size = size_of(out, dim);
  SizesVector isizes;
  for (int64_t d = 0; d < dims_of(index); ++d) isizes.push_back(size_of(index, d));
  const int64_t last = static_cast<int64_t>(isizes.size()) - 1;
  const int64_t n_inner = isizes[static_cast<std::size_t>(last)];
  const int64_t rows = numel / n_inner;
  const int64_t odim = stride_of(out, dim);
  const int64_t ostep = last == dim ? 0 : stride_of(out, last);
  const SizesVector sstrides = src_strides.empty() ? SizesVector(isizes.size(), 0) : src_strides;
  const int64_t sstep = sstrides[static_cast<std::size_t>(last)];
  const bool dense = ostep == 0 && odim == 1 && sstep == 1;
  const std::array<SizesVector, 2> strides{strides_but(out, dim), sstrides};
  const int64_t grain = parallel ? std::max<int64_t>(1, grain_size / n_inner) : rows;
  parallel_for(0, rows, grain, [&](int64_t rb, int64_t re) {
    check_index_range(op, iv + rb * n_inner, (re - rb) * n_inner, dim, size);
    for_each_index_row<2>(isizes, strides, rb, re, [&](int64_t r, const std::array<int64_t, 2>& base) {
      fn(ctx, IndexRow{iv + r * n_inner, n_inner, base[0], base[1], ostep, odim, sstep, dense});
    });
  });
}

// f(offset in out, offset in src) for every element of `index`, row-major:
// the walk above with f's typed loop over each row (the only part compiled
// per dtype and operation).
template <class F>
void for_each_position(std::string_view op, const Tensor& out, int64_t dim, const Tensor& index,
                       const SizesVector& src_strides, bool parallel, F&& f) {
  using Fn = std::remove_reference_t<F>;
  const IndexRowFn row = [](void* ctx, const IndexRow& r) {
    Fn& g = *static_cast<Fn*>(ctx);
    if (r.dense) {
      for (int64_t j = 0; j < r.n; ++j) g(r.out_base + r.index[j], r.src_base + j);
    } else {
      for (int64_t j = 0; j < r.n; ++j) g(r.out_base + j * r.out_step + r.index[j] * r.out_dim, r.src_base + j * r.src_step);
    }
  };
  for_each_index_row_of(op, out, dim, index, src_strides, parallel, row, const_cast<void*>(static_cast<const void*>(&f)));
}

}  // namespace opd::kernels::scatter_walk
