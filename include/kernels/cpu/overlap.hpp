// Memory-overlap analysis (ATen's MemoryOverlap), used by kernels that
// write one tensor while reading others.
//
//   has_internal_overlap(t)   Yes when two elements of t share memory
//                             (a stride 0 over a size > 1, as expand()
//                             makes); No when t is non-overlapping and dense;
//                             TooHard otherwise.
//   get_overlap_status(a, b)  Full (same elements in the same layout),
//                             Partial, No or TooHard, PyTorch's rules.
//   may_share_memory(a, b)    conservative: the byte extents of a and b in
//                             one storage intersect.
#pragma once

#include "dispatch/config.hpp"
#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

enum class MemOverlap { No, Yes, TooHard };
enum class MemOverlapStatus { Full, Partial, TooHard, No };

// c10's is_non_overlapping_and_dense: some permutation of the dimensions
// makes the tensor contiguous (size-0/1 dimensions ignored).
OPD_API bool is_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides);
OPD_API bool is_non_overlapping_and_dense(const Tensor& t);

OPD_API MemOverlap has_internal_overlap(const Tensor& t);

OPD_API void assert_no_internal_overlap(const Tensor& t);

OPD_API MemOverlapStatus get_overlap_status(const Tensor& a, const Tensor& b);

OPD_API void assert_no_partial_overlap(const Tensor& a, const Tensor& b);

// True when a and b are in one storage and their byte extents intersect
// (they may still interleave without sharing an element).
OPD_API bool may_share_memory(const Tensor& a, const Tensor& b);

// True when reading b while writing a, element by element in any order,
// gives the same result as reading all of b first: no shared memory, or
// exactly the same elements in the same layout and dtype.
OPD_API bool is_safe_elementwise_alias(const Tensor& out, const Tensor& in);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/overlap-inl.hpp"
#endif
