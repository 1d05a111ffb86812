#pragma once
// Out-of-line part of overlap.hpp (compiled in src/kernels/elementwise.cpp).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <utility>

#include "dispatch/core/error.hpp"
#include "dispatch/core/small_vector.hpp"
#include "kernels/cpu/overlap.hpp"

namespace opd::kernels {

OPD_FUNC bool is_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides) {
  const std::size_t n = sizes.size();
  if (n == 1) return sizes[0] < 2 || strides[0] == 1;
  SmallVector<std::size_t, 6> perm(n);
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  std::sort(perm.begin(), perm.end(), [&](std::size_t a, std::size_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t required = 1;
  for (std::size_t i = 0; i < n; ++i) {
    const int64_t size = sizes[perm[i]];
    if (size < 2) return true;
    if (strides[perm[i]] != required) return false;
    required *= size;
  }
  return true;
}

OPD_FUNC bool is_non_overlapping_and_dense(const Tensor& t) {
  return t.is_contiguous() || is_non_overlapping_and_dense(t.sizes(), t.strides());
}

OPD_FUNC MemOverlap has_internal_overlap(const Tensor& t) {
  if (is_non_overlapping_and_dense(t)) return MemOverlap::No;
  const IntArrayRef sizes = t.sizes();
  const IntArrayRef strides = t.strides();
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (strides[i] == 0 && sizes[i] > 1) return MemOverlap::Yes;
  }
  return MemOverlap::TooHard;
}

OPD_FUNC void assert_no_internal_overlap(const Tensor& t) {
  OPD_CHECK(has_internal_overlap(t) != MemOverlap::Yes,
            "unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.");
}

namespace detail {

// [begin, end) bytes spanned by t's elements (t has elements, strides >= 0).
inline std::pair<const char*, const char*> byte_extent(const Tensor& t) {
  const char* begin = static_cast<const char*>(t.data_ptr());
  int64_t last = 0;
  const IntArrayRef sizes = t.sizes();
  const IntArrayRef strides = t.strides();
  for (std::size_t i = 0; i < sizes.size(); ++i) last += (sizes[i] - 1) * strides[i];
  return {begin, begin + (last + 1) * static_cast<int64_t>(t.itemsize())};
}

}  // namespace detail

OPD_FUNC MemOverlapStatus get_overlap_status(const Tensor& a, const Tensor& b) {
  if (a.is_same(b)) return MemOverlapStatus::Full;
  if (a.numel() == 0 || b.numel() == 0) return MemOverlapStatus::No;
  // PyTorch tests density first; for different storages both answers
  // (TooHard, No) mean "no error", so the cheap test goes first.
  if (!a.is_alias_of(b)) return MemOverlapStatus::No;
  if (!is_non_overlapping_and_dense(a) || !is_non_overlapping_and_dense(b)) return MemOverlapStatus::TooHard;
  if (a.is_alias_of(b) && a.data_ptr() != nullptr) {
    const char* a_begin = static_cast<const char*>(a.data_ptr());
    const char* a_end = a_begin + a.numel() * static_cast<int64_t>(a.itemsize());
    const char* b_begin = static_cast<const char*>(b.data_ptr());
    const char* b_end = b_begin + b.numel() * static_cast<int64_t>(b.itemsize());
    if (a_begin == b_begin && a_end == b_end) {
      return a.strides() == b.strides() ? MemOverlapStatus::Full : MemOverlapStatus::Partial;
    }
    if (a_begin < b_end && b_begin < a_end) return MemOverlapStatus::Partial;
  }
  return MemOverlapStatus::No;
}

OPD_FUNC void assert_no_partial_overlap(const Tensor& a, const Tensor& b) {
  OPD_CHECK(get_overlap_status(a, b) != MemOverlapStatus::Partial,
            "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
            "memory location. Please clone() the tensor before performing the operation.");
}

OPD_FUNC bool may_share_memory(const Tensor& a, const Tensor& b) {
  if (a.numel() == 0 || b.numel() == 0 || !a.is_alias_of(b) || a.data_ptr() == nullptr) return false;
  const auto [a_begin, a_end] = detail::byte_extent(a);
  const auto [b_begin, b_end] = detail::byte_extent(b);
  return a_begin < b_end && b_begin < a_end;
}

OPD_FUNC bool is_safe_elementwise_alias(const Tensor& out, const Tensor& in) {
  if (out.is_same(in)) return true;  // in-place: the loops read before they write
  if (!may_share_memory(out, in)) return true;
  return out.data_ptr() == in.data_ptr() && out.dtype() == in.dtype() && out.sizes() == in.sizes() &&
         out.strides() == in.strides();
}

}  // namespace opd::kernels
