#pragma once
// Out-of-line part of ops_view_copies.hpp (compiled in
// src/kernels/view_copies.cpp): the one default kernel of every *_copy
// operator, and register_view_copies().
#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_view_copies.hpp"
#include "kernels/ops_views.hpp"

namespace opd::kernels {

namespace view_copy_detail {

// ATen's is_non_overlapping_and_dense: some order of the dims (size-1 dims
// left out) is contiguous.
OPD_FUNC bool dense(IntArrayRef sizes, IntArrayRef strides) {
  std::vector<std::size_t> perm;
  for (std::size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] != 1) perm.push_back(d);
  std::sort(perm.begin(), perm.end(), [&](std::size_t a, std::size_t b) { return strides[a] < strides[b]; });
  int64_t expected = 1;
  for (std::size_t d : perm) {
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

// Dense strides keeping the order of t's strides (ATen's infer_dense_strides):
// dims ordered innermost first by stride (a 0 stride compares with none; equal
// strides: the smaller size inner), then laid out contiguously in that order.
OPD_FUNC SizesVector dense_strides_like(IntArrayRef sizes, IntArrayRef strides) {
  const std::size_t n = sizes.size();
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = n - 1 - i;
  auto order = [&](std::size_t a, std::size_t b) {  // > 0: b goes inside a
    if (strides[a] == 0 || strides[b] == 0) return 0;
    if (strides[a] != strides[b]) return strides[a] < strides[b] ? -1 : 1;
    return sizes[a] > sizes[b] ? 1 : 0;
  };
  for (std::size_t i = 1; i < n; ++i) {  // a stable insertion sort
    std::size_t moving = i;
    for (std::size_t j = i; j-- > 0;) {
      const int c = order(perm[j], perm[moving]);
      if (c > 0) {
        std::swap(perm[j], perm[moving]);
        moving = j;
      } else if (c < 0) {
        break;
      }
    }
  }
  SizesVector out(sizes);
  int64_t stride = 1;
  for (std::size_t d : perm) {
    out[d] = stride;
    if (sizes[d] > 1) stride *= sizes[d];
  }
  return out;
}

// A fresh tensor with t's values, laid out as ATen 1.13's *_copy results
// (clone with preserve_format, i.e. empty_like): a dense view keeps its
// strides, any other gets dense strides in the order of its own (so a
// transpose_copy or the slice_copy of a transposed tensor stays transposed).
OPD_FUNC Tensor fresh_copy(const Tensor& t) {
  const SizesVector strides = dense(t.sizes(), t.strides()) ? SizesVector(t.strides())
                                                              : dense_strides_like(t.sizes(), t.strides());
  Tensor out = call<ops::empty_strided>(std::span<const int64_t>(t.sizes().data(), t.sizes().size()),
                                        std::span<const int64_t>(strides.data(), strides.size()),
                                        arg<"dtype"> = t.dtype(), arg<"device"> = t.device());
  call<ops::copy_>(out, t, false);
  return out;
}
inline std::vector<Tensor> fresh_copy(const std::vector<Tensor>& ts) {
  std::vector<Tensor> out;
  out.reserve(ts.size());
  for (const Tensor& t : ts) out.push_back(fresh_copy(t));
  return out;
}

// The kernel of view_copy_of<View>, typed exactly as its schema says: the
// view through the dispatcher, then a contiguous copy of each result.
template <class Copy, class Signature = typename Copy::signature>
struct kernel;
template <class Copy, class R, class... Args>
struct kernel<Copy, R(Args...)> {
  static R run(Args... args) { return fresh_copy(call<typename Copy::view_op>(std::forward<Args>(args)...)); }
};

template <class Copy>
RegistrationHandle register_copy() {
  return register_kernel<Copy, &kernel<Copy>::run>(DispatchKey::CompositeExplicitAutograd);
}

}  // namespace view_copy_detail

OPD_FUNC RegistrationSet register_view_copies() {
  namespace d = view_copy_detail;
  RegistrationSet set;
  set.add(d::register_copy<ops::view_copy>());
  set.add(d::register_copy<ops::transpose_copy>());
  set.add(d::register_copy<ops::t_copy>());
  set.add(d::register_copy<ops::permute_copy>());
  set.add(d::register_copy<ops::slice_copy>());
  set.add(d::register_copy<ops::select_copy>());
  set.add(d::register_copy<ops::diagonal_copy>());
  set.add(d::register_copy<ops::unsqueeze_copy>());
  set.add(d::register_copy<ops::squeeze_copy>());
  set.add(d::register_copy<ops::squeeze_dim_copy>());
  set.add(d::register_copy<ops::expand_copy>());
  set.add(d::register_copy<ops::as_strided_copy>());
  set.add(d::register_copy<ops::alias_copy>());
  set.add(d::register_copy<ops::split_copy>());
  set.add(d::register_copy<ops::split_with_sizes_copy>());
  set.add(d::register_copy<ops::unbind_copy>());
  set.add(d::register_copy<ops::unfold_copy>());
  set.add(d::register_copy<ops::detach_copy>());
  set.add(d::register_copy<ops::view_as_real_copy>());
  set.add(d::register_copy<ops::view_as_complex_copy>());
  return set;
}

}  // namespace opd::kernels
