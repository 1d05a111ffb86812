#pragma once
// The reduction engine shared by reduce-inl.hpp and normalization-inl.hpp
// (inline and templates only: included by the kernel sources, never by users
// in compiled mode).
//
// The input is viewed with the kept dimensions first and the reduced ones
// last (a permutation, no copy), and made a contiguous [outer, inner] block
// of rows in the accumulation dtype (no copy either when it already is one:
// the common "reduce the last dims of a contiguous tensor"). Each op is then
// a function of one contiguous row; rows run in parallel (parallel_for), and
// a full reduction of one long row is split into chunks whose partial
// results are combined. The dtype product stays small: rows are float,
// double, int64 or bool, except for the comparisons (max, argmax, ...),
// which run on the input's own dtype.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/core/small_vector.hpp"
#include "dispatch/core/tensor_impl.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/reduce_simd.hpp"
#include "kernels/cpu/type_promotion.hpp"
#include "kernels/views/geometry.hpp"

namespace opd::kernels {

namespace reduce_detail {

// (Not reduce.hpp's DimList: in header-only mode reduce.hpp includes
// reduce-inl.hpp, which includes this file; the engine stands alone.)
using DimSpan = std::span<const int64_t>;

// ------------------------------------------------------------------ geometry ---

// self seen as [outer, inner]: `rows` is a view with the kept dimensions
// first and the reduced ones last (self itself when that is its own order);
// out_sizes is the result's shape. Inline vectors: a plan of up to five
// dimensions allocates nothing (a one-element reduction costs about as much
// as its call, so the plan's bookkeeping shows).
struct Plan {
  SizesVector out_sizes;
  Tensor rows;
  int64_t outer = 1;
  int64_t inner = 1;
};

// memory_order: the reduced dims in the order of their strides (largest
// first), as TensorIterator walks memory, so that sums add in ATen's order
// where it matters (cancellation); otherwise in logical order (argmax of a
// flattened input, scans).
inline Plan make_plan(const char* op, const Tensor& self, DimSpan dims, bool keepdim, bool memory_order = false) {
  const int64_t nd = self.dim();
  SmallVector<char, 8> reduced;
  reduced.assign(static_cast<std::size_t>(nd), dims.empty() ? 1 : 0);
  for (const int64_t d : dims) {
    const int64_t w = views::wrap_dim(op, d, nd);
    if (nd == 0) continue;
    OPD_CHECK(!reduced[static_cast<std::size_t>(w)], op, ": dim ", w, " appears multiple times in the list of dims");
    reduced[static_cast<std::size_t>(w)] = 1;
  }
  Plan p;
  SizesVector sizes, strides, red_sizes, red_strides;
  for (int64_t i = 0; i < nd; ++i) {
    const auto u = static_cast<std::size_t>(i);
    if (reduced[u]) {
      red_sizes.push_back(self.sizes()[u]);
      red_strides.push_back(self.strides()[u]);
      p.inner *= self.sizes()[u];
      if (keepdim) p.out_sizes.push_back(1);
    } else {
      sizes.push_back(self.sizes()[u]);
      strides.push_back(self.strides()[u]);
      p.outer *= self.sizes()[u];
      p.out_sizes.push_back(self.sizes()[u]);
    }
  }
  if (memory_order && red_sizes.size() > 1) {
    SmallVector<std::size_t, 8> order;
    for (std::size_t i = 0; i < red_sizes.size(); ++i) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return red_strides[a] > red_strides[b]; });
    const SizesVector rs = red_sizes, rt = red_strides;
    for (std::size_t k = 0; k < order.size(); ++k) {
      red_sizes[k] = rs[order[k]];
      red_strides[k] = rt[order[k]];
    }
  }
  for (std::size_t k = 0; k < red_sizes.size(); ++k) {
    sizes.push_back(red_sizes[k]);
    strides.push_back(red_strides[k]);
  }
  const IntArrayRef same_sizes = self.sizes(), same_strides = self.strides();
  const bool own_order = std::equal(sizes.begin(), sizes.end(), same_sizes.begin(), same_sizes.end()) &&
                         std::equal(strides.begin(), strides.end(), same_strides.begin(), same_strides.end());
  p.rows = own_order ? self : self.as_strided(sizes, strides, self.storage_offset());
  return p;
}

// The rows as one contiguous block of dtype `acc` (self's memory when it is one).
inline Tensor contiguous_rows(const Tensor& rows, ScalarType acc) {
  if (rows.dtype() == acc && rows.is_contiguous()) return rows;
  Tensor buf = kernels::empty(rows.sizes(), acc);
  kernels::copy_(buf, rows);
  return buf;
}

// complex_ok: the reduction has complex loops (sum, prod, mean); the others
// refuse complex64/complex128 here, before anything is computed.
inline void check_input(const char* op, const Tensor& self, bool complex_ok = false) {
  OPD_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  OPD_CHECK(self.device().is_cpu() || self.device().is_meta(), op, ": the CPU kernel got argument 'self' on device ",
            self.device());  // (the kernels are the Meta kernels too)
  if (complex_ok && is_complex_kernel_dtype(self.dtype())) return;
  if (!is_kernel_dtype(self.dtype())) throw_not_implemented_for(op, self.dtype());
}

// The empty-reduction errors of amax, max, argmax, ...
inline void check_nonempty(const char* op, const Tensor& self, DimSpan dims) {
  if (self.numel() != 0) return;
  OPD_CHECK_INDEX(!dims.empty() && self.dim() != 0, op,
                  "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with "
                  "the 'dim' argument.");
  for (const int64_t d : dims) {
    const int64_t w = views::wrap_dim(op, d, self.dim());
    OPD_CHECK_INDEX(self.sizes()[static_cast<std::size_t>(w)] != 0, op, "(): Expected reduction dim ", w,
                    " to have non-zero size.");
  }
}

// ------------------------------------------------------------- row drivers ---

// out[o] = f(row o) for every row, rows in parallel.
template <class R, class A, class F>
void for_each_row(const A* data, int64_t outer, int64_t inner, R* out, const F& f) {
  const int64_t grain = std::max<int64_t>(1, grain_size / std::max<int64_t>(inner, 1));
  parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
    for (int64_t o = b; o < e; ++o) out[o] = f(data + o * inner, inner);
  });
}

// Like for_each_row; one long row (outer == 1) is split into chunks reduced
// in parallel, then combined in order with `combine`.
template <class R, class A, class F, class C>
void reduce_rows(const A* data, int64_t outer, int64_t inner, R* out, const F& f, const C& combine) {
  constexpr int64_t chunk = 1 << 16;
  if (outer != 1 || inner <= 2 * chunk || get_num_threads() == 1) {
    for_each_row(data, outer, inner, out, f);
    return;
  }
  const int64_t n = (inner + chunk - 1) / chunk;
  std::vector<R> part(static_cast<std::size_t>(n));
  parallel_for(0, n, 1, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c)
      part[static_cast<std::size_t>(c)] = f(data + c * chunk, std::min(chunk, inner - c * chunk));
  });
  // Partials combined as a tree (pairwise), not left to right.
  for (std::size_t width = 1; width < part.size(); width *= 2)
    for (std::size_t c = 0; c + width < part.size(); c += 2 * width) part[c] = combine(part[c], part[c + width]);
  out[0] = part[0];
}

// Pairwise sum of term(i) for i in [0, n): blocks of 8 interleaved
// accumulators, blocks combined as a tree.
template <class A, class Term>
A pairwise_sum(int64_t b, int64_t e, const Term& term) {
  if (e - b <= 512) {
    A acc[8] = {};
    int64_t i = b;
    for (; i + 8 <= e; i += 8)
      for (int j = 0; j < 8; ++j) acc[j] += term(i + j);
    for (; i < e; ++i) acc[0] += term(i);
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  }
  const int64_t half = b + ((e - b) / 2 + 511) / 512 * 512;
  return pairwise_sum<A>(b, half, term) + pairwise_sum<A>(half, e, term);
}

template <class A>
A sum_row(const A* x, int64_t n) {
  if constexpr (std::is_same_v<A, float> || std::is_same_v<A, double>) {
    return n == 0 ? A(0) : simd::sum_row(x, n);
  } else if constexpr (is_complex_v<A>) {  // both parts pairwise, as the floats
    return pairwise_sum<A>(0, n, [x](int64_t i) { return x[i]; });
  } else {
    uint64_t s = 0;  // integers wrap, as two's complement
    for (int64_t i = 0; i < n; ++i) s += static_cast<uint64_t>(x[i]);
    return static_cast<A>(s);
  }
}

template <class A>
A prod_row(const A* x, int64_t n) {
  if constexpr (std::is_integral_v<A>) {
    uint64_t p = 1;
    for (int64_t i = 0; i < n; ++i) p *= static_cast<uint64_t>(x[i]);
    return static_cast<A>(p);
  } else if constexpr (is_complex_v<A>) {  // left to right, by the textbook product (ATen's, not Annex G's)
    A p(1);
    for (int64_t i = 0; i < n; ++i) {
      p = A(p.real() * x[i].real() - p.imag() * x[i].imag(), p.real() * x[i].imag() + p.imag() * x[i].real());
    }
    return p;
  } else {
    // Long rows: interleaved partial products (as ATen's vectorized
    // reduction keeps one per lane), combined as a tree (simd::prod_row): one
    // running product is a chain of dependent multiplies the compiler may not
    // reorder, so it neither vectorizes nor pipelines. Short rows (where ATen's CPU loop
    // does not vectorize either): left to right, ATen's order and result.
    if (n < 128) {
      A p = 1;
      for (int64_t i = 0; i < n; ++i) p *= x[i];
      return p;
    }
    return simd::prod_row(x, n);  // A: float or double (the accumulate types)
  }
}

}  // namespace reduce_detail

}  // namespace opd::kernels
