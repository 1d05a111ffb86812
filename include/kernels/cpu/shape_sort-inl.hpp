#pragma once
// Out-of-line part of shape.hpp (compiled in src/kernels/shape_sort.cpp):
// sort and topk, one comparison sort per slice along dim, in ATen's order.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/shape.hpp"
#include "kernels/views/geometry.hpp"

namespace opd::kernels {

namespace sort_detail {

// Which order a slice's first k entries come in.
enum class Order : uint8_t {
  stable,             // equal values in position order (sort.stable, the stable prefix)
  aten_sort,          // ATen 1.13's unstable sort (SortingKernel.cpp)
  aten_topk,          // ATen 1.13's topk, sorted (TopKImpl.h)
  aten_topk_unsorted  // ATen 1.13's topk, sorted=False
};

// ATen's orders: std::sort / partial_sort / nth_element over (value,
// position) pairs with NaN greater than every value, as ATen calls them.
// libstdc++'s algorithms move the same way for the same comparisons, so
// equal values come out in ATen's order (which ATen does not specify).
template <class M, class Less>
void aten_order(std::vector<std::pair<M, int64_t>>& kv, int64_t k, Order order, const Less& less) {
  const int64_t n = static_cast<int64_t>(kv.size());
  if (order == Order::aten_sort) {
    std::sort(kv.begin(), kv.end(), less);
  } else if (k * 64 <= n) {
    std::partial_sort(kv.begin(), kv.begin() + k, kv.end(), less);
  } else {
    std::nth_element(kv.begin(), kv.begin() + (k - 1), kv.end(), less);
    if (order == Order::aten_topk) std::sort(kv.begin(), kv.begin() + (k - 1), less);  // (sic: k - 1)
  }
}

// Calls f(less) with ATen's comparison of (value, position) pairs: by value,
// NaN greater than every value, descending or ascending.
template <class M, class F>
void with_aten_less(bool descending, const F& f) {
  using Pair = std::pair<M, int64_t>;
  const auto nan = [](const M& x) {
    if constexpr (std::is_floating_point_v<M>) return std::isnan(x);
    else return (static_cast<void>(x), false);
  };
  if (descending) {
    f([&](const Pair& a, const Pair& b) { return (nan(a.first) && !nan(b.first)) || a.first > b.first; });
  } else {
    f([&](const Pair& a, const Pair& b) { return (!nan(a.first) && nan(b.first)) || a.first < b.first; });
  }
}

// ATen's partial_sort (aten_order's k * 64 <= n) of one slice of n values
// read `stride` apart, into kv[0, k): the steps of libstdc++'s partial_sort
// (a heap of the first k, each later pair that beats the heap's top popped
// into it, the heap sorted), so ties come out as ATen's do, without first
// copying the slice into pairs: a pair is built only for the few values
// that beat the top (1.27x ATen's time when every value was copied).
template <class M, class T>
void aten_partial_sort_slice(std::vector<std::pair<M, int64_t>>& kv, const T* in, int64_t n, int64_t stride,
                             int64_t k, bool descending) {
  kv.resize(static_cast<std::size_t>(k + 1));
  for (int64_t j = 0; j < k; ++j) kv[static_cast<std::size_t>(j)] = {static_cast<M>(in[j * stride]), j};
  with_aten_less<M>(descending, [&](const auto& less) {
    const auto heap = kv.begin(), top_end = kv.begin() + k;
    std::make_heap(heap, top_end, less);
    for (int64_t j = k; j < n; ++j) {
      const std::pair<M, int64_t> candidate{static_cast<M>(in[j * stride]), j};
      if (!less(candidate, *heap)) continue;
      *top_end = candidate;
      std::pop_heap(heap, top_end + 1, less);  // libstdc++'s __pop_heap(heap, top_end, candidate), as heap_select
    }
    std::sort_heap(heap, top_end, less);
  });
}

// The first k entries of one slice in `order`, as (key, position) pairs
// sorted in place. Stable: NaN entries are moved out first (to the end
// ascending, to the front descending, each side in position order), so that
// the sort itself compares plain keys, and pairs are sorted directly rather
// than positions through the keys (no indirect load per comparison).
template <class M>
void sort_pairs(std::vector<std::pair<M, int64_t>>& kv, int64_t k, bool descending, Order order) {
  using Pair = std::pair<M, int64_t>;
  if (order != Order::stable) {
    if (k == 0) return;
    with_aten_less<M>(descending, [&](const auto& less) { aten_order(kv, k, order, less); });
    return;
  }
  auto first = kv.begin(), last = kv.end();
  if constexpr (std::is_floating_point_v<M>) {
    bool any_nan = false;
    for (const Pair& p : kv) any_nan = any_nan || std::isnan(p.first);
    if (any_nan) {
      if (descending) {
        first = std::stable_partition(kv.begin(), kv.end(), [](const Pair& p) { return std::isnan(p.first); });
      } else {
        last = std::stable_partition(kv.begin(), kv.end(), [](const Pair& p) { return !std::isnan(p.first); });
      }
    }
  }
  // the positions of the output the sort has to fill
  const int64_t want = std::min<int64_t>(k - (first - kv.begin()), last - first);
  if (want <= 0) return;
  const auto by_key = [descending](const Pair& a, const Pair& b) {
    return descending ? a.first > b.first : a.first < b.first;
  };
  if (want == last - first) {
    std::stable_sort(first, last, by_key);
  } else {  // ties broken by position, so the result is the stable order's prefix
    std::partial_sort(first, first + want, last, [&](const Pair& a, const Pair& b) {
      return by_key(a, b) || (!by_key(b, a) && a.second < b.second);
    });
  }
}

// For every slice along dim of contiguous `src` (outer x n x inner): the
// first k positions of its stable order, written to contiguous values and
// indices of shape outer x k x inner.
template <class T>
void sort_slices(const T* src, int64_t outer, int64_t n, int64_t inner, int64_t k, bool descending, Order order,
                 T* values, int64_t* indices) {
  using M = opmath_t<T>;
  const int64_t slices = outer * inner;
  // aten_order's partial_sort, run straight from the slice
  const bool heap_select = (order == Order::aten_topk || order == Order::aten_topk_unsorted) && k > 0 && k * 64 <= n;
  parallel_for(0, slices, std::max<int64_t>(1, grain_size / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
    std::vector<std::pair<M, int64_t>> kv(static_cast<std::size_t>(heap_select ? k + 1 : n));
    for (int64_t s = b; s < e; ++s) {
      const int64_t o = s / inner;
      const int64_t i = s % inner;
      const T* in = src + o * n * inner + i;
      if (heap_select) {
        aten_partial_sort_slice(kv, in, n, inner, k, descending);
      } else {
        for (int64_t j = 0; j < n; ++j) kv[static_cast<std::size_t>(j)] = {static_cast<M>(in[j * inner]), j};
        sort_pairs(kv, k, descending, order);
      }
      T* vo = values + o * k * inner + i;
      int64_t* io = indices + o * k * inner + i;
      for (int64_t j = 0; j < k; ++j) {
        const int64_t at = kv[static_cast<std::size_t>(j)].second;
        vo[j * inner] = in[at * inner];
        io[j * inner] = at;
      }
    }
  });
}

OPD_FUNC std::tuple<Tensor, Tensor> sort_impl(std::string_view op, const char* dispatch_name, const Tensor& self,
                                              int64_t dim, int64_t k, bool descending, Order order) {
  OPD_CHECK(self.defined() && (self.device().is_cpu() || self.device().is_meta()), op, ": expected a defined CPU tensor");
  dim = views::wrap_dim(op, dim, self.dim());
  const int64_t n = self.dim() == 0 ? 1 : self.size(dim);
  SizesVector sizes(self.sizes());
  if (self.dim() > 0) sizes[static_cast<std::size_t>(dim)] = k;
  const IntArrayRef shape(sizes.data(), sizes.size());
  // The Meta kernel too: shapes, and the dtype check the loop's dispatch makes.
  Tensor values = opd::empty(shape, self.dtype(), self.device());
  Tensor indices = opd::empty(shape, ScalarType::Long, self.device());
  if (values.numel() == 0) return {values, indices};
  if (self.is_meta()) {
    dispatch_dtype(self.dtype(), dispatch_name, [](auto) {});
    return {values, indices};
  }
  const Tensor src = self.is_contiguous() ? self : contiguous_clone(self);
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= self.size(d);
  const int64_t inner = self.numel() / outer / n;
  dispatch_dtype(self.dtype(), dispatch_name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    sort_slices<T>(src.data_ptr<T>(), outer, n, inner, k, descending, order, values.data_ptr<T>(),
                   indices.data_ptr<int64_t>());
  });
  return {values, indices};
}

}  // namespace sort_detail

OPD_FUNC std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending, bool stable) {
  const int64_t n = self.defined() && self.dim() > 0 ? self.size(views::wrap_dim("aten::sort", dim, self.dim())) : 1;
  return sort_detail::sort_impl("aten::sort", "sort", self, dim, n, descending,
                                stable ? sort_detail::Order::stable : sort_detail::Order::aten_sort);
}

OPD_FUNC std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted) {
  constexpr std::string_view op = "aten::topk";
  OPD_CHECK(self.defined() && (self.device().is_cpu() || self.device().is_meta()), op, ": expected a defined CPU tensor");
  // ATen 1.13's topk_cpu dispatches the integer types, Float, Double and BFloat16
  OPD_CHECK_TYPE(self.dtype() != ScalarType::Bool && self.dtype() != ScalarType::Half, "\"topk_cpu\" not implemented for '",
                 self.dtype(), "'");
  const int64_t w = views::wrap_dim(op, dim, self.dim());
  const int64_t n = self.dim() == 0 ? 1 : self.size(w);
  OPD_CHECK(k >= 0 && k <= n, op, ": selected index k out of range");
  return sort_detail::sort_impl(op, "topk_cpu", self, w, k, largest,
                                sorted ? sort_detail::Order::aten_topk : sort_detail::Order::aten_topk_unsorted);
}

}  // namespace opd::kernels
